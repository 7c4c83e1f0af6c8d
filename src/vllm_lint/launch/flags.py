"""vLLM's command-line parser, as far as the rules need it.

``interpret`` reads a launcher's argv words the way vLLM's
``FlexibleArgumentParser`` does (vllm/utils/argparse_utils.py, the same in
0.28-0.34 except where noted):

1. ``vllm serve``: a ``--model X`` anywhere is moved to the front as the
   positional model;
2. ``--config FILE`` (exactly that token) is replaced by the file's options,
   inserted after the positional model, so the command line wins;
3. underscores in option names become dashes (the part before the first dot);
   ``-O3``, ``-O=3`` and ``-O 3`` become ``--optimization-level 3`` (0.12+);
4. dotted options (``--speculative-config.method mtp``) are merged into one
   JSON value per option and appended *after* every other option, so they
   replace a JSON value given for the same option;
5. argparse: ``--flag value`` / ``--flag=value``, ``--no-flag`` for booleans
   (``--disable-x`` for ``--enable-x`` from 0.33), the last one wins, unique
   prefixes of long options are accepted.

Anything uncertain is ``UNKNOWN``: an unquoted expansion where an option's name
stands (``$EXTRA``) may add any option, so every setting written before it and
every setting not written at all becomes unknown; a value the parser would
reject is unknown too.  Two channels are read the way a script's author plainly
means them (``launch.words``: a word's ``channel``): an unquoted ``$VAR`` or
``$(cmd)`` as the value of an option that takes one value, or as the model, is
that one value; the script's own arguments (``"$@"``) carry nothing the file
decides, and the settings a finding relies on are named in it (``Parsed.assumed``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from vllm_lint.facts import UNKNOWN, Known, Mapping, Origin, Span
from vllm_lint.launch.words import CONFIG, NONE, Source, Word, open_word
from vllm_lint.versions import Version

BOOL, VALUE, LIST = "bool", "value", "list"


class OptionList(list):
    """Every option a command line writes, in order: (option, where, value text or None).
    ``open_values``: the indices of options whose value is written but not known here (a
    variable, ``os.environ[...]``): None there is not "no value"."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.open_values: set[int] = set()
        # The options that take a value certainly given none, by index, with their kind (``one``,
        # ``many``): the last word of a command line whose every word is certain, or followed by an
        # option (``--max-model-len --port 8000``), where the release's table of options is known.
        self.without_value: dict[int, str] = {}


@dataclass(frozen=True)
class Flag:
    field: str
    kind: str = BOOL
    conv: str = "str"  # str | int | json | hf | optional-str
    short: tuple[str, ...] = ()
    since: tuple[int, int] | None = None


FLAGS: tuple[Flag, ...] = (
    Flag("return_sampling_mask", since=(0, 28)),
    Flag("enable_trace_replay", since=(0, 29)),
    Flag("enable_batch_sharded_sampling", since=(0, 29)),
    Flag("enable_dbo"),
    Flag("enable_elastic_ep"),
    Flag("kv_sharing_fast_prefill"),
    # No vLLM release has these two (VLM302); a parser never accepts them.
    Flag("enable_return_sampling_mask"),
    Flag("return_sampling_mask_logprobs"),
    Flag("logprobs_mode", VALUE),
    Flag("model", VALUE),
    Flag("distributed_executor_backend", VALUE),
    Flag("pipeline_parallel_size", VALUE, "int", ("-pp",)),
    Flag("tensor_parallel_size", VALUE, "int", ("-tp",)),
    Flag("prefill_context_parallel_size", VALUE, "int", ("-pcp",)),
    Flag("ubatch_size", VALUE, "int"),
    Flag("mamba_cache_mode", VALUE),
    Flag("spec_method", VALUE, "optional-str"),
    Flag("spec_model", VALUE, "optional-str"),
    Flag("spec_tokens", VALUE, "int"),
    Flag("speculative_config", VALUE, "json", ("-sc",)),
    Flag("hf_overrides", VALUE, "hf"),
    Flag("watermark_config", VALUE, "json", since=(0, 30)),
    Flag("attention_config", VALUE, "json", ("-ac",)),
    Flag("diffusion_config", VALUE, "json", ("-dc",)),
    Flag("logits_processors", LIST),
)
FLAGS_BY_FIELD = {flag.field: flag for flag in FLAGS}
# Settings a rule reports when the release lacks them (VLM301, VLM302): a parser
# error is what the rule is about, so the value is kept.
REPORTED_WHEN_MISSING = frozenset(
    {"return_sampling_mask", "enable_trace_replay", "enable_batch_sharded_sampling"}
)
NON_UPSTREAM = frozenset({"enable_return_sampling_mask", "return_sampling_mask_logprobs"})
ENABLE_DISABLE = (0, 33)  # EnableDisableAction: --disable-x for --enable-x
# Launchers whose options are exactly vLLM's (a wrapper script's parser may add its own).
SCHEMA_DIALECTS = frozenset({"serve", "api_server", "config-file"})


@dataclass(frozen=True)
class Dialect:
    """How one launcher reads its arguments."""

    name: str  # serve | api_server | dynamo
    flexible: bool = True  # underscores, dotted JSON options
    config: str = "top"  # top: `vllm serve` (false is dropped) | parser: the server's own parser | none
    positional_model: bool = True
    relocate_model: bool = False
    serve_options: bool = True  # every option of `vllm serve` (options.py) is accepted
    overridden: frozenset = frozenset()  # settings the launcher assigns after parsing: unknown


SERVE = Dialect("serve", relocate_model=True)
# The API server's parser has a positional model_tag, but its __main__ serves --model only
# (only `vllm serve` copies model_tag into model): a positional word is not the model.
API_SERVER = Dialect("api_server", config="parser", positional_model=False)
DYNAMO = Dialect("dynamo", flexible=False, config="none", positional_model=False, serve_options=False)


def option_table(version: Version) -> dict[str, tuple[Flag, bool]]:
    """Option string -> (flag, negative) for a release."""
    table: dict[str, tuple[Flag, bool]] = {}
    release = version.release
    for flag in FLAGS:
        long = "--" + flag.field.replace("_", "-")
        if flag.since is not None and release < flag.since and flag.field not in REPORTED_WHEN_MISSING:
            continue
        table[long] = (flag, False)
        for short in flag.short:
            table[short] = (flag, False)
        if flag.kind == BOOL:
            table["--no-" + long[2:]] = (flag, True)
            if long.startswith("--enable-") and flag.field not in NON_UPSTREAM:
                # Before 0.33 --disable-x is an unrecognised argument: what it means is unknown.
                table["--disable-" + long[len("--enable-") :]] = (flag, True if release >= ENABLE_DISABLE else None)
    return table


_TABLES: dict[tuple[int, int], dict[str, tuple[Flag, bool]]] = {}


def table_for(version: Version) -> dict[str, tuple[Flag, bool]]:
    table = _TABLES.get(version.release)
    if table is None:
        table = _TABLES[version.release] = option_table(version)
    return table


@dataclass
class Parsed:
    """What a launcher's arguments set."""

    fields: dict[str, object] = field(default_factory=dict)
    written: dict[str, Origin] = field(default_factory=dict)
    # Every group of words (an option and its values) that wrote a setting, for fixes.
    groups: dict[str, list[list[Word]]] = field(default_factory=dict)
    open: bool = False
    mask_word: Word | None = None  # the --return-sampling-mask that turned replay on
    words: list[Word] = field(default_factory=list)  # the argv as vLLM parses it
    # Every option written for certain, in order: (option string, where, its value's text if
    # known: the inline ``=value`` or the next word).  Set only for launchers whose parser is
    # vLLM's own (``vllm serve``, the API server), where the schema knows every option.
    options: list[tuple[str, Origin | None, str | None]] | None = None
    # Pass-through words read as empty: (the word, the settings written after it).
    assumed: list[tuple[Word, set[str]]] = field(default_factory=list)


class ParseFailure(Exception):
    """vLLM rejects the command line before any engine is built."""


_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
_UNDERSCORES = re.compile(r"(?<=--)[^\.]*")
_MODEL_OPTION = re.compile(r"^--model(=.+|$)")


def one_value(word: Word) -> bool:
    """An unquoted ``$VAR``/``$(cmd)`` that, where one value stands, is that one value."""
    return word.open and word.extra.get("channel") == "value" and not word.extra.get("glued") and not word.maybe


def passed_through(word: Word) -> bool:
    """The script's own arguments (``"$@"``), read as carrying nothing the file decides."""
    return word.open and word.extra.get("channel") == "pass-through"


def glued(word: Word) -> bool:
    """The rest of a word whose written start was emitted before it (``--port=$PORT``): with the
    expansion read as one value, that word is all there is."""
    return word.open and word.extra.get("channel") == "value" and bool(word.extra.get("glued"))


def _option_like(word: Word) -> bool:
    """argparse would not take this word as an option's value."""
    if word.open:
        return False
    text = word.text if word.text is not None else word.prefix
    return text.startswith("-") and not _NEGATIVE_NUMBER.match(text)


def _normalise(text: str) -> str:
    if not text.startswith("--"):
        return text
    if "=" in text:
        key, value = text.split("=", 1)
        return _UNDERSCORES.sub(lambda m: m.group(0).replace("_", "-"), key, count=1) + "=" + value
    return _UNDERSCORES.sub(lambda m: m.group(0).replace("_", "-"), text, count=1)


def _tail(word: Word, start: int) -> Word:
    """The part of a word after ``start`` characters (the value of ``--flag=value``)."""
    if word.text is None:
        return Word(None, word.start, word.end, open=word.open, maybe=word.maybe, style=NONE, path=word.path, extra=word.extra)
    offs = word.offs[start:] if word.offs is not None else None
    return Word(
        word.text[start:],
        word.start,
        word.end,
        offs=offs,
        maybe=word.maybe,
        style=NONE,
        path=word.path,
        kind=word.kind,
        extra={"part_of": word},
    )


def interpret(
    words: list[Word],
    dialect: Dialect,
    version: Version,
    origin_of: Callable[[Word], Origin],
    load_config: Callable[[Word, Dialect], list[Word] | None],
) -> Parsed:
    """The settings a launcher's argv words set.  Raises ``ParseFailure`` when vLLM certainly fails first."""
    table = table_for(version)
    parsed = Parsed()
    args = list(words)

    model_word: Word | None = None
    if dialect.relocate_model:
        for index, word in enumerate(args):
            if word.text is not None and _MODEL_OPTION.match(word.text):
                if word.text == "--model":
                    if index + 1 >= len(args):
                        raise ParseFailure("--model without a value")
                    tag = args[index + 1]
                    rest = index + 2
                else:
                    tag = _tail(word, len("--model="))
                    rest = index + 1
                tag.extra = dict(tag.extra, model_option=word)
                args = [tag] + args[:index] + args[rest:]
                break

    if dialect.config != "none":
        args = _pull_config(args, dialect, load_config)

    through_model = False
    if dialect.positional_model and args:
        first = args[0]
        if (not first.open or one_value(first)) and not _option_like(first):
            model_word = first
            args = args[1:]
        through_model = passed_through(first)

    items = [(word, _normalise(word.text) if (word.text is not None and dialect.flexible) else word.text) for word in args]
    if dialect.flexible:
        items = _optimization_shorthand(items, version)
        items = _dotted(items, parsed)

    state = _State(parsed, table, origin_of, version if dialect.serve_options else None)
    if dialect.name in SCHEMA_DIALECTS:
        parsed.options = OptionList()
    if model_word is not None:
        state.set("model", model_word.text if model_word.text is not None else UNKNOWN, [model_word], model_word, kind="positional")
    elif through_model:
        state.unknown("model")  # the script's arguments start with the model
    _parse(items, state)
    for name in dialect.overridden:
        state.unknown(name)
    parsed.words = [word for word, _ in items]
    return parsed


def _optimization_shorthand(items: list[tuple[Word, str | None]], version: Version) -> list[tuple[Word, str | None]]:
    """``-O3``, ``-O=3``, ``-Odecode``: ``--optimization-level VALUE`` where the release has that
    option (FlexibleArgumentParser rewrites them, 0.12 on); before, argparse reads them as the
    ``-O`` option with its value attached.  (``-O.key`` is a dotted option.)"""
    from vllm_lint.launch.schema import schema_for

    if not any(text is not None and text.startswith("-O") for _word, text in items):
        return items
    level = schema_for(version).has_option("--optimization-level")
    result = []
    for index, (word, text) in enumerate(items):
        if text is not None and text.startswith("-O") and text != "-O" and text[2] != ".":
            value = text[3:] if text[2] == "=" else text[2:]
            text = ("--optimization-level=" if level else "-O=") + value
        elif level and text == "-O" and index + 1 < len(items) and items[index + 1][1] in ("0", "1", "2", "3"):
            text = "--optimization-level"
        result.append((word, text))
    return result


def _pull_config(args: list[Word], dialect: Dialect, load_config) -> list[Word]:
    texts = [word.text for word in args]
    count = texts.count("--config")
    if count == 0:
        return args
    if count > 1:
        raise ParseFailure("more than one --config")
    index = texts.index("--config")
    if index == len(args) - 1:
        raise ParseFailure("--config without a file")
    path_word = args[index + 1]
    loaded = load_config(path_word, dialect) if path_word.known else None
    config_words = loaded if loaded is not None else [open_word(path_word.start, path_word.end)]
    for word in config_words:
        word.extra.setdefault("config_option", args[index])
    rest_before, rest_after = args[:index], args[index + 2 :]
    first = args[0] if args else None
    model_in_cli = first is not None and index != 0 and not first.open and not _option_like(first)
    if dialect.relocate_model:
        model_in_config = loaded is None or any(word.text == "--model" for word in loaded)
        if not model_in_cli and not model_in_config:
            raise ParseFailure("no model")
    if model_in_cli:
        return rest_before[:1] + config_words + rest_before[1:] + rest_after
    return config_words + rest_before + rest_after


def _parse_dotted_value(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([kKmMgGtT])", text.strip())
    if match:
        number, suffix = match.groups()
        decimal = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
        binary = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
        if suffix in decimal:
            return int(float(number) * decimal[suffix])
        try:
            return int(number) * binary[suffix]
        except ValueError:
            return text
    try:
        return int(text.strip())
    except ValueError:
        return text


def _merge(original: dict, update: dict) -> None:
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(original.get(key), dict):
            _merge(original[key], value)
        elif isinstance(value, list) and isinstance(original.get(key), list):
            original[key] = original[key] + value
        else:
            original[key] = value


def _dotted(items: list[tuple[Word, str | None]], parsed: Parsed) -> list[tuple[Word, str | None]]:
    """Merge ``--option.key value`` into one JSON option per name, appended last (as vLLM does)."""
    delete: set[int] = set()
    merged: dict[str, object] = {}
    groups: dict[str, list[list[Word]]] = {}
    first_word: dict[str, Word] = {}
    unknown_keys: set[str] = set()
    for index, (word, text) in enumerate(items):
        if index in delete or text is None:
            continue
        if text.startswith("--") and "." not in text:
            continue
        if not (text.startswith("-") and "." in text):
            continue
        if "=" in text:
            name, value_text = text.split("=", 1)
            if "." not in name:
                continue
            group = [word]
            value_word = None
        else:
            name = text
            if index + 1 >= len(items):
                raise ParseFailure(f"{text} without a value")
            value_word, value_text = items[index + 1]
            group = [word, value_word]
            if not value_word.open or one_value(value_word):
                delete.add(index + 1)
        delete.add(index)
        as_list = name.endswith("+")
        if as_list:
            name = name[:-1]
        key, *keys = name.split(".")
        groups.setdefault(key, []).append(group)
        first_word.setdefault(key, word)
        uncertain = word.maybe or (value_word is not None and (value_word.text is None or value_word.maybe))
        if value_text is None or uncertain:
            unknown_keys.add(key)
            continue
        value: object
        if as_list:
            value = list(value_text.split(","))
        else:
            value = _parse_dotted_value(value_text)
        nested: object = value
        for part in reversed(keys):
            nested = {part: nested}
        target = merged.setdefault(key, {})
        if isinstance(target, dict) and isinstance(nested, dict):
            _merge(target, nested)
    if not groups:
        return items
    result = [item for index, item in enumerate(items) if index not in delete]
    for key, key_groups in groups.items():
        anchor = first_word[key]
        flag_word = Word(key, anchor.start, anchor.end, offs=None, style=NONE, path=anchor.path, extra={"dotted": key_groups})
        value = UNKNOWN if key in unknown_keys else merged.get(key, {})
        value_word = Word(None if value is UNKNOWN else json.dumps(value), anchor.start, anchor.end, style=NONE, path=anchor.path)
        value_word.extra["parsed"] = value
        result.append((flag_word, key))
        result.append((value_word, value_word.text))
    return result


class _State:
    def __init__(self, parsed: Parsed, table, origin_of, version: Version | None = None) -> None:
        self.parsed = parsed
        self.table = table
        self.origin_of = origin_of
        self.long_options = [option for option in table if option.startswith("--")]
        self.version = version  # the release whose full option table applies, if any

    def option_kind(self, option: str) -> str | None:
        """``launch.options`` kind of the option (``flag``, ``bool``, ``one``, ...), None when not known."""
        from vllm_lint.launch.options import option_kind

        return option_kind(option, self.version) if self.version is not None else None

    def takes_one_value(self, option: str) -> bool:
        from vllm_lint.launch.options import takes_one_value

        return self.version is not None and takes_one_value(option, self.version)

    def set(self, name: str, value: object, group: list[Word], flag_word: Word, maybe: bool = False, kind: str | None = None) -> None:
        parsed = self.parsed
        origin = self.origin_of(flag_word)
        if kind is not None and origin is not None:
            origin = Origin(origin.span, kind, origin.container, origin.path)
        parsed.groups.setdefault(name, []).append(group)
        for _word, after in parsed.assumed:
            after.add(name)
        if maybe:
            parsed.fields[name] = UNKNOWN
            return
        parsed.fields[name] = UNKNOWN if value is UNKNOWN else Known(value, origin)
        if origin is not None:
            parsed.written[name] = origin
        if name == "return_sampling_mask":
            parsed.mask_word = flag_word if value is True else None

    def unknown(self, name: str) -> None:
        self.parsed.fields[name] = UNKNOWN
        if name == "return_sampling_mask":
            self.parsed.mask_word = None

    def open(self, word: Word | None = None) -> None:
        """An expansion to unknown words: whatever it may set is unknown (the script's own
        arguments: read as empty, and remembered for the findings' notes)."""
        parsed = self.parsed
        if word is not None and passed_through(word):
            parsed.assumed.append((word, set()))
            return
        parsed.open = True
        for name in list(parsed.fields):
            if name in NON_UPSTREAM:
                continue  # written is written: the parser still rejects it
            parsed.fields[name] = UNKNOWN
        parsed.mask_word = None

    def abbreviation(self, name: str) -> None:
        """argparse accepts a unique prefix of a long option: what it may name is unknown."""
        if not name.startswith("--") or len(name) < 3:
            return
        for option in self.long_options:
            if option.startswith(name) and option != name:
                self.unknown(self.table[option][0].field)


def _unknown_single(word: Word) -> bool:
    """Exactly one argv word whose text is unknown (a quoted ``"$VAR"``, an unknown list element,
    an unquoted ``$VAR`` read as one value)."""
    return word.text is None and (not word.open or one_value(word)) and not word.maybe


def _list_value(word: Word) -> bool:
    """A word of a Python argv list (an element, or a word of one joined for a shell) that
    argparse takes as one more value of an option of several values: known and not an option,
    or unknown (a name, an ``os.environ[...]`` value: more values, not flags)."""
    if not word.extra.get("element") or word.maybe:
        return False
    return _unknown_single(word) or (word.known and not _option_like(word))


def _unknown_value_on_some_paths(word: Word) -> bool:
    """One unknown word that some paths leave out (a value a Python renderer writes for a
    setting that is not ``True``): where it is present, it is the option's value."""
    return word.text is None and not word.open and word.maybe


def _many_values_end(items: list, index: int) -> int:
    """After an option that takes several values (``nargs='+'``, ``--middleware a $MORE``):
    the index after its values.  An unquoted ``$VAR`` among them splits into more values,
    not into options; an expansion that may hold options ends them."""
    while index < len(items):
        word = items[index][0]
        if word.extra.get("element"):
            # ["--served-model-name", name, "alias"]: a Python list's elements up to the next
            # option are its values, an unknown one among them more values.
            if not _list_value(word):
                break
            index += 1
            continue
        if _option_like(word) or (word.open and not one_value(word) and not glued(word)) or word.maybe:
            break
        index += 1
    return index


def _flag_or_end(items: list, index: int) -> bool:
    """Where the unknown value is left out, the option does not take the next word instead (an
    option word there is an argparse error, not a value; an unknown value some paths leave out
    is at most the option's value)."""
    if index >= len(items):
        return True
    word, text = items[index]
    if _unknown_value_on_some_paths(word):
        return True
    return word.known and text is not None and text.startswith("--")


def _convert(flag: Flag, text: str, origin: Origin | None) -> object:
    conv = flag.conv
    if conv == "str":
        return text
    if conv == "optional-str":
        return None if text in ("", "None") else text
    if conv == "int":
        try:
            return int(text)
        except ValueError:
            return UNKNOWN
    if conv == "hf":
        if not re.match(r"(?s)^\s*{.*}\s*$", text):
            return text
        conv = "json"
    if conv == "json":
        if text in ("", "None"):
            return None
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return UNKNOWN
        return to_fact(value, origin, normalise_keys=flag.field == "speculative_config")
    return UNKNOWN


def to_fact(value: object, origin: Origin | None, normalise_keys: bool = False) -> object:
    """A JSON or YAML value in the form rules read (dicts become ``Mapping``)."""
    if value is UNKNOWN:
        return UNKNOWN
    if isinstance(value, Mapping):
        return value
    if isinstance(value, dict):
        mapping = Mapping({}, True)
        for key, inner in value.items():
            name = str(key).replace("-", "_") if normalise_keys else str(key)
            converted = to_fact(inner, origin)
            mapping.items[name] = UNKNOWN if converted is UNKNOWN else Known(converted, origin)
        return mapping
    if isinstance(value, list):
        return [to_fact(item, origin) for item in value]
    return value


def _parse(items: list[tuple[Word, str | None]], state: _State) -> None:
    table = state.table
    index = 0
    count = len(items)
    # Every word known and on every path: an option's missing value is certain.
    certain_words = all(word.known and not word.maybe and not word.open for word, _ in items)
    while index < count:
        word, text = items[index]
        index += 1
        if glued(word):
            continue  # the end of the unknown word before it
        if word.open:
            state.open(word)
            continue
        if "parsed" in word.extra:
            continue  # the JSON value of an option this table does not know
        if text is None:
            prefix = _normalise(word.prefix) if word.prefix.startswith("--") else word.prefix
            if prefix.startswith("-") and "=" in prefix:
                name = prefix.split("=", 1)[0]
                entry = table.get(name)
                if entry is not None:
                    flag, _negative = entry
                    state.set(flag.field, UNKNOWN, [word], word, maybe=word.maybe)
                else:
                    state.abbreviation(name)
            elif prefix.startswith("-") or not prefix:
                # Any option, perhaps one that takes the next word as its value.
                state.open()
            continue
        if text == "--":
            break
        if not text.startswith("-") or _NEGATIVE_NUMBER.match(text):
            continue  # a positional argument
        name, eq, inline = text.partition("=")
        entry = table.get(name)
        if state.parsed.options is not None and not word.maybe and "parsed" not in word.extra:
            following = items[index][0] if index < count else None
            value = inline if eq else None
            if not eq and following is not None and following.known and not following.maybe and not _option_like(following):
                value = following.text if state.option_kind(name) not in ("flag", "bool") else None
            elif not eq and following is not None and not _option_like(following):
                takes_value = (entry is not None and entry[0].kind != BOOL) or state.option_kind(name) in ("one", "optional", "many")
                if takes_value:
                    state.parsed.options.open_values.add(len(state.parsed.options))
            elif not eq and certain_words and (following is None or _option_like(following)):
                kind = state.option_kind(name)
                if kind in ("one", "many"):
                    state.parsed.options.without_value[len(state.parsed.options)] = kind
            state.parsed.options.append((name, state.origin_of(word), value))
        if entry is None:
            state.abbreviation(name)
            if not eq and index < count and state.takes_one_value(name):
                following = items[index][0]
                if _unknown_single(following) or (_unknown_value_on_some_paths(following) and _flag_or_end(items, index + 1)):
                    index += 1  # `--port "$PORT"`: its value, whatever it holds; the rest stays certain
            elif not eq and state.option_kind(name) == "many":
                index = _many_values_end(items, index)
            continue
        flag, negative = entry
        maybe = word.maybe
        if negative is None:
            state.unknown(flag.field)
            continue
        if flag.kind == BOOL:
            if eq:
                state.set(flag.field, UNKNOWN, [word], word, maybe)  # argparse: ignored explicit argument
            else:
                state.set(flag.field, not negative, [word], word, maybe)
            continue
        if flag.kind == VALUE:
            if eq:
                value_word = _tail(word, len(name) + 1)
                group = [word]
            elif index < count and not _option_like(items[index][0]):
                value_word = items[index][0]
                group = [word, value_word]
                index += 1
            else:
                state.set(flag.field, UNKNOWN, [word], word, maybe)  # argparse: expected one argument
                continue
            if "parsed" in value_word.extra:
                value = value_word.extra["parsed"]
                value = to_fact(value, state.origin_of(word), normalise_keys=flag.field == "speculative_config")
                group = word.extra.get("dotted", [group])
                for dotted_group in group[:-1]:
                    state.parsed.groups.setdefault(flag.field, []).append(dotted_group)
                group = group[-1]
            elif value_word.open and not one_value(value_word):
                state.set(flag.field, UNKNOWN, group, word, maybe)
                state.open(value_word)
                continue
            elif value_word.text is None:
                value = UNKNOWN
            else:
                value = _convert(flag, value_word.text, state.origin_of(value_word))
            state.set(flag.field, value, group, word, maybe or value_word.maybe)
            continue
        # LIST (nargs="+")
        elements: list[object] = []
        group = [word]
        uncertain = maybe
        opened: Word | None = None
        if eq:
            elements.append(inline)
        else:
            while index < count and not _option_like(items[index][0]):
                element = items[index][0]
                index += 1
                group.append(element)
                if glued(element):
                    continue
                if one_value(element):
                    # An unquoted $VAR among an option's several values splits into more of
                    # them (`--served-model-name ${name}`), not into options.
                    elements.append(UNKNOWN)
                    continue
                if element.open:
                    opened = element
                    break
                if element.maybe:
                    uncertain = True
                elements.append(element.text if element.text is not None else UNKNOWN)
        if opened is not None or (not elements and not eq):
            state.set(flag.field, UNKNOWN, group, word, uncertain)
            if opened is not None:
                state.open(opened)
            continue
        state.set(flag.field, elements, group, word, uncertain)


def word_origin(word: Word, source: Source, fallback: Span, kind: str | None = None) -> Origin:
    """Where a word was written: its own span, or (for words not written in this file) the fallback."""
    target = word.extra.get("part_of", word)
    kind = kind or target.kind
    if target.path is not None:
        src = target.extra.get("source")
        span = src.span(target.start, target.end) if src is not None and target.start >= 0 else fallback
        return Origin(span, kind, path=target.path)
    if target.start < 0:
        return Origin(fallback, kind, path="<implicit>")
    return Origin(source.span(target.start, target.end), kind)


__all__ = [
    "API_SERVER",
    "CONFIG",
    "DYNAMO",
    "SERVE",
    "Dialect",
    "Flag",
    "ParseFailure",
    "Parsed",
    "interpret",
    "to_fact",
    "word_origin",
]
