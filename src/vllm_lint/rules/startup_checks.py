"""Start-up checks between engine arguments (VLM401-VLM409), driven by data generated from
vLLM's own config code (``startup_data/<release>.json``, written by ``tools/vllm_startup_checks.py``).

Each check is one ``raise`` of a vLLM validator whose condition reads only engine arguments:
its condition as an expression tree, vLLM's message, and the file, line and function it
comes from, per release.  A check is reported when its condition is certainly true of the
arguments as written: a value that is not known, or that a check reads from somewhere the
generator could not follow, makes it silent (three-valued logic: ``a and ?`` is false
when ``a`` is false, and unknown otherwise).  An environment variable a check reads
(``VLLM_DP_SIZE``) has the value the file gives it, vLLM's default where the file leaves it
unset, as the front ends read the environment everywhere else.

A framework's engine (verl, NeMo-RL, ...) gets what its config writes over what the
framework passes to vLLM on its own (the pack's ``passes``: sleep mode, the executor
backend, data parallelism it sizes at run time); an argument neither writes is vLLM's
default, and every one a pack without ``passes`` does not write is unknown.  A launch
reports a finding only when one of the settings it read is written in the launch.

The checks are grouped into codes by the part of vLLM that raises them, so that each can
be selected and silenced on its own.
"""

from __future__ import annotations

import json
import os
from functools import cache, lru_cache

import vllm_lint.launch.schema as schema
from vllm_lint.facts import ABSENT, UNKNOWN, Known, Mapping
from vllm_lint.rules.base import Rule, from_other_file, may_be_speculators_checkpoint
from vllm_lint.versions import VersionRange

# One file per minor release (``0.34.json``), read only when a file runs on that release, and
# ``index.json``: the releases there are, and the newest one's messages (for the rules' docs).
_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "startup_data")


@lru_cache(maxsize=1)
def _index() -> dict:
    with open(os.path.join(_DATA, "index.json"), encoding="utf-8") as handle:
        return json.load(handle)


@cache
def _load(key: str) -> dict:
    with open(os.path.join(_DATA, key + ".json"), encoding="utf-8") as handle:
        data = json.load(handle)
    # What each check reads, and the checks of each rule, worked out once per release.
    by_code: dict[str, list] = {}
    for item in data["checks"]:
        item["reads"] = _arguments_read(item["when"], data["nodes"])
        by_code.setdefault(code_of(item["file"]), []).append(item)
    data["by_code"] = by_code
    return data


@cache
def _load_with_model(key: str) -> dict | None:
    path = os.path.join(_DATA, key + ".model.json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def model_release_data(version) -> dict | None:
    """The checks whose conditions read the model's config too (``<release>.model.json``),
    for VLM407: read only for an engine whose model is known."""
    key = "%d.%d" % version.release
    return _load_with_model(key) if key in _index()["releases"] else None


def _release_data(version) -> dict | None:
    """The checks of the release a file runs on (a release newer than the newest known one
    has the newest's); None for a release the data does not have."""
    key = "%d.%d" % version.release
    return _load(key) if key in _index()["releases"] else None


class Enum:
    """An enum member a check compares with (``MambaBackendEnum.FLASHINFER``): vLLM parses
    the argument's text by its upper-cased name."""

    def __init__(self, name: str) -> None:
        self.name = name


def _equal(left, right):
    if isinstance(right, Enum):
        left, right = right, left
    if isinstance(left, Enum):
        if isinstance(right, str):
            return right.upper() == left.name
        if right is None:
            return False
        return UNKNOWN
    if isinstance(left, (Mapping, Given)) or isinstance(right, (Mapping, Given)):
        if left is None or right is None:
            return False
        return UNKNOWN
    return left == right


def _kleene_and(values):
    result = True
    for value in values:
        if value is False:
            return False
        if value is not True:
            result = UNKNOWN
    return result


def _kleene_or(values):
    result = False
    for value in values:
        if value is True:
            return True
        if value is not False:
            result = UNKNOWN
    return result


def _truth(value):
    if value is UNKNOWN:
        return UNKNOWN
    if isinstance(value, Mapping):
        truthy = value.truthy()
        return UNKNOWN if truthy is None else truthy
    if isinstance(value, (Enum, Factory)):
        return True
    if isinstance(value, (bool, int, float, str, list, tuple, set, frozenset)) or value is None:
        return bool(value)
    return UNKNOWN


_TYPE_NAMES = {bool: ("bool", "int"), int: ("int",), float: ("float",), str: ("str",), list: ("list",), type(None): ()}


class Factory:
    """An argument's default made by a factory (a config object): not None, not a dict."""


class Given:
    """A command-line value whose type is not read (``--attention-backend FLASH_ATTN`` becomes
    an enum member): not None, nothing else known."""


class Evaluator:
    """The value of a check's expression for one engine's arguments."""

    def __init__(self, lookup, nodes=(), env=None, builds=None, model=None) -> None:
        self.lookup = lookup  # (argument, key or None, default from the expression) -> value
        self.model = model  # a fact of the model's config (``{"model": NAME}``) -> its value, UNKNOWN
        self.builds = builds  # argument -> whether vLLM builds the config it holds (None: unknown)
        self.env = env  # (an ``{"env": ...}`` expression) -> the variable's value as vLLM reads it
        self.nodes = nodes  # the release's shared operations, by index
        self.memo: dict[int, object] = {}
        self.items: dict[str, object] = {}  # the loop variables bound while a quantifier runs

    def value(self, expr):
        if "ref" in expr:
            index = expr["ref"]
            if self.items:
                return self.value(self.nodes[index])  # it may read a loop variable: not memoised
            if index not in self.memo:
                self.memo[index] = self.value(self.nodes[index])
            return self.memo[index]
        if "item" in expr:
            return self.items.get(expr["item"], UNKNOWN)
        if "const" in expr:
            return expr["const"]
        if "enum" in expr:
            return Enum(expr["enum"])
        if "unknown" in expr:
            return UNKNOWN
        if "env" in expr:
            return self.env(expr) if self.env is not None else UNKNOWN
        if "model" in expr:
            return self.model(expr["model"]) if self.model is not None else UNKNOWN
        if "arg" in expr:
            value = self.lookup(expr["arg"], expr.get("key"), expr.get("default", ABSENT))
            return Factory() if isinstance(value, dict) and "factory" in value else value
        op, args = expr["op"], expr["args"]
        if op == "if":
            test = _truth(self.value(args[0]))
            if test is UNKNOWN:
                first, second = self.value(args[1]), self.value(args[2])
                return first if first is not UNKNOWN and first == second and type(first) is type(second) else UNKNOWN
            return self.value(args[1] if test else args[2])
        if op == "and":
            return _kleene_and(_truth(self.value(a)) for a in args)
        if op == "or":
            return _kleene_or(_truth(self.value(a)) for a in args)
        if op == "not":
            truth = _truth(self.value(args[0]))
            return UNKNOWN if truth is UNKNOWN else not truth
        if op in ("any", "all", "collect"):
            return self._quantified(expr)
        if op == "config":
            # The config vLLM builds from a dict argument: an object, or None where it builds none.
            built = self.builds(args[0]["arg"]) if self.builds is not None else None
            return UNKNOWN if built is None else Factory() if built else None
        values = [self.value(a) for a in args]
        if op == "list":
            return values  # an item not known stays in it as unknown
        if any(v is UNKNOWN for v in values):
            return UNKNOWN
        try:
            return self._apply(op, values)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            return UNKNOWN

    def _quantified(self, expr):
        """``any``/``all`` of a condition over a list's items, or the list (or set) of an
        element over the items a condition keeps; unknown where an item, or the list, is."""
        op, args, var = expr["op"], expr["args"], expr["var"]
        items = self.value(args[0])
        if isinstance(items, (set, frozenset)):
            items = sorted(items, key=repr)
        if not isinstance(items, (list, tuple)):
            return UNKNOWN
        saved = self.items.get(var, ABSENT)
        results = []
        try:
            for item in items:
                if item is UNKNOWN:
                    results.append(UNKNOWN)
                    continue
                self.items[var] = item
                if op == "collect":
                    keep = _truth(self.value(args[2]))
                    if keep is UNKNOWN:
                        return UNKNOWN
                    if keep:
                        element = self.value(args[1])
                        if element is UNKNOWN:
                            return UNKNOWN
                        results.append(element)
                else:
                    results.append(_truth(self.value(args[1])))
        finally:
            if saved is ABSENT:
                self.items.pop(var, None)
            else:
                self.items[var] = saved
        if op == "collect":
            if UNKNOWN in results:
                return UNKNOWN
            return frozenset(results) if expr.get("kind") == "set" else results
        return _kleene_or(results) if op == "any" else _kleene_and(results)

    @staticmethod
    def _apply(op, values):
        left = values[0]
        right = values[1] if len(values) > 1 else None
        if any(isinstance(v, (list, tuple, set, frozenset)) and any(item is UNKNOWN for item in v) for v in values):
            # A list the file builds only in part: an item found in it is there, nothing else is known.
            if op in ("in", "not in") and isinstance(right, (list, tuple)) and left in [v for v in right if v is not UNKNOWN]:
                return op == "in"
            return UNKNOWN
        if op in ("len", "sorted"):
            if not isinstance(left, (list, tuple, str, set, frozenset)):
                return UNKNOWN
            return len(left) if op == "len" else sorted(left)
        if op in ("startswith", "endswith"):
            if not (isinstance(left, str) and isinstance(right, str)):
                return UNKNOWN
            return left.startswith(right) if op == "startswith" else left.endswith(right)
        if op == "index":
            return left[right] if isinstance(left, (list, tuple, str)) and -len(left) <= right < len(left) else UNKNOWN
        if op == "slice":
            return left[values[1] : values[2]] if isinstance(left, (list, tuple, str)) else UNKNOWN
        if op in ("&", "|") and isinstance(left, (set, frozenset)) and isinstance(right, (set, frozenset)):
            return left & right if op == "&" else left | right
        if op == "==":
            return _equal(left, right)
        if op == "!=":
            equal = _equal(left, right)
            return UNKNOWN if equal is UNKNOWN else not equal
        if any(isinstance(v, Factory) for v in values):
            if op in ("is", "is not") and (left is None or right is None):
                return op == "is not"
            if op == "isinstance":
                return False if "dict" in right or "str" in right else UNKNOWN
            return UNKNOWN
        if any(isinstance(v, Given) for v in values):
            if op in ("is", "is not") and (left is None or right is None):
                return op == "is not"
            return UNKNOWN
        if op in ("is", "is not"):
            if right is None or left is None:
                same = left is None and right is None
            elif isinstance(left, bool) and isinstance(right, bool):
                same = left is right
            else:
                return UNKNOWN
            return same if op == "is" else not same
        if op in ("in", "not in"):
            if not isinstance(right, (list, tuple, set, frozenset, str)) or isinstance(left, (Mapping, Enum)):
                return UNKNOWN
            if isinstance(right, str) and not isinstance(left, str):
                return UNKNOWN
            found = left in right
            return found if op == "in" else not found
        if op == "isinstance":
            if isinstance(left, Mapping):
                return "dict" in right
            names = _TYPE_NAMES.get(type(left))
            return UNKNOWN if names is None else any(name in right for name in names)
        if op in ("int", "bool"):
            return int(left) if op == "int" else bool(left)
        if op in ("min", "max"):
            return min(values) if op == "min" else max(values)
        if any(isinstance(v, (Mapping, Enum, str)) or v is None for v in values):
            return UNKNOWN
        if op == "<":
            return left < right
        if op == "<=":
            return left <= right
        if op == ">":
            return left > right
        if op == ">=":
            return left >= right
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op == "//":
            return left // right
        if op == "%":
            return left % right
        return UNKNOWN


def _arguments_read(expr, nodes, found=None, seen=None) -> list:
    """The (argument, key) pairs a condition reads, in order."""
    found = [] if found is None else found
    seen = set() if seen is None else seen
    if "ref" in expr:
        if expr["ref"] in seen:
            return found
        seen.add(expr["ref"])
        expr = nodes[expr["ref"]]
    if "arg" in expr:
        pair = (expr["arg"], expr.get("key"))
        if pair not in found:
            found.append(pair)
    for value in expr.get("args", ()):
        _arguments_read(value, nodes, found, seen)
    return found


# ---------------------------------------------------------------------------------------------
# The arguments as each front end writes them


def _convert(text: str | None, kind: str, negative: bool):
    """A command-line value as vLLM's parser types it; UNKNOWN where that is unsure."""
    if kind == "bool":
        if text is None:
            return not negative
        return UNKNOWN
    if text is None:
        return UNKNOWN
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            return UNKNOWN
    if kind == "float":
        try:
            return float(text)
        except ValueError:
            return UNKNOWN
    if kind == "str":
        return None if text == "None" and False else text
    if kind == "json":
        try:
            value = json.loads(text)
        except ValueError:
            return UNKNOWN
        return _as_mapping(value)
    return UNKNOWN if text == "None" else Given()  # optional_type makes the word None None


def _as_mapping(value):
    if isinstance(value, dict):
        return Mapping({str(k): Known(_as_mapping(v)) for k, v in value.items()})
    return value


def _command_line_values(facts, release, table) -> dict | None:
    """dest -> (value, origin) for every option written, as the parser leaves them."""
    if facts.options is None:
        return None
    found = {}
    for option, origin, text in facts.options:
        dest = release.dest(option)
        if dest is None:
            continue
        kind = table.get(dest, {}).get("type", "other")
        long = "--" + dest.replace("_", "-")
        negative = option != long and (option.startswith("--no-") or option.startswith("--disable-"))
        found[dest] = (_convert(text, kind, negative), origin)
    return found


def _key_fact(mapping: Mapping, key: str):
    """The fact of a key of a dict argument; a dotted key is a key of a config inside it
    (``pass_config.enable_qk_norm_rope_fusion`` of ``compilation_config``)."""
    inner = mapping.get(key)
    if inner is not ABSENT or "." not in key:
        return inner
    head, rest = key.split(".", 1)
    outer = mapping.get(head)
    if isinstance(outer, Known) and isinstance(outer.value, Mapping):
        return _key_fact(outer.value, rest)
    return ABSENT if outer is ABSENT else UNKNOWN


class Arguments:
    """One engine's arguments as the checks read them."""

    def __init__(self, facts, version, data) -> None:
        self.facts, self.data, self.version = facts, data, version
        self.table = data["arguments"]
        self.cli = None
        if facts.source == "command-line":
            release = schema.schema_for(version)
            self.cli = _command_line_values(facts, release, self.table) if release.exact else None

    @property
    def usable(self) -> bool:
        return self.facts.source != "command-line" or self.cli is not None

    def fact(self, name):
        """The fact of one argument: Known, ABSENT or UNKNOWN."""
        if self.cli is not None:
            if name in self.cli:
                value, origin = self.cli[name]
                return UNKNOWN if value is UNKNOWN else Known(value, origin)
            if not name.startswith("_") and name in self.facts.fields and self.facts.fields[name] is UNKNOWN:
                return UNKNOWN  # a channel may set it (the checker asks which would undo a finding)
            return UNKNOWN if self.facts.open else ABSENT
        if self.facts.source == "framework":
            return self._framework_fact(name)
        return self.facts.get(name)

    def _framework_fact(self, name):
        """A framework's engine: what the user wrote, over or under what the framework passes
        on its own; an argument the pack does not know the framework leaves alone is unknown."""
        passed = self._passed(name)
        if passed is not None:
            return passed
        if name in self.facts.fields or self.facts.open:
            return self.facts.get(name)
        return ABSENT if self.facts.passed is not None else UNKNOWN

    def _passed(self, name):
        """The fact of an argument the framework passes on its own, where that is what vLLM gets."""
        passed = self.facts.passed if self.facts.source == "framework" else None
        if passed is not None and name in passed and (name in self.facts.passed_over or name not in self.facts.fields):
            return passed[name]
        return None

    def origin(self, name):
        if self.cli is not None:
            return self.cli[name][1] if name in self.cli else None
        passed = self._passed(name)
        if passed is not None:
            return passed.origin if isinstance(passed, Known) else None
        return self.facts.written.get(name)

    def written(self, name, key=None) -> bool:
        """The argument (or the key of a dict argument, or its shortcut) is written."""
        if key is not None:
            fact = self.fact(name)
            if isinstance(fact, Known) and isinstance(fact.value, Mapping) and _key_fact(fact.value, key) is not ABSENT:
                return True
            shortcut = self.data.get("shortcuts", {}).get(name, {}).get(key)
            return shortcut is not None and self.written(shortcut)
        if self.cli is not None:
            return name in self.cli
        passed = self._passed(name)
        if passed is not None:
            return isinstance(passed, Known) and passed.origin is not None  # a key the user wrote
        return self.facts.present(name)

    def lookup(self, name, key, default):
        fact = self.fact(name)
        if key is None:
            if fact is ABSENT:
                if default is not ABSENT:
                    return default
                entry = self.table.get(name, {})
                return entry["default"] if "default" in entry else UNKNOWN
            return fact.value if isinstance(fact, Known) else UNKNOWN
        if name == "speculative_config" and key in _SPECULATORS_KEYS and self._speculators():
            return UNKNOWN
        # A key of a dict argument (``speculative_config["method"]``), or its shortcut
        # argument (``spec_method``) when the dict does not set it.
        shortcut = self.data.get("shortcuts", {}).get(name, {}).get(key)
        if fact is UNKNOWN or (isinstance(fact, Known) and not isinstance(fact.value, Mapping) and fact.value is not None):
            return UNKNOWN
        mapping = fact.value if isinstance(fact, Known) and isinstance(fact.value, Mapping) else None
        inner = _key_fact(mapping, key) if mapping is not None else ABSENT
        if inner is ABSENT and shortcut is not None:
            short = self.fact(shortcut)
            if short is UNKNOWN:
                return UNKNOWN
            if isinstance(short, Known) and short.value is not None:
                return short.value
        if inner is ABSENT:
            entry = self.data.get("keys", {}).get(name, {}).get(key)
            return entry["default"] if entry else UNKNOWN
        if not isinstance(inner, Known):
            return UNKNOWN
        if self._invalid(name, key, inner.value):
            return UNKNOWN  # the config's own validation rejects it first (VLM303, VLM304 say so)
        return inner.value

    def _invalid(self, name, key, value) -> bool:
        """The value fails its config field's own choices or bounds, which pydantic checks
        before any validator of the config runs."""
        release = schema.schema_for(self.version)
        entry = release.keys.get(name) if release.exact and release.keys else None
        if not entry:
            return False
        accepted = entry.get("choices", {}).get(key)
        if accepted and schema.outside_choices(value, accepted):
            return True
        return schema.breaks_bounds(value, entry.get("bounds", {}).get(key))

    def _speculators(self) -> bool:
        return may_be_speculators_checkpoint(self.facts)

    def env(self, expr):
        """An environment variable as vLLM reads it: its default where the file leaves it
        unset (the front ends' convention), the value it sets converted as vLLM converts it."""
        fact = self.facts.get_env(expr["env"])
        if fact is ABSENT:
            return expr["default"]
        text = fact.value if isinstance(fact, Known) else fact
        if not isinstance(text, str):
            return UNKNOWN
        if expr["type"] == "str":
            return text
        try:
            return int(text) if expr["type"] == "int" else float(text)
        except ValueError:
            return UNKNOWN

    def builds(self, name) -> bool | None:
        """Whether vLLM builds the config a dict argument holds (a speculative config is
        built only when one of its settings is given)."""
        fact = self.fact(name)
        if fact is UNKNOWN:
            return None
        if isinstance(fact, Known) and fact.value is not None:
            return True
        default = self.table.get(name, {}).get("default")
        if fact is ABSENT and isinstance(default, dict) and "factory" in default:
            return True  # a config object made by its factory when the argument is not given
        if name == "speculative_config" and self._speculators():
            return None  # a speculators checkpoint as the model brings its own
        shortcuts = self.data.get("shortcuts", {}).get(name, {})
        given = False
        for shortcut in shortcuts.values():
            short = self.fact(shortcut)
            if short is UNKNOWN:
                return None
            if isinstance(short, Known) and short.value is not None:
                given = True
        return given


# What a speculators-format checkpoint as the model decides in the speculative config.
_SPECULATORS_KEYS = frozenset({"method", "model"})


def read_as_checked(facts, version, names) -> list[tuple[str, str, object]]:
    """The arguments a check read, as the checks read them: (name, state, value) with state
    "known" (value a ``Known``), "passed" (the framework passes it: a ``Known`` or UNKNOWN),
    "default" (vLLM's default, or UNKNOWN where the data has none) or "unknown"."""
    data = _release_data(version)
    if data is None:
        return []
    arguments = Arguments(facts, version, data)
    if not arguments.usable:
        return []
    found = []
    for name in names:
        fact = arguments.fact(name)
        if arguments._passed(name) is not None and fact is not ABSENT:
            found.append((name, "passed", fact))
        elif isinstance(fact, Known):
            found.append((name, "known", fact))
        elif fact is ABSENT:
            entry = arguments.table.get(name, {})
            default = entry.get("default", UNKNOWN)
            found.append((name, "default", UNKNOWN if isinstance(default, dict) else default))
        else:
            found.append((name, "unknown", UNKNOWN))
    return found


# ---------------------------------------------------------------------------------------------


def _render(check, evaluator) -> str:
    values = []
    for field in check["fields"]:
        value = evaluator.value(field["expr"]) if field["expr"] else UNKNOWN
        if value is UNKNOWN or isinstance(value, (Mapping, Enum, Given)):
            values.append("{" + field["text"] + "}")
        else:
            values.append(repr(value) if field["repr"] else str(value))
    try:
        return check["message"].format(*values)
    except (IndexError, KeyError, ValueError):
        return check["message"]


def _spell(arguments, name, key, evaluator, with_value: bool = True) -> str:
    """An argument as the front end writes it, with its value where that is short."""
    command_line = arguments.facts.source == "command-line"
    text = "--" + name.replace("_", "-") if command_line else name
    if key and command_line:
        text = f"{text}.{key}"
    elif key:
        text += "".join(f'["{part}"]' for part in key.split("."))
    if not with_value:
        return text
    value = evaluator.value({"arg": name, "key": key} if key else {"arg": name})
    if value is UNKNOWN or isinstance(value, (Mapping, Enum, Factory, Given)) or len(repr(value)) > 30:
        return text
    if command_line:
        if value is True and not key:
            return text
        return f"{text} {json.dumps(value) if key else value}"
    return f"{text}={value!r}"


LONGEST = 193  # characters of a message, its code and a space before it making 200
SHORTEST_REASON = 40  # a shorter start of vLLM's reason says too little to be worth showing


def _shortened(reason: str, room: int) -> str:
    """The start of vLLM's reason that fits in ``room`` characters, cut between words."""
    if len(reason) <= room:
        return reason
    cut = reason[: room - 1].rsplit(" ", 1)[0].rstrip(" ,;:(")
    return cut + "…"


def _message(arguments, written, evaluator, release: str, item: dict, error: str) -> str:
    """The arguments that fail, vLLM's reason and where vLLM checks it.  A long one drops the
    function, then the values, then shortens the reason to its first words (the full output
    format and ``vllm_error`` keep it whole), never the names of the arguments."""
    spelled = ", ".join(dict.fromkeys(_spell(arguments, n, k, evaluator) for n, k in written))
    names = ", ".join(dict.fromkeys(_spell(arguments, n, k, evaluator, with_value=False) for n, k in written))
    reason = error.splitlines()[0].strip() if error else ""
    where = f"{item['file']}:{item['line']}"
    head = f"rejected at start-up by vLLM {release}"
    tries = [(spelled, f": {reason}", f"{item['function']}, {where}"), (spelled, f": {reason}", where), (names, f": {reason}", where)]
    for settings, because, place in tries if reason else ():
        message = f"{settings}: {head}{because} ({place})"
        if len(message) <= LONGEST:
            return message
    for settings in dict.fromkeys((spelled, names)) if reason else ():
        room = LONGEST - len(f"{settings}: {head}:  ({where})")
        if room >= SHORTEST_REASON:
            return f"{settings}: {head}: {_shortened(reason, room)} ({where})"
    for settings, place in ((spelled, f"{item['function']}, {where}"), (spelled, where)):
        message = f"{settings}: {head} ({place})"
        if len(message) <= LONGEST:
            return message
    for message in (f"{names}: {head} ({where})", f"{names}: {head}"):
        if len(message) <= LONGEST:
            return message
    first = _spell(arguments, *written[0], evaluator, with_value=False)
    others = len(dict.fromkeys(written)) - 1
    return f"{first} and {others} more argument{'s' if others > 1 else ''}: {head} ({where})"


def check_for(code: str):
    def check(facts, version):
        data = _release_data(version)
        if data is None:
            return
        arguments = Arguments(facts, version, data)
        if not arguments.usable:
            return
        if facts.source == "python" and facts.kind not in schema.CONSTRUCTORS:
            return
        for item in data["by_code"].get(code, ()):
            if item.get("llm_only") and not (facts.source == "python" and facts.kind == "LLM"):
                continue
            if item.get("serve_only") and not (facts.source == "command-line" and facts.kind == "serve"):
                continue  # validate_parsed_serve_args: vllm serve's own checks
            read = item["reads"]
            written = [(n, k) for n, k in read if arguments.written(n, k)]
            if not written:
                continue  # vLLM's defaults alone never fail
            built = [arguments.builds(name) for name, key in read if key is not None]
            if any(b is not True for b in built):
                continue
            evaluator = Evaluator(arguments.lookup, data["nodes"], arguments.env, arguments.builds)
            if evaluator.value(item["when"]) is not True:
                continue
            name, key = written[0]
            origin = arguments.origin(name)
            span = origin.span if origin is not None and origin.path is None else facts.location_of(name)
            error = _render(item, evaluator)
            release = data["release"].rsplit(".", 1)[0]
            message = _message(arguments, written, evaluator, release, item, error)
            finding = RULES_BY_CODE[code].finding(message, span, vllm_error=error)
            finding.settings = tuple(dict.fromkeys(f"{n}.{k}" if k else n for n, k in written))
            finding.reads = tuple(dict.fromkeys(n for n, _ in read))
            yield from_other_file(finding, origin) if facts.source == "command-line" else finding

    return check


GENERAL = "VLM406"
CODE_OF_FILE = {
    "vllm/config/parallel.py": "VLM401",
    "vllm/engine/arg_utils.py": "VLM402",
    "vllm/entrypoints/llm.py": "VLM403",
    "vllm/config/model.py": "VLM404",
    "vllm/config/observability.py": "VLM405",
    "vllm/config/profiler.py": "VLM405",
}


def code_of(path: str) -> str:
    """The code of the checks one vLLM file raises."""
    return CODE_OF_FILE.get(path, GENERAL)


def _versions() -> VersionRange:
    keys = sorted(tuple(int(p) for p in key.split(".")) for key in _index()["releases"])
    return VersionRange(keys[0], None) if keys else VersionRange((99, 0), None)


def _errors(code: str) -> tuple[str, ...]:
    """vLLM's messages for this code in the newest release, their fields as vLLM writes them."""
    texts = []
    for path, text in _index()["messages"]:
        if code_of(path) == code and text not in texts:
            texts.append(text)
    return tuple(texts)


def make_rule(code: str, name: str, summary: str, doc: str) -> Rule:
    rule = Rule(
        code=code,
        name=name,
        summary=summary,
        versions=_versions(),
        scope="engine",
        check=check_for(code),
        doc=doc,
        vllm_errors=_errors(code),
    )
    RULES_BY_CODE[code] = rule
    return rule


RULES_BY_CODE: dict[str, Rule] = {}
