"""Verdicts of a real vLLM release on generated ``vllm serve`` argument lists (run by real_parser_oracle.py).

    python real_parser_worker.py SCHEMA_JSON OUT_JSON      # in an environment where vllm imports

Runs in the environment that has vLLM (see ``real_vllm.py`` for the patches).  Builds
``vllm serve``'s parser with vLLM's own ``make_arg_parser(FlexibleArgumentParser())``
(up to 0.9, where that parser has no model positional, with the serve subcommand's own
``subparser_init``),
generates argument lists from the parser's actions and from every option string the
linter's schema knows (other releases' options: renamed and removed flags), and records
vLLM's verdict on each:

* ``reject``: the parser exits (argparse's own error, a ``type=`` that raises: the JSON
  of a config-valued option is validated by pydantic there), or a value the parser
  accepted fails the config field it is given to at start-up: the field's own type,
  bounds and field validators, run by pydantic's ``validate_assignment`` on the config
  class (``ModelConfig.seed``, ``LoRAConfig.lora_dtype``, ``CacheConfig.cache_dtype``);
  a JSON value given to a ``dict``-typed option (``speculative_config``) is checked key
  by key against its config class the same way;
* ``accept``: otherwise.

Which config field an option fills is recorded while ``make_arg_parser`` runs: the
``get_kwargs(Config)`` entries vLLM builds, matched to the ``add_argument`` call that
spreads them (by their help text, unique per field).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_vllm  # noqa: E402

INVALID = "not-a-valid-choice"
# JSON values for dict- and config-valued options: unknown keys and fields' choices.
JSON_VALUES = (
    "{}",
    '{"no_such_key": 1}',
    '{"level": 3}',
    '{"mode": 3}',
    '{"method": "ngram", "num_speculative_tokens": 2, "prompt_lookup_max": 3}',
    '{"method": "ngram", "num_speculative_tokens": 2, "disable_by_batch_size": 1}',
    '{"method": "medusa", "num_speculative_tokens": 2}',
    '{"method": "not-a-method", "num_speculative_tokens": 2}',
)
VALUE_GROUPS = (
    ("1", "0", "-1", "2", "100000", "4294967295", "4294967296"),
    ("0.5", "1.5", "0.0"),
    ("foo", "auto", "half", "float16", "bfloat16", "fp8"),
    JSON_VALUES,
)


def _takes(action: argparse.Action, text: str) -> bool:
    convert = action.type
    if convert is None:
        return True
    try:
        convert(text)
    except Exception:
        return False
    return True


def _imports():
    try:
        from vllm.utils.argparse_utils import FlexibleArgumentParser
    except ImportError:
        from vllm.utils import FlexibleArgumentParser  # 0.8-0.10
    import importlib.util

    # Where make_arg_parser lives moved between releases; the first module the release has.
    for module in ("vllm.entrypoints.common.cli_args", "vllm.entrypoints.launchers.cli_args", "vllm.entrypoints.openai.cli_args"):
        try:
            found = importlib.util.find_spec(module)
        except ModuleNotFoundError:  # its package is not in this release
            found = None
        if found is not None:
            return FlexibleArgumentParser, __import__(module, fromlist=["make_arg_parser"]).make_arg_parser
    raise ImportError("no make_arg_parser")


def _serve_parser(flexible) -> argparse.ArgumentParser:
    """``vllm serve``'s parser as vLLM's CLI builds it: its ``ServeSubcommand.subparser_init``."""
    from vllm.entrypoints.cli.serve import ServeSubcommand

    subparsers = flexible(prog="vllm").add_subparsers(dest="subparser")
    return ServeSubcommand().subparser_init(subparsers)


class FieldMap:
    """option dest -> (config class, field), recorded while vLLM builds its parser.

    Each ``get_kwargs(Config)`` entry's help text gets a marker naming its field, which the
    ``add_argument`` call that spreads the entry removes again (help text only: nothing that
    parses or validates changes)."""

    MARK = re.compile("\x00(\\d+)\x00")

    def __init__(self) -> None:
        self.sources: list[tuple[type, str]] = []
        self.dests: dict[str, tuple[type, str]] = {}

    def install(self):
        import vllm.engine.arg_utils as arg_utils

        original = arg_utils.get_kwargs
        fields = self

        def recording_get_kwargs(cls, *args, **kwargs):
            result = original(cls, *args, **kwargs)
            marked = {}
            for name, entry in result.items():
                if isinstance(entry, dict):
                    entry = dict(entry, help=f"{entry.get('help') or ''}\x00{len(fields.sources)}\x00")
                    fields.sources.append((cls, name))
                marked[name] = entry
            return marked

        arg_utils.get_kwargs = recording_get_kwargs
        container_add = argparse._ActionsContainer.add_argument

        def recording_add_argument(container, *args, **kwargs):
            text = kwargs.get("help")
            found = fields.MARK.search(text) if isinstance(text, str) else None
            if found is not None:
                kwargs["help"] = fields.MARK.sub("", text)
            action = container_add(container, *args, **kwargs)
            if found is not None:
                fields.dests.setdefault(action.dest, fields.sources[int(found.group(1))])
            return action

        argparse._ActionsContainer.add_argument = recording_add_argument
        return lambda: (setattr(arg_utils, "get_kwargs", original), setattr(argparse._ActionsContainer, "add_argument", container_add))


def field_error(cls, name: str, value) -> str | None:
    """pydantic's message when ``value`` fails the config field (type, bounds, field validators)."""
    import pydantic

    validator = getattr(cls, "__pydantic_validator__", None)
    if validator is None or not dataclasses.is_dataclass(cls):
        return None
    known = {f.name for f in dataclasses.fields(cls)}
    if name not in known:
        return f"Unexpected keyword argument: {name}" if getattr(cls, "__pydantic_config__", {}).get("extra") == "forbid" else None
    instance = object.__new__(cls)
    for item in dataclasses.fields(cls):
        if item.default is not dataclasses.MISSING:
            instance.__dict__[item.name] = item.default
        elif item.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            try:
                instance.__dict__[item.name] = item.default_factory()  # type: ignore[misc]
            except Exception:
                instance.__dict__[item.name] = None
        else:
            instance.__dict__[item.name] = None
    try:
        validator.validate_assignment(instance, name, value)
    except pydantic.ValidationError as error:
        for problem in error.errors():
            if problem.get("loc") and problem["loc"][0] == name:
                return problem["msg"]
        return None
    except Exception:
        return None  # a model-level check that needs the rest of the config: not this field's
    return None


class Oracle:
    def __init__(self) -> None:
        flexible, make_arg_parser = _imports()
        self.fields = FieldMap()
        restore = self.fields.install()
        try:
            self.parser = make_arg_parser(flexible())
            if not any(not action.option_strings for action in self.parser._actions):
                # Up to 0.9 the serve subcommand adds the model positional (and --headless and
                # the like) before it calls make_arg_parser: build vllm serve's parser its way.
                self.parser = _serve_parser(flexible)
        finally:
            restore()
        self.parser.exit_on_error = True
        self.defaults = None
        self.spec_config = None
        try:
            from vllm.config import SpeculativeConfig

            self.spec_config = SpeculativeConfig
        except ImportError:
            pass

    def config_of(self, dest: str):
        """The config dataclass a JSON option's value builds (``--speculative-config``: SpeculativeConfig)."""
        import typing

        if dest == "speculative_config":
            return self.spec_config
        source = self.fields.dests.get(dest)
        if source is None:
            return None
        try:
            hint = typing.get_type_hints(source[0]).get(source[1])
        except Exception:
            return None
        members = [m for m in (typing.get_args(hint) or (hint,)) if m is not type(None)]
        return members[0] if len(members) == 1 and dataclasses.is_dataclass(members[0]) else None

    def _dest(self, option: str) -> str | None:
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                found = self.parser._parse_optional(option.split("=", 1)[0])
        except (Exception, SystemExit):
            return None
        if isinstance(found, list):
            found = found[0] if found else None
        return found[0].dest if isinstance(found, tuple) and found[0] is not None else None

    def verdict(self, args: list[str]) -> tuple[str, str]:
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                namespace = self.parser.parse_args(["my-model", *args])
        except SystemExit:
            lines = [line for line in err.getvalue().splitlines() if line.strip()]
            return "reject", lines[-1] if lines else "exit"
        except Exception as error:  # a ValueError of vLLM's own pre-processing
            return "reject", f"{type(error).__name__}: {error}"
        if self.defaults is None:
            self.defaults = self.parser.parse_args(["my-model"])
        defaults = self.defaults
        written = {self._dest(arg) for arg in args if arg.startswith("-")}
        for dest, value in vars(namespace).items():
            if value == getattr(defaults, dest, None) and dest not in written:
                continue
            source = self.fields.dests.get(dest)
            if source is not None and source[0].__module__.startswith("vllm.config"):
                # An engine config's field (the server's own FrontendArgs are never built from the options).
                message = field_error(source[0], source[1], value)
                if message:
                    return "reject", f"{source[0].__name__}.{source[1]}: {message}"
            if dest == "speculative_config" and isinstance(value, dict) and self.spec_config is not None:
                for key, inner in value.items():
                    message = field_error(self.spec_config, key, inner)
                    if message:
                        return "reject", f"SpeculativeConfig.{key}: {message}"
        return "accept", ""


def literal_fields(cls) -> list[tuple[str, list]]:
    """The fields of a config dataclass whose type is a ``Literal`` (``None`` allowed): name, members."""
    import typing

    if cls is None or not dataclasses.is_dataclass(cls):
        return []
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        return []
    found = []
    for item in dataclasses.fields(cls):
        hint = hints.get(item.name)
        members = [hint] if typing.get_origin(hint) is typing.Literal else list(typing.get_args(hint)) if typing.get_origin(hint) in (typing.Union, getattr(__import__("types"), "UnionType", None)) else []
        literal = [m for m in members if typing.get_origin(m) is typing.Literal]
        rest = [m for m in members if typing.get_origin(m) is not typing.Literal and m is not type(None)]
        if len(literal) == 1 and not rest:
            values = [v for v in typing.get_args(literal[0]) if isinstance(v, (str, int)) and not isinstance(v, bool)]
            if values:
                found.append((item.name, values))
    return found


def _sample(parser: argparse.ArgumentParser, option: str) -> str | None:
    """A value the action an option string resolves to takes (None: no value, or no action)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            found = parser._parse_optional(option)
    except (Exception, SystemExit):
        return None  # ambiguous: argparse's error whatever follows
    if not isinstance(found, tuple):
        found = found[0] if isinstance(found, list) and found else None
    action = found[0] if isinstance(found, tuple) else None
    if action is None or action.nargs == 0:
        return None
    if action.choices is not None:
        return str(next(iter(action.choices)))
    for group in VALUE_GROUPS:
        if _takes(action, group[0]):
            return group[0]
    return None


def generate(parser: argparse.ArgumentParser, schema_options: list[str], accepts=None, config_of=None) -> list[list[str]]:
    cases: list[list[str]] = []
    own: set[str] = set()
    for action in parser._actions:
        strings = [s for s in action.option_strings if s not in ("-h", "--help")]
        if not strings or action.dest in ("help", "config"):
            continue
        own.update(strings)
        takes_value = action.nargs != 0
        for option in strings:
            if not takes_value:
                cases.append([option])
                continue
        option = next((s for s in strings if s.startswith("--")), strings[0])
        if not takes_value:
            continue
        values: list[str] = []
        if action.choices is not None:
            values += [str(choice) for choice in action.choices]
            values.append("12345" if all(isinstance(c, int) for c in action.choices) else INVALID)
        elif type(action).__module__ != "argparse":
            pass  # a custom action parses its values its own way (--lora-modules name=path): not the schema's
        else:
            # Values of the option's own type (a word to an int option is argparse's type error,
            # which the schema rules do not judge): the groups whose first sample the type takes.
            # A group whose first value vLLM rejects is of the wrong type (a word to a dict field).
            # JSON values only to options that parse JSON (a string option takes them as text).
            json_only = _takes(action, "{}") and not _takes(action, "foo")
            if json_only:
                # An object with an unknown key must be accepted or fail for that key (the field
                # is a config or a dict), not for being an object; "{}" only where vLLM takes it
                # (an empty speculative config fails for other reasons: a check between settings).
                if accepts is None or accepts([option, JSON_VALUES[1]], "nexpected"):
                    values += [v for v in JSON_VALUES if v != "{}" or accepts is None or accepts([option, v])]
                    # Each closed-Literal field of the config the value builds: a member and a non-member.
                    # (A speculative config is built whole: with a method and a token count that work alone.)
                    base = {"method": "ngram", "num_speculative_tokens": 2} if action.dest == "speculative_config" else {}
                    for field, members in literal_fields(config_of(action.dest) if config_of else None):
                        wrong = 12345 if all(isinstance(m, int) for m in members) else INVALID
                        values += [json.dumps({**base, field: members[0]}), json.dumps({**base, field: wrong})]
            else:
                for group in VALUE_GROUPS[:-1]:
                    if _takes(action, group[0]) and (accepts is None or accepts([option, group[0]])):
                        values += group
        for value in values:
            cases.append([option, value])
        for short in (s for s in strings if not s.startswith("--") and values):
            cases.append([short, values[0]])
    # Other releases' options (renamed, removed, added later), enable/disable inverses, near misses.
    spelled: list[str] = [option for option in schema_options if option not in own and option not in ("-h", "--help")]
    for option in sorted(own):
        if option.startswith("--enable-"):
            spelled.append("--disable-" + option[len("--enable-") :])
        elif option.startswith("--disable-"):
            spelled.append("--enable-" + option[len("--disable-") :])
        if option.startswith("--") and len(option) > 6:
            spelled.append(option + "x")
            spelled.append(option[:3] + option[4] + option[3] + option[5:])
    for option in spelled:
        # With a value when the parser would give the option string (an abbreviation) one.
        cases.append([option, _sample(parser, option)] if _sample(parser, option) is not None else [option])
    # -O spellings: before argparse, vLLM rewrites them to --optimization-level (0.28+).
    for spelled in (["-O3"], ["-O", "3"], ["-O=2"], ["-O0"], ["-O", "x"], ["-Ox"], ["-O"]):
        cases.append(spelled)
    unique: dict[str, list[str]] = {}
    for case in cases:
        unique.setdefault("\0".join(case), case)
    return list(unique.values())


def main() -> int:
    schema_path, out_path = sys.argv[1], sys.argv[2]
    real_vllm.prepare()
    import vllm

    schema = json.loads(Path(schema_path).read_text(encoding="utf-8"))
    oracle = Oracle()
    def accepts(args, or_rejected_for=None):
        verdict, why = oracle.verdict(args)
        return verdict == "accept" or (or_rejected_for is not None and or_rejected_for in why)

    cases = generate(oracle.parser, sorted(schema["options"]), accepts, oracle.config_of)
    results = []
    for args in cases:
        verdict, why = oracle.verdict(args)
        results.append({"args": args, "verdict": verdict, "why": why})
    Path(out_path).write_text(
        json.dumps({"vllm": vllm.__version__, "patches": list(real_vllm.PATCHES), "cases": results}, indent=0),
        encoding="utf-8",
    )
    print(f"vllm {vllm.__version__}: {len(results)} cases, {sum(r['verdict'] == 'reject' for r in results)} rejected", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
