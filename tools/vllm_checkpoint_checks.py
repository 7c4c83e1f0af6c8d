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
    sources = read_sources(vllm_schema.find_wheel(version))
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
