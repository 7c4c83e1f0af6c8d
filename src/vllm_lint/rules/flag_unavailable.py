"""## What it does
Checks for engine arguments the target vLLM release does not define: a
keyword or dict key given to `LLM`, `EngineArgs` or `AsyncEngineArgs`, a
`vllm serve` flag (on a command line, in a `--config` file, a Kubernetes,
compose or Dockerfile command, an argv list), or a key a framework passes to
vLLM verbatim: to the engine arguments (NeMo-RL's `vllm_kwargs`), or to the
server's, whose own options count too (prime-rl's `[inference.vllm]` table,
verl's `engine_kwargs.vllm`: `tool_call_parser` is valid there), and the
argument a framework's own key becomes where the config writes that key (verl's
`rollout.cudagraph_capture_sizes` is sent as `--cuda_graph_sizes`, which vLLM
0.13 removed). The message says when another
release has it ("removed in 0.X", "added in 0.Y", "removed in 0.X, back in
0.Y") and suggests the closest
argument the release has.

When vLLM's own source documents a successor for the argument (a deprecation
message such as "`--disable-mm-preprocessor-cache` is deprecated ... Please use
`--mm-processor-cache-gb 0` instead") and the target release has that
successor, the message names it: "renamed to --mm-processor-cache-gb 0 (vLLM
0.12)", with the newest release whose source says so. A successor with the
opposite meaning (`--disable-log-requests` -> `--enable-log-requests`), several
successors (`--task` -> `--runner` or `--convert`, depending on the model) or a
field of another argument's value (`--eplb-window-size` ->
`eplb_config.window_size`) is named ("replaced by ...") but never written for
you.

A `vllm serve` option that abbreviates several options of the release
(`--max-num` for `--max-num-seqs`, `--max-num-batched-tokens`, ...) stops
argparse ("ambiguous option"): the message names them all, so the one meant
can be written in full. Over a range of releases (a pin that admits several)
it names every option the abbreviation may stand for in any of them.

The keys of a JSON value given to an argument whose value is one vLLM config
(`--compilation-config '{"level": 3}'` in 0.34, whose `CompilationConfig`
has `mode`; `--speculative-config '{"disable_by_batch_size": 1}'`), or of a
dict given to that keyword in Python (`compilation_config={"level": 3}`), are
checked against that config's fields in the release, where the config rejects
unknown keys: from 0.16 every config does; before, only those that say so
(`CompilationConfig` in 0.14 and 0.15), and the others ignore them. A key
whose value is a config itself is checked the same way
(`compilation_config={"pass_config": {"enable_sp": True}}` in 0.34, whose
`PassConfig` has no `enable_sp`). Where vLLM rewrites the keys' dashes as
underscores before the config is built (`--speculative-config` in 0.34),
`num-speculative-tokens` is `num_speculative_tokens`.

## Why is this bad?
`EngineArgs` is a plain dataclass: vLLM raises a `TypeError`; the server's
argument parser stops with `unrecognized arguments`, before any GPU work, and
a container that restarts on failure never comes up.

## Example
```python
# target-version: 0.27
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Use instead
```python
# target-version: 0.28
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
A documented rename is fixed, as an unsafe fix (`--unsafe-fixes`), in Python
keywords and dict keys, command lines, argv lists, Dockerfiles, Kubernetes and
compose YAML and `--config` files:

* the successor takes the same kind of value: the flag or keyword is renamed
  and its value kept (`--cuda-graph-sizes 8 16` -> `--cudagraph-capture-sizes 8 16`);
* an on/off flag whose successor takes a value: the flag is replaced by the
  successor with the value vLLM's text writes (`--disable-mm-preprocessor-cache`
  -> `--mm-processor-cache-gb 0`; `disable_mm_preprocessor_cache=True` ->
  `mm_processor_cache_gb=0`); a keyword set to anything but `True` is left alone.

Unsafe because the same words do not always mean the same thing across
releases: vLLM documents the rename in the release that has both arguments,
while the file was written for some older one, where the old argument may have
meant something else (`--cuda-graph-sizes 512` asked for sizes up to 512 in
vLLM 0.10 and for exactly 512 in 0.11-0.12), and a documented value replaces
what the user wrote. Nothing is rewritten when the successor is already
written, or for the cases above that are only named. Otherwise: upgrade vLLM
(pin the release that has the argument), or use the argument the release has
instead.

An argument that no release of the target accepts, with neither a documented
successor nor a close name to suggest ("remove it"), is removed, as an unsafe
fix: a Python keyword or dict entry, or a command-line option. An option is
removed with its value when the releases that have it say it takes one
(`--max-model-len 4096`); when no release records whether it took a value and
a word follows it, nothing is removed. Unsafe because whatever the author
meant by it is dropped (pin the release that has it instead, if it is still
needed).

A server in a container whose image names no vLLM release (a platform's
build, `rocm/vllm-dev:...`, a rebuild tagged `latest`) runs whatever release
its owner built: there, only options that no known release has are reported.
In the image of a vLLM plugin that adds options of its own to `vllm serve`
(`vllm/vllm-omni` adds `--omni`), only options that some release had are
reported; declare another plugin's options with `extra-arguments`. A project that registers its own vLLM plugin (the entry point group
`vllm.general_plugins` in its `pyproject.toml`, `setup.py` or `setup.cfg`) runs with it
loaded: the arguments it adds, the annotated fields of the plugin package's subclasses of
`EngineArgs`/`AsyncEngineArgs` and of their bases there, are not reported in the
project's files, as keywords or as `--kebab-case` options; any other name still is.

## Options
`extra-arguments = ["my_plugin_arg", "--my-flag"]` in `[tool.vllm-lint]`
declares arguments that a vLLM fork or plugin adds: they are never reported.

## Versions
Every release the schema was generated from (`vllm_lint/launch/vllm_schema.json`).
For a newer release it does not have, the newest release stands in, and only
arguments that no known release has are reported. A release older than the
schema's oldest may have had arguments removed before it (`speculative_model`
in 0.6): nothing is reported for it.
"""


import vllm_lint.launch.schema as schema
from vllm_lint.facts import Known, known_bool, written_pairs
from vllm_lint.plugins import PluginArguments
from vllm_lint.rules.base import Rule, from_other_file, name_of, unknown_setting_error
from vllm_lint.versions import ALL_VERSIONS

# Reported by VLM302 (no release ever had them), with a fix.
NOT_UPSTREAM = frozenset({"enable_return_sampling_mask", "return_sampling_mask_logprobs"})
# Replay flags a front end without the full option list still knows (and since when).
REPLAY_FLAGS = {"return_sampling_mask": (0, 28), "enable_trace_replay": (0, 29), "enable_batch_sharded_sampling": (0, 29)}


def check(facts, version):
    release = schema.release_for(facts, version)
    if not release.exact and release.release < schema.releases()[0]:
        # Older than every release the schema was read from: what it had is not known, except
        # that the replay flags came later.
        yield from _replay_flags(facts, version)
        return
    if facts.source == "command-line":
        if facts.options is not None:
            yield from _options(facts, release)
        else:
            yield from _replay_flags(facts, version)
        return
    if facts.source == "framework":
        # A framework passes these verbatim: vLLM's engine arguments, or its server's, check their names.
        yield from _replay_flags(facts, version)
        # And the arguments it passes from its own keys where the config writes them (set on
        # the server's parsed arguments, an unknown name is ignored: only the verbatim ones).
        own = () if facts.verbatim_to == "serve-namespace" else facts.from_keys
        names = [*facts.verbatim, *(name for name in own if name not in facts.verbatim)]
        if facts.verbatim_to == "engine-args":
            yield from _keywords(facts, release, release.keywords.get("EngineArgs"), "EngineArgs", names)
        elif facts.verbatim_to == "engine-argv":
            # Options of AsyncEngineArgs' parser (Dynamo's vLLM worker): its fields are its options.
            yield from _keywords(facts, release, release.keywords.get("AsyncEngineArgs"), "AsyncEngineArgs", names)
        else:
            yield from _server_keys(facts, release, names)
        return
    names = release.keywords.get(facts.kind) if facts.source == "python" else None
    if names is None:
        # Not a constructor the schema describes (VllmConfig, a framework's config keys):
        # only the replay flags are known to be passed through as engine arguments.
        yield from _replay_flags(facts, version)
        return
    yield from _keywords(facts, release, names, facts.kind, facts.fields)
    if release.exact:
        yield from _dict_keys(facts, release)


def _keywords(facts, release, names, kind, written):
    if names is None:
        return
    for name in list(written):
        origin = facts.written.get(name)
        if name in names or name in NOT_UPSTREAM or not facts.present(name):
            continue
        if name in PluginArguments.names:
            continue  # the project's own vLLM plugin adds it
        if facts.source == "framework" and name in REPLAY_FLAGS:
            continue  # _replay_flags reports them
        if origin is not None and origin.kind == "attribute":
            continue  # args.x = 1 on a dataclass instance is not an error
        present_in = schema.keyword_releases(kind, name)
        if not release.exact and present_in:
            continue
        guess = schema.near_miss(name, names)
        finding = _finding(facts, name, release, present_in, guess, facts.location_of(name), kind)
        rename = schema.documented_rename(name, release, kind)
        if rename is not None:
            # A framework's own key is named by the framework, not by vLLM: nothing to rename there.
            _renamed(finding, rename, facts, name, None if name in facts.from_keys and name not in facts.verbatim else origin)
        elif guess is None and origin is not None and origin.path is None and facts.source == "python":
            _removable(finding, origin)
        yield finding


def _server_keys(facts, release, names):
    """Keys a framework hands to ``vllm serve``'s parsed arguments, by their destination names
    (``tool_call_parser`` is the server's own option, not an engine argument)."""
    dests = set(release.options.values())
    long_options = [name for name in release.options if name.startswith("--")]
    for name in names:
        option = "--" + name.replace("_", "-")
        # The parser takes an abbreviation; a name set on its result must be the whole one.
        parsed = facts.verbatim_to == "serve-argv" and release.has_option(option)
        if name in dests or parsed or name in NOT_UPSTREAM or name in REPLAY_FLAGS:
            continue
        if not facts.present(name):
            continue
        present_in = schema.option_releases(option)
        if not release.exact and present_in:
            continue
        guess = schema.near_miss(option, long_options)
        finding = _finding(facts, name, release, present_in, guess and guess[2:].replace("-", "_"), facts.location_of(name), "vllm serve")
        rename = schema.documented_rename(option.lstrip("-").replace("-", "_"), release)
        if rename is not None:
            # Named as the command line names it; a framework's key is not rewritten here.
            _renamed(finding, rename, facts, name, None)
        if facts.verbatim_to == "serve-argv":
            finding.vllm_error = f"unrecognized arguments: {option}"
        else:
            # Set on the parsed arguments, an unknown name is never read: no error, and no effect.
            finding.vllm_error = None
        yield finding


def _options(facts, release):
    for option, origin, value in facts.options:
        if value is not None and value.startswith("{") and release.exact and release.keys:
            yield from _json_keys(facts, release, option, origin, value)
        bare = option.lstrip("-").replace("-", "_")
        if release.has_option(option) or bare in NOT_UPSTREAM or bare in PluginArguments.names:
            continue
        present_in = schema.option_releases(option)
        if not release.exact and present_in:
            continue
        if facts.extended_parser and not present_in:
            continue  # an image's plugin may add it (vllm-omni's --omni)
        long_options = [name for name in release.options if name.startswith("--")]
        span = origin.span if origin is not None and origin.path is None else facts.anchor
        matches = [name for name in long_options if name.startswith(option)] if option.startswith("--") else []
        if len(matches) > 1:
            # argparse takes a prefix of exactly one option; this one is a prefix of several.
            yield from_other_file(_ambiguous(option, matches, release, span), origin)
            continue
        guess = schema.near_miss(option, long_options) if option.startswith("--") else None
        if guess is None and not option.startswith("--") and "-" + option in long_options:
            guess = "-" + option  # -host for --host
        finding = _finding(facts, option, release, present_in, guess, span, facts.kind)
        help_error = _help_flag_error(option, release)
        if help_error is not None:
            finding.vllm_error = help_error
        rename = schema.documented_rename(bare, release) if option.startswith("--") else None
        here = origin if origin is not None and origin.path is None else None
        if rename is not None:
            _renamed(finding, rename, facts, option, here)
        elif guess is None and here is not None:
            _removable(finding, here)
        yield from_other_file(finding, origin)


def _ambiguous(option, matches, release, span):
    finding = RULE.finding(
        f"{option} is ambiguous in vLLM {schema.release_text(release.release)}; write in full the option you mean: {', '.join(matches)}",
        span,
        vllm_error=f"ambiguous option: {option} could match {', '.join(matches)}",
    )
    finding.argument = option.lstrip("-").replace("-", "_")
    finding.listed, finding.listed_merge, finding.listed_text = tuple(matches), "any", "write in full the option you mean: {}"
    return finding


def _removable(finding, origin) -> None:
    """No release of the target accepts the argument and nothing is suggested for it: removing it
    is the fix, an unsafe one (what the author meant by it is lost)."""
    finding.origin = origin
    finding.fix_action = "remove-argument"
    finding.fix_safety = "unsafe"


def _help_flag_error(option: str, release) -> str | None:
    """argparse reads ``-host`` as ``-h`` with ``ost`` attached: help takes no value, so it stops
    with this error (unless the attached letters are short flags themselves)."""
    if option.startswith("--") or len(option) < 3 or not option.startswith("-h") or not release.has_option("-h"):
        return None
    attached = option[2:]
    if release.has_option("-" + attached[0]):
        return None
    return f"argument -h/--help: ignored explicit argument '{attached}'"



def _json_keys(facts, release, option, origin, value):
    """Keys of a JSON value that its config class does not have (pydantic: "Unexpected keyword argument")."""
    dest = release.dest(option)
    known = release.keys.get(dest) if dest else None
    if known is None:
        return
    parsed = schema.json_object(value)
    if parsed is None:
        return
    span = origin.span if origin is not None and origin.path is None else facts.anchor
    for path, key, name, _item, entry in schema.config_keys(known, parsed.items(), schema.json_pairs):
        finding = _unknown_key(release, option, dest, path, key, name, entry, span)
        if finding is not None:
            yield from_other_file(finding, origin)


def _dict_keys(facts, release):
    """Keys of a dict given to a config-valued keyword (``compilation_config={"level": 3}``)
    that its config class does not have: pydantic rejects them as it does on the command line."""
    for dest, fact in facts.fields.items():
        known = release.keys.get(dest)
        pairs = written_pairs(fact)
        if known is None or pairs is None:
            continue
        for path, key, name, item, entry in schema.config_keys(known, pairs, written_pairs):
            origin = item.origin if isinstance(item, Known) else None
            span = origin.span if origin is not None and origin.path is None else facts.location_of(dest)
            finding = _unknown_key(release, dest, dest, path, key, name, entry, span)
            if finding is not None:
                yield finding


def _unknown_key(release, written, dest, path, key, name, entry, span):
    """The finding for one key of a config dict its class does not have; None for a field, or
    where the class ignores unknown keys (up to 0.15 most configs do)."""
    fields = entry.get("fields")
    if fields is None or name in fields:
        return None
    guess = schema.near_miss(name, fields)
    advice = f"did you mean {guess}?" if guess else "remove it"
    where = "".join(f"[{p!r}]" for p in path)
    finding = RULE.finding(
        f"{key} is not a field of {written}{where} ({entry['class']}) in vLLM {schema.release_text(release.release)}; {advice}",
        span,
        vllm_error=f"{entry['class']}: {key}: Unexpected keyword argument",
    )
    finding.argument = ".".join((dest, *path, key))
    return finding


def _finding(facts, name, release, present_in, guess, span, kind):
    history = schema.history(present_in, release.release)
    where = "vLLM %s" % schema.release_text(release.release) if release.exact else "any known vLLM release"
    if "added in" in history or "back in" in history:
        advice = "upgrade vLLM or remove it"
    elif guess is not None:
        advice = f"did you mean {guess}?"
    else:
        advice = "remove it"
    owner = "" if facts.source == "command-line" else f" of {kind}"
    finding = RULE.finding(
        f"{name} is not an argument{owner} in {where}{history}; {advice}",
        span,
        vllm_error=f"unrecognized arguments: {name}"
        if facts.source == "command-line"
        else unknown_setting_error(facts, name),
    )
    finding.argument = name.lstrip("-").replace("-", "_")
    finding.in_no_release = not present_in
    return finding


def _renamed(finding, rename, facts, name, origin) -> None:
    """Name the documented successor; offer the fix where vLLM's text makes it certain."""
    command_line = facts.source == "command-line"
    spelled = rename.spelled(command_line)
    # An on/off keyword not known to be on: the documented value is the successor of "on" only.
    switched_off = rename.fix == "value" and not command_line and known_bool(facts.get(name)) is not True
    verb = "renamed to" if rename.fix is not None and not switched_off else "replaced by"
    when = " when on" if switched_off else ""
    head = finding.message.rsplit("; ", 1)[0]
    finding.message = f"{head}; {verb} {spelled}{when} (vLLM {schema.release_text(rename.release)})"
    if rename.fix is None or origin is None or switched_off:
        return
    finding.origin = origin
    finding.fix_action = "rename-argument"
    finding.fix_safety = "unsafe"
    finding.rename = rename


def _replay_flags(facts, version):
    """Front ends that do not list every argument (a wrapper's own parser, a framework's config): the replay flags only."""
    release = (version.major, version.minor)
    for name, first in REPLAY_FLAGS.items():
        if release >= first or not facts.present(name):
            continue
        finding = RULE.finding(
            f"{name_of(facts, name)} does not exist in vLLM {version.major}.{version.minor} (added in "
            f"{first[0]}.{first[1]}); upgrade vLLM or remove it",
            facts.location_of(name),
            vllm_error=unknown_setting_error(facts, name),
        )
        finding.argument = name
        yield finding


RULE = Rule(
    code="VLM301",
    name="flag-unavailable",
    summary="an engine argument or `vllm serve` flag the target vLLM release does not have",
    versions=ALL_VERSIONS,
    scope="engine",
    check=check,
    doc=__doc__,
    fix_safety="unsafe",
    vllm_errors=(
        "EngineArgs.__init__() got an unexpected keyword argument '<name>'",
        "vllm serve: error: unrecognized arguments: --<flag>",
    ),
)
