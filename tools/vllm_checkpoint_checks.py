"""Generate what the start-up checks that depend on the model read from vLLM's source, per
release: ``src/vllm_lint/rules/checkpoint_data.json``.

    python tools/vllm_checkpoint_checks.py            # the releases the committed data holds
    python tools/vllm_checkpoint_checks.py 0.34.0     # exactly these releases
    python tools/vllm_checkpoint_checks.py --check    # exit 1 when the committed file differs

Wheels are looked up as ``tools/vllm_schema.py`` looks them up (``$VLLM_LINT_WHEELS``, then
the cache).  Nothing is imported from vLLM: its sources are read with ``ast``.

Per release it records:

* how vLLM derives the longest sequence from a checkpoint's config: the config keys it takes
  the smallest of (``possible_keys`` of ``derive_max_model_len_and_key``), the key that
  overrides them (``model_max_length``), the RoPE types whose ``factor`` does not scale the
  length, and the model type it never scales (``"gemma3" not in hf_config.model_type``);
* the spellings of the expert count and of the KV-head count (``CONFIG_FIELD_ALIASES``);
* the model types that have a converter of their own (``MODEL_ARCH_CONFIG_CONVERTORS``):
  their facts are not read from the plain config keys, so the checks say nothing on them;
* per quantization method, the config files ``get_quant_config`` looks for in the
  checkpoint (the class's ``get_config_filenames``), and the ``__init__`` parameters that
  have no default (the class is built with no argument when it looks for no file);
* the model types vLLM refuses to run in float16 (``_FLOAT16_NOT_SUPPORTED_MODELS``);
* the methods ``--quantization`` quantizes online (``_ONLINE_SHORTHANDS``), and the
  architectures the model registry lists as text generators and as multimodal models;
* per quantization method, its class's ``override_quantization_method`` (the hook with which
  ``_verify_quantization`` lets a method claim a checkpoint quantized by another), written as
  a small tree of statements and expressions over the checkpoint's quantization config, the
  ``quantization`` argument and the model type (``quantization_overrides.py`` evaluates it);
  what it cannot write (a call into the platform, a loop) is written as unknown, the methods
  whose class it cannot find are listed as unresolved, and the architectures whose
  ``verify_and_update_model_config`` rewrites the checkpoint's method before the comparison;
* for each check, the ``raise`` of vLLM it predicts: message, file, line and function.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vllm_schema  # noqa: E402  (wheel lookup shared with the schema generator)

OUT = Path(__file__).resolve().parent.parent / "src" / "vllm_lint" / "rules" / "checkpoint_data.json"
DEFAULT_RELEASES = ("0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0", "0.34.0")
QUANTIZATION_DIR = "vllm/model_executor/layers/quantization/"
SOURCES = (
    "vllm/config/model.py",
    "vllm/config/vllm.py",
    "vllm/config/parallel.py",
    "vllm/transformers_utils/config.py",
    "vllm/transformers_utils/model_arch_config_convertor.py",
    "vllm/model_executor/model_loader/weight_utils.py",
    "vllm/config/quantization.py",
    "vllm/engine/arg_utils.py",
    "vllm/model_executor/models/registry.py",
)

# Each check: a piece of the message that finds its ``raise`` in the release's source.
RAISES = {
    "max_model_len": "is greater than the derived max_model_len",
    "attention_heads": "must be divisible by tensor parallel size",
    "expert_parallel": "Number of experts in the model must be greater than 0",
    "aux_output": "AuxOutput Connector only supports MoE models",
    "quantization_file": "Cannot find the config file for",
    "quantization_mismatch": "does not match the quantization",
    "multimodal_loras": "were provided for a non multimodal model",
    "kv_cache_dtype": "is incompatible with dtype=",
    "float16": "does not support float16",
    "dcp_kv_heads": "Decode context parallelism for GQA/MQA requires",
    "dcp_maximum": "exceeds the maximum supported value",
    "dcp_query_heads": "query heads per KV head",
    "diffusion": "does not support diffusion models",
}


def read_sources(wheel: Path) -> dict[str, tuple[str, ast.Module]]:
    wanted = {}
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name in SOURCES or (name.startswith(QUANTIZATION_DIR) and name.endswith(".py")) or (
                name.startswith("vllm/") and name.endswith(".py") and "sampl" in name
            ):
                text = archive.read(name).decode("utf-8")
                try:
                    wanted[name] = (text, ast.parse(text))
                except SyntaxError:
                    continue
    return wanted


def _functions(tree: ast.AST):
    """(function, enclosing class name or None) for every function of a module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield item, node.name
        elif isinstance(node, ast.Module):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield item, None


def _template(node: ast.AST, names: dict[str, ast.AST]) -> str | None:
    """A message expression as text, its f-string fields as ``{source}``."""
    if isinstance(node, ast.Name) and node.id in names:
        return _template(names[node.id], names)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                inner = value.value
                built = isinstance(inner, ast.Name) and isinstance(names.get(inner.id), (ast.JoinedStr, ast.BinOp))
                text = _template(inner, names) if built else None  # a message built in steps
                parts.append(text if text is not None else "{" + ast.unparse(inner) + "}")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left, names), _template(node.right, names)
        return None if left is None or right is None else left + right
    return None


def find_raise(sources, piece: str) -> dict | None:
    for path, (_, tree) in sorted(sources.items()):
        for function, owner in _functions(tree):
            names = {
                t.id: n.value
                for n in ast.walk(function)
                if isinstance(n, ast.Assign)
                for t in n.targets
                if isinstance(t, ast.Name)
            }
            for node in ast.walk(function):
                if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args):
                    continue
                message = _template(node.exc.args[0], names)
                if message is None:
                    continue
                if piece in message:
                    return {
                        "message": " ".join(message.split()),
                        "file": path,
                        "line": node.lineno,
                        "function": f"{owner}.{function.name}" if owner else function.name,
                    }
    return None


def _literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return None


def length_keys(sources) -> dict:
    found: dict = {}
    convertor = sources.get("vllm/transformers_utils/model_arch_config_convertor.py")
    trees = [convertor[1]] if convertor else []
    if "vllm/config/model.py" in sources:
        trees.append(sources["vllm/config/model.py"][1])
    for tree in trees:
        for function, _ in _functions(tree):
            for node in ast.walk(function):
                if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "possible_keys" for t in node.targets):
                    value = _literal(node.value)
                    if isinstance(value, list) and "keys" not in found:
                        found["keys"] = value
                # ``if tmp_max_len := getattr(self.hf_text_config, "model_max_length", None)``
                if isinstance(node, ast.If) and isinstance(node.test, ast.NamedExpr) and "keys" in found:
                    call = node.test.value
                    if isinstance(call, ast.Call) and len(call.args) >= 2 and isinstance(call.args[1], ast.Constant):
                        found.setdefault("override", call.args[1].value)
    model = sources.get("vllm/config/model.py")
    if model:
        for function, _ in _functions(model[1]):
            text = ast.unparse(function)
            if "derived_max_model_len" not in text or "scaling_factor" not in text:
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.NotIn):
                    left = ast.unparse(node.left)
                    value = _literal(node.comparators[0])
                    if left == "rope_type" and isinstance(value, tuple):
                        found["unscaled_rope_types"] = sorted(value)
                    if isinstance(node.left, ast.Constant) and ast.unparse(node.comparators[0]).endswith("model_type"):
                        found["unscaled_model_type"] = node.left.value
            found["function"] = function.name
    return found


# Where releases without ``CONFIG_FIELD_ALIASES`` list the spellings: a local of the getter.
ALIAS_LOCALS = {"num_expert_names": "num_experts", "attributes": "total_num_kv_heads"}


def aliases(sources) -> dict:
    found: dict = {}
    convertor = sources.get("vllm/transformers_utils/model_arch_config_convertor.py")
    if convertor:
        for function, owner in _functions(convertor[1]):
            if owner != "ModelArchConfigConvertorBase" or function.name not in ("get_num_experts", "get_total_num_kv_heads"):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id in ALIAS_LOCALS:
                    value = _literal(node.value)
                    if isinstance(value, list):
                        found[ALIAS_LOCALS[node.targets[0].id]] = value
    config = sources.get("vllm/transformers_utils/config.py")
    if not config:
        return found
    for node in config[1].body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "CONFIG_FIELD_ALIASES":
            value = _literal(node.value)
            if isinstance(value, dict):
                found.update({k: list(v) for k, v in value.items() if k in ("num_experts", "total_num_kv_heads")})
    return found


def own_convertors(sources) -> list[str]:
    convertor = sources.get("vllm/transformers_utils/model_arch_config_convertor.py")
    if not convertor:
        return []
    for node in convertor[1].body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if isinstance(target, ast.Name) and target.id == "MODEL_ARCH_CONFIG_CONVERTORS" and isinstance(node.value, ast.Dict):
                return sorted(k.value for k in node.value.keys if isinstance(k, ast.Constant))
    return []


def quantization_methods(sources) -> dict:
    """method -> {"class", "files" (None: not read), "required" (``__init__`` parameters with no default)}."""
    classes: dict[str, dict] = {}
    for path, (_, tree) in sources.items():
        if not path.startswith(QUANTIZATION_DIR):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            entry = {"bases": [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases], "files": None, "required": None}
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "get_config_filenames":
                    returns = [n.value for n in ast.walk(item) if isinstance(n, ast.Return)]
                    values = [_literal(r) for r in returns if r is not None]
                    raises = any(isinstance(n, ast.Raise) for n in ast.walk(item))
                    if len(values) == 1 and isinstance(values[0], list) and not raises:
                        entry["files"] = values[0]
                    else:
                        entry["files"] = "unknown"
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    args = item.args
                    positional = args.posonlyargs + args.args
                    without = positional[1 : len(positional) - len(args.defaults)]
                    required = [a.arg for a in without]
                    required += [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
                    entry["required"] = required
            classes.setdefault(node.name, entry)

    def inherited(name: str, key: str, seen=()):
        entry = classes.get(name)
        if entry is None or name in seen:
            return "unknown"
        if entry[key] is not None:
            return entry[key]
        for base in entry["bases"]:
            if base in classes:
                value = inherited(base, key, (*seen, name))
                if value != "unknown":
                    return value
        return "unknown"

    init = sources.get(QUANTIZATION_DIR + "__init__.py")
    methods: dict[str, dict] = {}
    if not init:
        return methods
    for node in ast.walk(init[1]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "method_to_config":
            mapping = node.value
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "method_to_config" for t in node.targets):
            mapping = node.value
        else:
            continue
        if not isinstance(mapping, ast.Dict):
            continue
        for key, value in zip(mapping.keys, mapping.values):
            if not (isinstance(key, ast.Constant) and isinstance(value, ast.Name)):
                continue
            files = inherited(value.id, "files")
            required = inherited(value.id, "required")
            methods[key.value] = {"class": value.id, "files": files, "required": required if isinstance(required, list) else "unknown"}
    return methods


# ``override_quantization_method``, written as a tree that ``quantization_overrides.py``
# evaluates: statements ``["if", test, body, orelse]``, ``["return", value]``,
# ``["assign", name, value]``, ``["raise"]``, ``["unknown"]``; expressions ``["const", v]``,
# ``["param", "cfg" | "user" | "hf_config"]``, ``["name", n]``, ``["get", obj, key, default]``,
# ``["item", obj, key]``, ``["getattr", obj, name, default]``, ``["method", obj, name, args]``
# (str methods), ``["str", x]``, ``["isdict", x]``, ``["compare", op, left, right]``,
# ``["and", items]``, ``["or", items]``, ``["not", x]``, ``["ifexp", test, a, b]``,
# ``["inline", params, args, body]`` (a helper of the class, called) and ``["unknown", text]``.
_STRING_METHODS = ("lower", "upper", "startswith", "endswith", "replace", "strip")
_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
_OVERRIDE = "override_quantization_method"


class _Classes:
    """The classes of a wheel's modules, found by module and name, read on demand."""

    def __init__(self, wheel: Path) -> None:
        self.archive = zipfile.ZipFile(wheel)
        self.names = [n for n in self.archive.namelist() if n.endswith(".py")]
        self.parsed: dict[str, ast.Module | None] = {}

    def module(self, path: str) -> ast.Module | None:
        if path not in self.parsed:
            try:
                self.parsed[path] = ast.parse(self.archive.read(path).decode("utf-8"))
            except (KeyError, SyntaxError, UnicodeDecodeError):
                self.parsed[path] = None
        return self.parsed[path]

    def find(self, module: str, name: str, seen=()):
        """(path, ClassDef) of ``name`` as ``from module import name`` gets it; None."""
        base = module.replace(".", "/")
        for path in (base + ".py", base + "/__init__.py"):
            tree = self.module(path) if path in self.names else None
            if tree is None:
                continue
            for node in tree.body:
                if isinstance(node, ast.ClassDef) and node.name == name:
                    return path, node
            for node in tree.body:  # a re-export
                if isinstance(node, ast.ImportFrom) and (path, name) not in seen:
                    for alias in node.names:
                        if (alias.asname or alias.name) == name:
                            found = self.find(_absolute(path, node), alias.name, (*seen, (path, name)))
                            if found:
                                return found
        return None

    def base(self, path: str, name: str):
        """A base class named in the module ``path``: defined there or imported."""
        tree = self.module(path)
        for node in tree.body if tree else ():
            if isinstance(node, ast.ClassDef) and node.name == name:
                return path, node
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        return self.find(_absolute(path, node), alias.name)
        return None

    def lookup(self, path: str, cls: ast.ClassDef, method: str, depth=0):
        """(path, class, FunctionDef) of ``method`` along the bases; None where a base is not found."""
        for item in cls.body:
            if isinstance(item, ast.FunctionDef) and item.name == method:
                return path, cls, item
        if depth > 8:
            return None
        for base in cls.bases:
            name = ast.unparse(base).rsplit(".", 1)[-1]
            if name in ("ABC", "object", "Generic"):
                continue
            found = self.base(path, name)
            if found is None:
                return None
            result = self.lookup(*found, method, depth + 1)
            if result is not None:
                return result
        return None


def _absolute(path: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = path.rsplit("/", 1)[0].split("/")
    package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


class _Writer:
    """One override, written as the tree above; helpers of its class are inlined."""

    def __init__(self, classes: _Classes, path: str, cls: ast.ClassDef) -> None:
        self.classes, self.path, self.cls = classes, path, cls

    def function(self, function: ast.FunctionDef, params: dict[str, list], depth: int) -> list:
        return self.block(function.body, params, depth)

    def block(self, body, params, depth) -> list:
        written = []
        for node in body:
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                continue  # a docstring
            if isinstance(node, ast.Return):
                written.append(["return", self.expr(node.value, params, depth) if node.value else ["const", None]])
            elif isinstance(node, ast.If):
                written.append(["if", self.expr(node.test, params, depth), self.block(node.body, params, depth), self.block(node.orelse, params, depth)])
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                written.append(["assign", node.targets[0].id, self.expr(node.value, params, depth)])
            elif isinstance(node, ast.Raise):
                written.append(["raise"])
            elif isinstance(node, ast.Pass):
                continue
            else:
                written.append(["unknown"])
        return written

    def expr(self, node, params, depth) -> list:
        unknown = ["unknown", ast.unparse(node)[:80]]
        if isinstance(node, ast.Constant):
            return ["const", node.value]
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(e, ast.Constant) for e in node.elts):
            return ["const", [e.value for e in node.elts]]
        if isinstance(node, ast.Name):
            return params.get(node.id, ["name", node.id])
        if isinstance(node, ast.BoolOp):
            return ["and" if isinstance(node.op, ast.And) else "or", [self.expr(v, params, depth) for v in node.values]]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return ["not", self.expr(node.operand, params, depth)]
        if isinstance(node, ast.IfExp):
            return ["ifexp", *(self.expr(n, params, depth) for n in (node.test, node.body, node.orelse))]
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            return ["compare", _COMPARE[type(node.ops[0])], self.expr(node.left, params, depth), self.expr(node.comparators[0], params, depth)]
        if isinstance(node, ast.Subscript):
            return ["item", self.expr(node.value, params, depth), self.expr(node.slice, params, depth)]
        if isinstance(node, ast.Attribute) and node.attr == "model_type":
            return ["getattr", self.expr(node.value, params, depth), "model_type", ["unknown", "no attribute"]]
        if not isinstance(node, ast.Call) or node.keywords:
            return unknown
        func, args = node.func, [self.expr(a, params, depth) for a in node.args]
        if isinstance(func, ast.Name) and func.id == "isinstance" and len(node.args) == 2 and ast.unparse(node.args[1]) == "dict":
            return ["isdict", args[0]]
        if isinstance(func, ast.Name) and func.id == "getattr" and len(args) in (2, 3) and isinstance(node.args[1], ast.Constant):
            return ["getattr", args[0], node.args[1].value, args[2] if len(args) == 3 else ["unknown", "no attribute"]]
        if isinstance(func, ast.Name) and func.id == "str" and len(args) == 1:
            return ["str", args[0]]
        if not isinstance(func, ast.Attribute):
            return unknown
        owner = self.expr(func.value, params, depth)
        if func.attr == "get" and len(args) in (1, 2):
            return ["get", owner, args[0], args[1] if len(args) == 2 else ["const", None]]
        if func.attr in _STRING_METHODS:
            return ["method", owner, func.attr, args]
        if isinstance(func.value, ast.Name) and depth < 3:
            # ``cls.helper(...)`` or ``SomeConfig.helper(...)``: the helper's body, inlined.
            if func.value.id == "cls":
                found = self.classes.lookup(self.path, self.cls, func.attr)
            else:
                where = self.classes.base(self.path, func.value.id)
                found = self.classes.lookup(*where, func.attr) if where else None
            if found is not None:
                path, cls, helper = found
                decorators = {ast.unparse(d) for d in helper.decorator_list}
                if decorators & {"classmethod", "staticmethod"}:
                    names = [a.arg for a in helper.args.args][1 if "classmethod" in decorators else 0 :]
                    if len(names) >= len(args) and len(names) - len(args) <= len(helper.args.defaults):
                        defaults = helper.args.defaults[len(helper.args.defaults) - (len(names) - len(args)) :] if len(names) > len(args) else []
                        bound = args + [["const", d.value] if isinstance(d, ast.Constant) else ["unknown", "default"] for d in defaults]
                        inner = _Writer(self.classes, path, cls)
                        body = inner.block(helper.body, {n: ["name", "arg:" + n] for n in names}, depth + 1)
                        return ["inline", ["arg:" + n for n in names], bound, body]
        return unknown


def quantization_overrides(wheel: Path, sources) -> dict:
    """The overrides of the quantization methods' classes (``classes``: ``module.Class`` -> the
    override written as a tree, left out where it is the base class's ``return None``), the
    classes of each method (several where the class depends on the platform), the methods whose
    class is not found, and the architectures that rewrite the checkpoint's method."""
    classes = _Classes(wheel)
    init_path = QUANTIZATION_DIR + "__init__.py"
    init = classes.module(init_path)
    getter = next((f for f, _ in _functions(init) if f.name == "get_quantization_config"), None) if init else None
    result: dict = {"classes": {}, "methods": {}, "unresolved": [], "rewriting_architectures": _rewriting_architectures(classes)}
    if getter is None:
        result["unresolved"].append("*")
        return result
    imported: dict[str, list[tuple[str, str]]] = {}
    assigned: dict[str, list[str]] = {}
    mapping = None
    for node in ast.walk(getter):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                imported.setdefault(alias.asname or alias.name, []).append((_absolute(init_path, node), alias.name))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if isinstance(target, ast.Name) and target.id == "method_to_config":
                mapping = node.value
            elif isinstance(target, ast.Name) and isinstance(node.value, ast.Name):
                assigned.setdefault(target.id, []).append(node.value.id)
    if not isinstance(mapping, ast.Dict):
        result["unresolved"].append("*")
        return result
    entries = [(k.value, v.id) for k, v in zip(mapping.keys, mapping.values) if isinstance(k, ast.Constant) and isinstance(v, ast.Name)]
    # ``method_to_config.setdefault(shorthand, OnlineQuantizationConfig)`` for the online shorthands
    for node in ast.walk(getter):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "method_to_config.setdefault" and len(node.args) == 2:
            if isinstance(node.args[1], ast.Name):
                for shorthand in _module_dict_keys(sources, "vllm/config/quantization.py", "_ONLINE_SHORTHANDS"):
                    if shorthand not in dict(entries):
                        entries.append((shorthand, node.args[1].id))
    for method, name in entries:
        keys: list[str] | None = []
        for candidate in assigned.get(name, [name]):
            found = [w for w in (classes.find(m, o) for m, o in imported.get(candidate, [])) if w is not None]
            override = classes.lookup(*found[0], _OVERRIDE) if found else None
            if override is None:
                keys = None
                break
            path, cls, function = override
            key = path[: -len(".py")].replace("/", ".") + "." + cls.name
            params = [a.arg for a in function.args.args][1:4]
            written = _Writer(classes, path, cls).function(function, dict(zip(params, (["param", "cfg"], ["param", "user"], ["param", "hf_config"]))), 0)
            if written != [["return", ["const", None]]]:
                result["classes"][key] = written
                keys.append(key)
        if keys is None:
            result["unresolved"].append(method)
        elif keys:
            result["methods"][method] = keys
    return result


def _rewriting_architectures(classes: _Classes) -> list[str]:
    """Architectures whose ``verify_and_update_model_config`` (run before the methods are
    compared) touches the checkpoint's quantization config."""
    path = "vllm/model_executor/models/config.py"
    tree = classes.module(path) if path in classes.names else None
    if tree is None:
        return ["*"]
    found = []
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if not (isinstance(target, ast.Name) and target.id == "MODELS_CONFIG_MAP" and isinstance(node.value, ast.Dict)):
            continue
        for key, value in zip(node.value.keys, node.value.values):
            if not isinstance(key, ast.Constant) or not isinstance(value, ast.Name):
                continue
            cls = classes.base(path, value.id)
            hook = classes.lookup(*cls, "verify_and_update_model_config") if cls else None
            if cls is None or (hook is not None and "quant" in ast.unparse(hook[2])):
                found.append(key.value)
    return sorted(found)


def _module_dict_keys(sources, path: str, name: str) -> list[str]:
    """The string keys of a module-level dict literal ``NAME = {...}``."""
    module = sources.get(path)
    if not module:
        return []
    for node in module[1].body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == name and isinstance(node.value, ast.Dict):
            return sorted(k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
    return []


def release_data(version: str) -> dict:
    wheel = vllm_schema.find_wheel(version)
    sources = read_sources(wheel)
    checks = {}
    for name, piece in RAISES.items():
        found = find_raise(sources, piece)
        if found is not None:
            checks[name] = found
    return {
        "release": version,
        "length": length_keys(sources),
        "aliases": aliases(sources),
        "own_convertors": own_convertors(sources),
        "quantization": quantization_methods(sources),
        "quantization_overrides": quantization_overrides(wheel, sources),
        # Methods vLLM quantizes online when the checkpoint has no file for them.
        "online_shorthands": _module_dict_keys(sources, "vllm/config/quantization.py", "_ONLINE_SHORTHANDS"),
        # Architectures vLLM runs as text-only generators, and the multimodal ones.
        "text_architectures": _module_dict_keys(sources, "vllm/model_executor/models/registry.py", "_TEXT_GENERATION_MODELS"),
        "multimodal_architectures": _module_dict_keys(sources, "vllm/model_executor/models/registry.py", "_MULTIMODAL_MODELS"),
        # Model types vLLM refuses to run in float16.
        "no_float16": _module_dict_keys(sources, "vllm/config/model.py", "_FLOAT16_NOT_SUPPORTED_MODELS"),
        "checks": checks,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="*")
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed file differs")
    options = parser.parse_args(argv)
    releases = options.releases
    if not releases:
        releases = [v["release"] for v in json.loads(OUT.read_text()).values()] if OUT.exists() else list(DEFAULT_RELEASES)
    data = {}
    for version in releases:
        key = ".".join(version.split(".")[:2])
        data[key] = release_data(version)
    # One release per line, oldest first: the checker reads the newest line alone for the rule's
    # documentation (no cost at start-up), and a release added is a line added.
    text = "{\n" + ",\n".join(f"{json.dumps(key)}: {json.dumps(value, sort_keys=True, separators=(',', ':'))}" for key, value in sorted(data.items(), key=lambda item: tuple(int(p) for p in item[0].split(".")))) + "\n}\n"
    if options.check:
        if OUT.read_text() != text:
            print(f"{OUT} differs from what vLLM's source says; run tools/vllm_checkpoint_checks.py")
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT} ({', '.join(data)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
