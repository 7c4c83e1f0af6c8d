"""Classes a serving platform constructs itself, with arguments its own files decide.

A Truss (Baseten's packaging format) is a folder with ``config.yaml`` at its root and the model
class in ``model/model.py`` (``model_module_dir``, ``model_class_filename`` and
``model_class_name`` in the config name another).  Truss constructs that class with keyword
arguments: ``config``, the whole parsed ``config.yaml``, and ``data_dir``, ``secrets``,
``lazy_data_resolver``, ``environment`` (run-time objects); a parameter list without ``**kwargs``
gets only the ones it names.  So ``kwargs["config"]["model_metadata"]["engine_args"]`` is the
mapping written under that key of ``config.yaml``: each value keeps the file and line it is
written at.  Values Truss fills in (keys the file leaves out) are unknown.
"""

from __future__ import annotations

import ast
import os

from vllm_lint.facts import UNKNOWN, Origin, Span
from vllm_lint.python.state import MISSING
from vllm_lint.python.values import DictObj, ListObj, Slot

TRUSS_CONFIG = "config.yaml"
# What Truss passes besides ``config``: objects made at run time.
TRUSS_RUNTIME_ARGUMENTS = ("data_dir", "secrets", "lazy_data_resolver", "environment")
MAX_CONFIG_BYTES = 512 * 1024
# The top-level keys of a Truss config (``truss.base.truss_config.TrussConfig``).
TRUSS_KEYS = frozenset({
    "apply_library_patches", "base_image", "build", "build_commands", "bundled_packages_dir",
    "cache_internal", "data_dir", "description", "docker_server", "environment_variables",
    "examples_filename", "external_data", "external_package_dirs", "input_type", "live_reload",
    "model_cache", "model_class_filename", "model_class_name", "model_framework", "model_metadata",
    "model_module_dir", "model_name", "model_type", "python_version", "requirements",
    "requirements_file", "resources", "runtime", "secrets", "spec_version", "system_packages",
    "training_checkpoints", "trt_llm", "use_local_chains_src", "weights",
})
# Keys only a Truss config has, one of which a Truss writes.
TRUSS_MARKS = frozenset({"model_name", "model_metadata", "model_class_name", "python_version", "resources"})


def platform_bindings(path: str, function: ast.AST, owner: ast.ClassDef | None) -> list[dict] | None:
    """The arguments a platform constructs ``owner`` with (its ``__init__``), or None."""
    if owner is None or getattr(function, "name", "") != "__init__":
        return None
    truss = _truss_config(path, owner.name)
    if truss is None:
        return None
    config, config_path = truss
    args = function.args
    names = [a.arg for a in args.posonlyargs + args.args][1:] + [a.arg for a in args.kwonlyargs]
    passed = {"config": config, **{name: UNKNOWN for name in TRUSS_RUNTIME_ARGUMENTS}}
    binding: dict[str, object] = {name: passed.get(name, MISSING) for name in names}
    if args.kwarg is not None:
        rest = {key: Slot(value, None) for key, value in passed.items() if key not in names}
        binding[args.kwarg.arg] = DictObj(rest, complete=False)
    if args.vararg is not None:
        binding[args.vararg.arg] = ListObj([], exact=True)
    return [binding]


def _truss_config(path: str, class_name: str) -> tuple[DictObj, str] | None:
    """The parsed ``config.yaml`` of the Truss whose model class is ``class_name`` in ``path``."""
    folder = os.path.dirname(os.path.abspath(path))
    for root in (os.path.dirname(folder), os.path.dirname(os.path.dirname(folder))):
        config_path = os.path.join(root, TRUSS_CONFIG)
        if not os.path.isfile(config_path):
            continue
        loaded = _load(config_path)
        if loaded is None:
            return None
        node, text = loaded
        settings = _top_level_scalars(node)
        module_dir = settings.get("model_module_dir", "model")
        filename = settings.get("model_class_filename", "model.py")
        if os.path.abspath(os.path.join(root, module_dir, filename)) != os.path.abspath(path):
            continue
        if settings.get("model_class_name", "Model") != class_name:
            return None
        config = _value(node, config_path)
        if not isinstance(config, DictObj):
            return None
        config.complete = False  # Truss fills in the keys the file leaves out
        return config, config_path
    return None


def _load(config_path: str):
    import yaml

    from vllm_lint.launch.yamlsrc import AliasError, compose_document

    try:
        if os.path.getsize(config_path) > MAX_CONFIG_BYTES:
            return None
        with open(config_path, encoding="utf-8") as handle:
            text = handle.read()
        node = compose_document(text)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, AliasError, RecursionError):
        return None
    if not isinstance(node, yaml.MappingNode):
        return None
    # Truss refuses keys it does not define: a config.yaml with another key belongs to another tool.
    keys = {key.value for key, _ in node.value if isinstance(key, yaml.ScalarNode)}
    if len(keys) != len(node.value) or not keys <= TRUSS_KEYS or not keys & TRUSS_MARKS:
        return None
    return node, text


def _top_level_scalars(node) -> dict[str, str]:
    import yaml

    return {
        key.value: value.value
        for key, value in node.value
        if isinstance(key, yaml.ScalarNode) and isinstance(value, yaml.ScalarNode)
    }


def _value(node, config_path: str, depth: int = 0) -> object:
    import yaml

    from vllm_lint.launch.yamlsrc import constructor

    if depth > 32:
        return UNKNOWN
    if isinstance(node, yaml.MappingNode):
        result = DictObj()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                result.complete = False
                continue
            start, end = key_node.start_mark, value_node.end_mark
            span = Span(start.line + 1, start.column, end.line + 1, end.column)
            origin = Origin(span, "config-key", path=config_path)
            result.items[str(key_node.value)] = Slot(_value(value_node, config_path, depth + 1), origin)
        return result
    if isinstance(node, yaml.SequenceNode):
        return ListObj([_value(item, config_path, depth + 1) for item in node.value], exact=True)
    try:
        return constructor().construct_object(node, deep=True)
    except yaml.YAMLError:
        return UNKNOWN
