"""Generate the start-up checks between engine arguments from vLLM's own config code:
``src/vllm_lint/rules/startup_data/<minor release>.json``, one file per release (the checker
reads only the one a file runs on), and ``index.json`` (the releases, the newest one's messages).

    python tools/vllm_startup_checks.py                 # the releases the committed data holds
    python tools/vllm_startup_checks.py 0.33.0 0.34.0   # exactly these releases
    python tools/vllm_startup_checks.py --add 0.32.0    # one more release
    python tools/vllm_startup_checks.py --check         # exit 1 when the committed files differ

It reads releases back to 0.10 (vLLM 0.9 and older keep their configs in one
``vllm/config.py`` module, which it does not read: no checks).

Wheels are looked up as ``tools/vllm_schema.py`` looks them up (``$VLLM_LINT_WHEELS``, then the
cache, where a missing one is downloaded).  Nothing is imported from vLLM: its sources are read
with ``ast``.

What is read, per release:

* the validators of the config classes (``vllm/config/*.py``): ``__post_init__``, methods named
  ``_verify*``/``verify*``/``_validate*``, and ``model_validator(mode="after")`` methods;
  ``EngineArgs.__post_init__`` and ``create_engine_config`` (``vllm/engine/arg_utils.py``);
  the ``LLM`` constructor's own checks of its ``**kwargs`` (``vllm/entrypoints/llm.py``); and
  each speculative method's ``configure`` (``SpeculatorConfig`` subclasses, dispatched by
  the release's ``_CONFIG_BY_METHOD`` table), where the release has them;
* for every ``raise`` in them, the conditions of the branches that lead to it, with earlier
  ``return``s negated.  A check is kept only when every name in its condition is an engine
  argument (``self.x`` of ``EngineArgs``; a config field that ``EngineArgs`` fills from one
  argument, ``ParallelConfig(tensor_parallel_size=self.tensor_parallel_size)``; a key of a
  dict argument a config class is built from, ``SpeculativeConfig(**self.speculative_config)``;
  a ``kwargs.get`` of the ``LLM`` constructor), a constant, an environment variable read
  from ``vllm.envs`` as ``CAST(os.getenv(NAME, default))`` (recorded with its default; the
  checker reads it as the file sets it), or a one-line property or local name made of
  those.  Anything else (the model's config, the platform, a call) drops it.  A local of
  ``create_engine_config`` (``data_parallel_external_lb = ...``) follows the method's own
  rewrites of arguments in order, and a field ``__post_init__`` assigns from arguments or
  the environment has that value in the "after" validators;
* the same validators read again with the model's config as an input (``MODEL_FACTS``: vLLM's
  expressions for facts of the checkpoint, named as ``vllm_lint/model_facts.py`` reads them):
  the raises whose branches read one are ``<minor release>.model.json``, for VLM407;
* two assumptions, about the platform and the model: vLLM's CUDA build on NVIDIA GPUs
  (``current_platform.is_cuda()`` is true, ``is_rocm()``/``is_tpu()``/... false), and a model
  that is not a speculators-format draft (``maybe_override_with_speculators`` hands the
  arguments back unchanged);
* a field assigned before the ``raise`` (in the same function, or in ``EngineArgs``' own
  ``__post_init__``/``create_engine_config`` for an argument) adds "that assignment did not
  run" to the condition, or drops the check when that cannot be written.

Each check records its condition as data (a small expression tree), vLLM's message (an
f-string's fields as expressions), the exception, the file, line and function, and the
release.  Per argument the file records the default the check reads when it is not written.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vllm_schema  # noqa: E402  (wheel lookup shared with the schema generator)

OUT = Path(__file__).resolve().parent.parent / "src" / "vllm_lint" / "rules" / "startup_data"
DEFAULT_RELEASES = ("0.34.0",)
VALIDATOR_PREFIXES = ("_verify", "verify", "_validate", "validate", "__post_init__")
SPEC_DIR = "vllm/v1/worker/gpu/spec_decode/"
UNDEFINED = object()
DEBUG = bool(os.environ.get("VLLM_STARTUP_CHECKS_DEBUG"))


class Untranslatable(Exception):
    """A condition reads something that is not an engine argument."""


# ---------------------------------------------------------------------------------------------
# Reading the release


def read_sources(wheel: Path) -> dict[str, ast.Module]:
    wanted = {}
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if (
                (name.startswith("vllm/config/") and name.endswith(".py"))
                or name in ("vllm/engine/arg_utils.py", "vllm/entrypoints/llm.py", "vllm/envs.py")
                or (name.startswith("vllm/entrypoints/") and name.endswith("/cli_args.py"))
                or name in ("vllm/model_executor/models/config.py", "vllm/model_executor/models/adapters.py")
                or (name.startswith(SPEC_DIR) and name.endswith(".py") and "config" in name.rsplit("/", 1)[-1])
            ):
                text = archive.read(name).decode("utf-8")
                try:
                    wanted[name] = ast.parse(text)
                except SyntaxError:
                    continue
    return wanted


def literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNDEFINED


ENV_CASTS = {"int": int, "float": float, "str": str}


def _environment_variables(module: ast.Module | None) -> dict[str, dict]:
    """vLLM's environment variables read as ``CAST(os.getenv("NAME", "default"))`` (the
    ``environment_variables`` table of ``vllm/envs.py``): name -> its type and the value vLLM
    uses when it is unset.  Other forms (a default read from another variable) are left out."""
    found: dict[str, dict] = {}
    if module is None:
        return found
    for stmt in module.body:
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else (stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None)
        if not (isinstance(target, ast.Name) and target.id == "environment_variables" and isinstance(stmt.value, ast.Dict)):
            continue
        for key, value in zip(stmt.value.keys, stmt.value.values):
            if not (isinstance(key, ast.Constant) and isinstance(value, ast.Lambda)):
                continue
            body, kind = value.body, "str"
            if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id in ("int", "float") and len(body.args) == 1 and not body.keywords:
                body, kind = body.args[0], body.func.id
            if not (
                isinstance(body, ast.Call)
                and ast.unparse(body.func) == "os.getenv"
                and len(body.args) == 2
                and not body.keywords
                and isinstance(body.args[0], ast.Constant)
                and body.args[0].value == key.value
                and isinstance(body.args[1], ast.Constant)
                and isinstance(body.args[1].value, str)
            ):
                continue
            try:
                default = ENV_CASTS[kind](body.args[1].value)
            except ValueError:
                continue
            found[key.value] = {"env": key.value, "type": kind, "default": default}
    return found


class ClassInfo:
    def __init__(self, name: str, node: ast.ClassDef, path: str, module: ast.Module):
        self.name, self.node, self.path, self.module = name, node, path, module
        self.bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases]
        self.fields: dict[str, object] = {}  # field -> literal default (UNDEFINED: none or not literal)
        self.annotations: dict[str, str] = {}
        self.methods: dict[str, ast.FunctionDef] = {}
        self.properties: dict[str, ast.expr] = {}
        self.constants: dict[str, object] = {}  # ClassVar-like literal attributes (base_method)
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                name_ = stmt.target.id
                self.annotations[name_] = ast.unparse(stmt.annotation)
                self.fields[name_] = _default_of(stmt.value)
                if "ClassVar" in self.annotations[name_]:
                    self.constants[name_] = self.fields.pop(name_)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                self.constants[stmt.targets[0].id] = literal(stmt.value)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.methods[stmt.name] = stmt
                decorators = [ast.unparse(d) for d in stmt.decorator_list]
                if "property" in decorators:
                    body = [s for s in stmt.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
                    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
                        self.properties[stmt.name] = body[0].value


def _default_of(value: ast.expr | None):
    if value is None:
        return UNDEFINED
    if isinstance(value, ast.Call) and ast.unparse(value.func).rsplit(".", 1)[-1] in ("Field", "field"):
        for keyword in value.keywords:
            if keyword.arg == "default":
                return literal(keyword.value)
            if keyword.arg == "default_factory":
                # ``default_factory=list`` and ``lambda: [1, 2]``: the value it makes.
                factory = keyword.value
                if isinstance(factory, ast.Name) and factory.id in ("list", "dict", "set"):
                    return {"list": [], "dict": {}, "set": []}[factory.id]
                if isinstance(factory, ast.Lambda) and not factory.args.args:
                    made = literal(factory.body)
                    return list(made) if isinstance(made, (tuple, set)) else made
                return UNDEFINED
        return UNDEFINED
    return literal(value)


class Release:
    def __init__(self, version: str, modules: dict[str, ast.Module]):
        self.version = version
        self.modules = modules
        self.classes: dict[str, ClassInfo] = {}
        self.aliases: dict[str, tuple] = {}  # Literal aliases: name -> values
        for path, module in sorted(modules.items()):
            for stmt in module.body:
                if isinstance(stmt, ast.ClassDef):
                    self.classes.setdefault(stmt.name, ClassInfo(stmt.name, stmt, path, module))
                target = value = None
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    target, value = stmt.targets[0].id, stmt.value
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    target, value = stmt.target.id, stmt.value
                if target and isinstance(value, ast.Subscript) and ast.unparse(value.value) == "Literal":
                    values = literal(value.slice)
                    if values is not UNDEFINED:
                        self.aliases.setdefault(target, values if isinstance(values, tuple) else (values,))
        self.engine = self.classes.get("EngineArgs")
        self.env = _environment_variables(modules.get("vllm/envs.py"))
        # ``vllm serve``'s own options (``FrontendArgs`` and its bases): name -> literal default.
        self.frontend: dict[str, object] = {}
        self.frontend_types: dict[str, str] = {}
        for cls, info in self.classes.items():
            if cls.endswith("FrontendArgs") and info.path.startswith("vllm/entrypoints/"):
                for name, default in info.fields.items():
                    self.frontend.setdefault(name, default)
                    self.frontend_types.setdefault(name, info.annotations.get(name, ""))
        # (config class, field) -> argument name, or (argument, key) for dict-built configs.
        self.filled: dict[tuple[str, str], object] = {}
        self.dict_built: dict[str, str] = {}  # config class -> the dict argument it is built from
        self.spec_aliases: dict[str, str] = {}  # speculative_config key -> shortcut argument
        if self.engine is not None:
            self._read_engine_args()
        # Fields a config's ``__post_init__`` computes first thing, once, from its other fields
        # (``world_size = pipeline_parallel_size * tensor_parallel_size * ...``).
        self.derived: dict[tuple[str, str], ast.expr] = {}
        for cls, info in self.classes.items():
            method = info.methods.get("__post_init__")
            if method is None or (cls, "") in self.filled:
                continue
            writes: dict[str, int] = {}
            for function in info.methods.values():
                for node in ast.walk(function):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
                    for target in targets:
                        if _is_self_attr(target):
                            writes[target.attr] = writes.get(target.attr, 0) + 1
            for stmt in method.body:
                if (
                    isinstance(stmt, ast.Assign)
                    and len(stmt.targets) == 1
                    and _is_self_attr(stmt.targets[0])
                    and writes.get(stmt.targets[0].attr) == 1
                    and (cls, stmt.targets[0].attr) not in self.filled
                ):
                    self.derived[(cls, stmt.targets[0].attr)] = stmt.value

    def field_default(self, cls: str, name: str):
        info = self.classes.get(cls)
        while info is not None:
            if name in info.fields:
                return info.fields[name]
            info = next((self.classes[b] for b in info.bases if b in self.classes), None)
        return UNDEFINED

    def _read_engine_args(self) -> None:
        engine = self.engine
        for method in engine.methods.values():
            for node in ast.walk(method):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                    continue
                cls = node.func.id
                if cls not in self.classes:
                    continue
                for keyword in node.keywords:
                    if keyword.arg is None:
                        if _is_self_attr(keyword.value) and keyword.value.attr in engine.fields:
                            self.dict_built[cls] = keyword.value.attr
                        continue
                    value = keyword.value
                    if _is_self_attr(value) and value.attr in engine.fields:
                        self.filled.setdefault((cls, keyword.arg), value.attr)
                    elif isinstance(value, ast.Name):
                        # A local computed from arguments (``data_parallel_external_lb = ...``):
                        # its value where the config is built.
                        self.filled.setdefault((cls, keyword.arg), ("local", method, value.id, node.lineno))
                    else:
                        self.filled[(cls, keyword.arg)] = None  # derived: unknown
                # --spec-method and friends write keys of speculative_config
            for node in ast.walk(method):
                if isinstance(node, ast.Tuple) and len(node.elts) == 3:
                    flag, key, value = node.elts
                    if (
                        isinstance(flag, ast.Constant)
                        and isinstance(key, ast.Constant)
                        and isinstance(flag.value, str)
                        and flag.value.startswith("--spec-")
                        and _is_self_attr(value)
                    ):
                        self.spec_aliases[key.value] = value.attr
        # An argument whose type is one config class: argparse builds the class from the JSON of
        # its option (get_kwargs), LLM from a dict (``_make_config``): the class is built from
        # the argument's keys, as where EngineArgs itself writes ``Cls(**self.x)``.
        typed: dict[str, list[str]] = {}
        for name, text in engine.annotations.items():
            parts = [part.strip() for part in text.split("|")]
            classes = [part for part in parts if part in self.classes and part.endswith("Config")]
            if len(classes) == 1 and all(part in (classes[0], "None") for part in parts):
                typed.setdefault(classes[0], []).append(name)
        for cls, names in typed.items():
            if len(names) == 1 and cls not in self.dict_built and not any(c == cls for c, _ in self.filled):
                self.dict_built[cls] = names[0]
        # Keys EngineArgs writes into a dict argument itself before the config is built from it
        # (``self.speculative_config.update({"target_model_config": target_model_config})``):
        # not the user's, their values are not arguments.
        self.engine_keys: dict[str, set] = {}
        for method in engine.methods.values():
            for node in ast.walk(method):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "update"
                    and _is_self_attr(node.func.value)
                    and node.args
                    and isinstance(node.args[0], ast.Dict)
                ):
                    for key in node.args[0].keys:
                        if isinstance(key, ast.Constant) and isinstance(key.value, str):
                            self.engine_keys.setdefault(node.func.value.attr, set()).add(key.value)
                elif isinstance(node, ast.Assign):
                    for target in node.targets:
                        if (
                            isinstance(target, ast.Subscript)
                            and _is_self_attr(target.value)
                            and isinstance(target.slice, ast.Constant)
                            and isinstance(target.slice.value, str)
                        ):
                            self.engine_keys.setdefault(target.value.attr, set()).add(target.slice.value)
        # Engine-argument defaults: literals, or ``SomeConfig.field``.
        self.defaults: dict[str, object] = {}
        for name, default in engine.fields.items():
            if default is UNDEFINED:
                stmt = next(
                    (s for s in engine.node.body if isinstance(s, ast.AnnAssign) and getattr(s.target, "id", None) == name),
                    None,
                )
                if stmt is not None and isinstance(stmt.value, ast.Attribute) and isinstance(stmt.value.value, ast.Name):
                    default = self.field_default(stmt.value.value.id, stmt.value.attr)
                elif stmt is not None and isinstance(stmt.value, ast.Call) and ast.unparse(stmt.value.func) == "get_field":
                    # get_field(Cls, "name"): the default of that field of Cls.  A config object
                    # made by a factory is not None, not a dict, its value unknown; a field of
                    # another type has its own default (None for an optional number).
                    owner, field = stmt.value.args[:2] if len(stmt.value.args) >= 2 else (None, None)
                    held = (
                        _held_config(self, owner.id, field.value)
                        if isinstance(owner, ast.Name) and isinstance(field, ast.Constant) and owner.id in self.classes
                        else None
                    )
                    if held is None and isinstance(owner, ast.Name) and isinstance(field, ast.Constant):
                        default = self.field_default(owner.id, field.value)
                    if held is not None or default is UNDEFINED:
                        default = {"factory": ast.unparse(stmt.value)}
            self.defaults[name] = default

    def arg_type(self, name: str) -> str:
        text = self.engine.annotations.get(name, "") if self.engine else ""
        if not text and name in self.frontend_types:
            text = self.frontend_types[name]
        for kind in ("bool", "int", "float"):
            if text.replace(" ", "") in (kind, f"{kind}|None", f"Optional[{kind}]"):
                return kind
        if text.startswith("dict") or "Config" in text:
            return "json"
        return "str" if ("str" in text or "Literal" in text or text in self.aliases) else "other"


_LOCALS_AT: dict = {}
# The values ``_local_at`` gave for locals of ``create_engine_config`` (by identity): the
# arguments they read are read as they are at that line, rewrites before it included.
_READ_IN_PLACE: set = set()


def _local_at(release, function: ast.FunctionDef, name: str, line: int):
    """A local's value (as an expression of arguments) at one line of an ``EngineArgs`` method."""
    key = (id(release), id(function), name, line, _MODEL_MODE)
    if key not in _LOCALS_AT:
        _LOCALS_AT[key] = None
        ctx = Context(release, "EngineArgs")
        # The method's own assignments to its fields are followed in order, as locals are: a
        # local reads each argument as it is where the local is computed.
        ctx.tracked = set()
        for node in ast.walk(function):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                for inner in ast.walk(target):
                    if _is_self_attr(inner):
                        try:
                            ctx.locals[f"self.{inner.attr}"] = ctx.field("EngineArgs", inner.attr)
                        except Untranslatable:
                            continue
                        ctx.tracked.add(inner.attr)
        walker = Walker(ctx, function, "", function.name)
        walker.stop_at = line
        walker.run()
        value = walker.locals_at_stop.get(name) if walker.locals_at_stop is not None else None
        # A call that may rewrite any argument before that line: the value holds where the
        # call did not run (unknown where it did; unknown everywhere if that cannot be written).
        for assigned, field, path in walker.assignments:
            if value is None or assigned >= line or field != "*":
                continue
            guard = None if field == "*" else _guard(path)
            if guard is None:
                value = None
                break
            value = {"op": "if", "args": [guard, {"unknown": field}, value]}
        _LOCALS_AT[key] = value
        if value is not None and function.name == "create_engine_config":
            _READ_IN_PLACE.add(id(value))
    return _LOCALS_AT[key]


def _is_self_attr(node: ast.AST, owner: str = "self") -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == owner


# ---------------------------------------------------------------------------------------------
# Translating conditions


# Calls that hand the arguments back unchanged for an ordinary model: the checks assume it.
MODEL_PASS_THROUGH = {
    # unless the model's config.json has a ``speculators_config`` (a speculators-format draft)
    "maybe_override_with_speculators",
}
# Registries of plugins: a method name registered by a plugin is not one of vLLM's own (the
# checks are those of vLLM without plugins): the lookup finds nothing.
NO_PLUGINS = {"get_custom_speculator_config_class"}
# The checks are those of vLLM's CUDA build on an NVIDIA GPU: the platform's identity is known.
CUDA_PLATFORM = {
    "current_platform.is_cuda": True,
    "current_platform.is_cuda_alike": True,
    "current_platform.is_rocm": False,
    "current_platform.is_tpu": False,
    "current_platform.is_xpu": False,
    "current_platform.is_cpu": False,
    "current_platform.is_out_of_tree": False,
}
# The model's config as an input of the checks (``--model-facts`` files, see ``generate``):
# vLLM's own expressions for facts of the checkpoint, by the name vllm-lint's model facts
# (``vllm_lint/model_facts.py``, ``MODEL_FACTS``) give them.  ``{model}`` is the ModelConfig as
# each function holds it: ``self`` in ModelConfig, ``self.model_config`` in VllmConfig, the
# local ``model_config`` of ``EngineArgs.create_engine_config``.  A property of ModelConfig
# made of these (``is_moe``: ``self.get_num_experts() > 0``) is read through them.
MODEL_FACTS = {
    "{model}.model_arch_config.total_num_attention_heads": "total_num_attention_heads",
    "{model}.hf_text_config.num_attention_heads": "total_num_attention_heads",
    "{model}.get_total_num_kv_heads()": "total_num_kv_heads",
    "{model}.model_arch_config.total_num_kv_heads": "total_num_kv_heads",
    "{model}.get_num_experts()": "num_experts",
    "{model}.model_arch_config.num_experts": "num_experts",
    "{model}.use_mla": "use_mla",
    "{model}.is_multimodal_model": "is_multimodal_model",
}
MODEL_HOLDERS = {"ModelConfig": "self", "VllmConfig": "self.model_config", "EngineArgs": "model_config"}
# Parameters of a ModelConfig validator that are the engine's config of their class
# (``verify_with_parallel_config(self, parallel_config: ParallelConfig)``, which VllmConfig
# calls with its own ``parallel_config``): read only with the model's facts.
MODEL_PARAMETERS = {("ModelConfig", "verify_with_parallel_config"): {"parallel_config": "ParallelConfig"}}
_MODEL_MODE = False  # set while the checks over the model's facts are read


def _model_fact(ctx, node: ast.AST) -> dict | None:
    """``{"model": FACT}`` where ``node`` is one of vLLM's expressions for a model fact."""
    holder = MODEL_HOLDERS.get(ctx.cls or "")
    if not _MODEL_MODE or holder is None or ctx.owner != "self":
        return None
    fact = MODEL_FACTS.get(ast.unparse(node).replace(holder, "{model}", 1) if ast.unparse(node).startswith(holder + ".") else "")
    return {"model": fact} if fact is not None else None


COMPARE = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}
ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}


class Context:
    """How names read in one function map to engine arguments."""

    def __init__(self, release: Release, cls: str | None, owner: str = "self", kwargs: str | None = None):
        self.release, self.cls, self.owner, self.kwargs = release, cls, owner, kwargs
        self.locals: dict[str, dict] = {}
        # Fields of the object followed through the function's own assignments, as locals
        # named ``self.<field>`` (None: fields read as the arguments they start from).
        self.tracked: set | None = None
        self.depth = 0
        self.parameters: dict[str, str] = {}  # a parameter that is the engine's config of a class

    def field(self, cls: str, name: str) -> dict:
        release = self.release
        if cls == SERVE:
            # ``vllm serve``'s parsed arguments: its own options and the engine arguments.
            if name == "subparser":
                return {"const": "serve"}
            engine = release.classes.get("AsyncEngineArgs") or release.engine
            if name in release.frontend or (release.engine is not None and name in release.engine.fields) or (engine is not None and name in engine.fields):
                return {"arg": name}
            raise Untranslatable(name)
        info = release.classes.get(cls)
        if info is not None and name in info.properties and self.depth < 4:
            self.depth += 1
            inner = Context(release, cls)
            if cls == self.cls and self.tracked is not None and self.owner == "self":
                # The property reads the fields followed so far as they are here.
                inner.tracked = self.tracked
                inner.locals = {k: v for k, v in self.locals.items() if k.startswith("self.")}
            try:
                return inner.translate(info.properties[name])
            finally:
                self.depth -= 1
        if cls == "EngineArgs":
            if name not in release.engine.fields:
                raise Untranslatable(name)
            return {"arg": name}
        if cls in release.dict_built:
            if release.field_default(cls, name) is UNDEFINED and (info is None or name not in info.fields):
                raise Untranslatable(f"{cls}.{name}")
            if name in release.engine_keys.get(release.dict_built[cls], ()):
                raise Untranslatable(f"{cls}.{name} is set by EngineArgs")
            return {"arg": release.dict_built[cls], "key": name}
        if (cls, name) in release.filled:
            argument = release.filled[(cls, name)]
            if argument is None:
                raise Untranslatable(f"{cls}.{name} is derived")
            if isinstance(argument, tuple):
                value = _local_at(release, *argument[1:])
                if value is None:
                    built = self._built_config(cls, name)
                    if built is not None:
                        return built
                    raise Untranslatable(f"{cls}.{name}")
                return value
            return {"arg": argument, "via": cls}
        if (cls, name) in release.derived and self.depth < 4:
            self.depth += 1
            try:
                return Context(release, cls).translate(release.derived[(cls, name)])
            finally:
                self.depth -= 1
        if cls == "VllmConfig":
            built = self._built_config(cls, name)
            if built is not None:
                return built
            raise Untranslatable(name)
        # A config field EngineArgs never sets keeps its own default.
        default = release.field_default(cls, name)
        if default is UNDEFINED or not cls.endswith("Config") or cls not in _constructed(release):
            raise Untranslatable(f"{cls}.{name}")
        return {"const": default}

    def _built_config(self, cls: str, name: str) -> dict | None:
        """``VllmConfig.speculative_config: SpeculativeConfig | None``: the config the engine
        builds from the argument of that name (or from its shortcuts, ``--spec-method``), None
        where it builds none."""
        release = self.release
        info = release.classes.get(cls)
        held = _held_config(release, cls, name)
        text = info.annotations.get(name, "") if info is not None else ""
        if cls == "VllmConfig" and held is not None and "None" in text and release.dict_built.get(held) == name:
            return {"op": "config", "args": [{"arg": name}]}
        return None

    def part(self, node: ast.AST) -> dict:
        """One operand of ``and``/``or``: unknown where it reads something else (the checker
        then decides the whole only where the known operands decide it)."""
        try:
            return self.translate(node)
        except Untranslatable:
            return {"unknown": ast.unparse(node)}

    def attribute(self, node: ast.Attribute) -> dict:
        if isinstance(node.value, ast.Name) and node.value.id.endswith("Enum") and node.value.id != self.owner:
            return {"enum": node.attr}
        if isinstance(node.value, ast.Name) and node.value.id == "envs" and node.value.id != self.owner:
            # An environment variable: its value where the engine is built (unset: vLLM's default).
            if node.attr not in self.release.env:
                raise Untranslatable(ast.unparse(node))
            return dict(self.release.env[node.attr])
        chain = []
        base: ast.AST = node
        while isinstance(base, ast.Attribute):
            chain.append(base.attr)
            base = base.value
        chain.reverse()
        if isinstance(base, ast.Name) and base.id != self.owner and len(chain) == 1 and base.id in self.locals:
            # A local holding a config built from a dict argument (``attention_config =
            # copy.deepcopy(self.attention_config)``): a key of that argument.
            held = self.locals[base.id]
            built = set(self.release.dict_built.values())
            if set(held) == {"arg"} and held["arg"] in built:
                cls = next(c for c, a in self.release.dict_built.items() if a == held["arg"])
                return self.field(cls, chain[0])
            raise Untranslatable(ast.unparse(node))
        if not isinstance(base, ast.Name) or base.id != self.owner or self.cls is None:
            raise Untranslatable(ast.unparse(node))
        if self.tracked is not None and len(chain) == 1 and chain[0] in self.tracked:
            key = f"{self.owner}.{chain[0]}"
            if key not in self.locals:
                raise Untranslatable(key)  # assigned where its value cannot be written
            return self.locals[key]
        cls = self.cls
        if len(chain) == 2 and cls == "VllmConfig":
            sub = _sub_config(self.release, chain[0])
            if sub is None:
                raise Untranslatable(ast.unparse(node))
            return self.field(sub, chain[1])
        if len(chain) == 2 and cls in self.release.dict_built:
            # A config held by a key of a config built from a dict argument
            # (``self.pass_config.x`` of CompilationConfig): the dotted key of that argument.
            held = _held_config(self.release, cls, chain[0])
            if held is not None and self.release.field_default(held, chain[1]) is not UNDEFINED:
                return {"arg": self.release.dict_built[cls], "key": f"{chain[0]}.{chain[1]}"}
            raise Untranslatable(ast.unparse(node))
        if len(chain) == 2:
            # A config held by a field the engine fills from a dict argument
            # (``ParallelConfig.eplb_config``, built from ``eplb_config``): a key of that argument.
            holder = self.field(cls, chain[0])
            built = {argument: built_cls for built_cls, argument in self.release.dict_built.items()}
            if set(holder) <= {"arg", "via"} and holder.get("arg") in built:
                return self.field(built[holder["arg"]], chain[1])
            raise Untranslatable(ast.unparse(node))
        if len(chain) != 1:
            raise Untranslatable(ast.unparse(node))
        return self.field(cls, chain[0])

    def translate(self, node: ast.AST) -> dict:
        fact = _model_fact(self, node) if isinstance(node, (ast.Attribute, ast.Call)) else None
        if fact is not None:
            return fact
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.parameters
        ):
            return self.field(self.parameters[node.value.id], node.attr)
        if isinstance(node, ast.Constant):
            return {"const": node.value}
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            value = literal(node)
            if value is UNDEFINED:
                # Items computed from the arguments (``(1, pcp, tp * pcp)``).
                if any(isinstance(item, ast.Starred) for item in node.elts):
                    raise Untranslatable(ast.unparse(node))
                return {"op": "list", "args": [self.translate(item) for item in node.elts]}
            if isinstance(value, (set, frozenset)):
                return {"const": sorted(value, key=repr)}  # the same data whatever the hash seed
            return {"const": list(value)}
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Name):
            if node.id in self.locals:
                return self.locals[node.id]
            if node.id in self.release.aliases:
                return {"const": list(self.release.aliases[node.id])}
            raise Untranslatable(node.id)
        if isinstance(node, ast.BoolOp):
            args = [self.part(v) for v in node.values]
            if all("unknown" in a for a in args):
                raise Untranslatable(ast.unparse(node))
            return {"op": "and" if isinstance(node.op, ast.And) else "or", "args": args}
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                return {"op": "not", "args": [self.translate(node.operand)]}
            if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
                return {"const": -node.operand.value}
            raise Untranslatable(ast.unparse(node))
        if isinstance(node, ast.Compare):
            parts = []
            left = self.translate(node.left)
            for op, comparator in zip(node.ops, node.comparators):
                right = self.translate(comparator)
                if type(op) not in COMPARE:
                    raise Untranslatable(ast.unparse(node))
                parts.append({"op": COMPARE[type(op)], "args": [left, right]})
                left = right
            return parts[0] if len(parts) == 1 else {"op": "and", "args": parts}
        if isinstance(node, ast.IfExp):
            return {"op": "if", "args": [self.translate(node.test), self.translate(node.body), self.translate(node.orelse)]}
        if isinstance(node, ast.BinOp) and type(node.op) in ARITH:
            return {"op": ARITH[type(node.op)], "args": [self.translate(node.left), self.translate(node.right)]}
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
            return {"op": "&" if isinstance(node.op, ast.BitAnd) else "|", "args": [self.translate(node.left), self.translate(node.right)]}
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            iterated, element, keep, var = self.comprehension(node)
            return {"op": "collect", "var": var, "kind": "set" if isinstance(node, ast.SetComp) else "list", "args": [iterated, element, keep]}
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.step is None:
            bounds = [self.translate(b) if b is not None else {"const": None} for b in (node.slice.lower, node.slice.upper)]
            return {"op": "slice", "args": [self.translate(node.value), *bounds]}
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
            return {"op": "index", "args": [self.translate(node.value), {"const": node.slice.value}]}
        if isinstance(node, ast.NamedExpr) and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) in NO_PLUGINS:
            return {"const": None}
        if isinstance(node, ast.Call):
            func = ast.unparse(node.func)
            if func in ("copy.deepcopy", "copy.copy", "deepcopy") and len(node.args) == 1 and not node.keywords:
                return self.translate(node.args[0])  # the same value, another object
            if func in NO_PLUGINS:
                return {"const": None}
            early = self._none_answer(node)
            if early is not None:
                return early
            if func in CUDA_PLATFORM and not node.args:
                return {"const": CUDA_PLATFORM[func]}
            if func == "get_args" and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
                values = self.release.aliases.get(node.args[0].id)
                if values is not None:
                    return {"const": list(values)}
            if func == "isinstance" and len(node.args) == 2 and not node.keywords:
                kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
                names = [k.id for k in kinds if isinstance(k, ast.Name)]
                if len(names) == len(kinds) and set(names) <= {"str", "int", "float", "bool", "dict", "list", "type"}:
                    return {"op": "isinstance", "args": [self.translate(node.args[0]), {"const": names}]}
            if self.cls == SERVE and func in ("getattr", "hasattr") and len(node.args) >= 2 and _is_owner(node.args[0], self.owner) and isinstance(node.args[1], ast.Constant):
                value = self.field(SERVE, node.args[1].value)
                if func == "hasattr":
                    return {"const": True}
                if len(node.args) == 3 and "arg" in value:
                    default = literal(node.args[2])
                    if default is UNDEFINED:
                        raise Untranslatable(ast.unparse(node))
                    return dict(value, default=default)
                return value
            if func in ("any", "all") and len(node.args) == 1 and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp)) and not node.keywords:
                iterated, element, keep, var = self.comprehension(node.args[0])
                return {"op": func, "var": var, "args": [iterated, {"op": "and", "args": [keep, element]}]}
            if func in ("len", "sorted") and len(node.args) == 1 and not node.keywords:
                return {"op": func, "args": [self.translate(node.args[0])]}
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr in ("startswith", "endswith")
                and len(node.args) == 1
                and not node.keywords
            ):
                return {"op": node.func.attr, "args": [self.translate(node.func.value), self.translate(node.args[0])]}
            if func in ("int", "bool") and len(node.args) == 1 and not node.keywords:
                return {"op": func, "args": [self.translate(node.args[0])]}
            if func in ("min", "max") and len(node.args) >= 2 and not node.keywords:
                return {"op": func, "args": [self.translate(a) for a in node.args]}
            if (
                self.kwargs is not None
                and func == f"{self.kwargs}.get"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and self.release.engine is not None
                and node.args[0].value in self.release.engine.fields
            ):
                default = literal(node.args[1]) if len(node.args) > 1 else None
                if default is UNDEFINED:
                    raise Untranslatable(ast.unparse(node))
                return {"arg": node.args[0].value, "default": default}
        raise Untranslatable(ast.unparse(node))


    def comprehension(self, node) -> tuple[dict, dict, dict, str]:
        """One ``for NAME in ITERABLE if ...`` over a value of the arguments: the iterable, the
        element, the filter, each read with NAME bound to the item (``{"item": NAME}``)."""
        if len(node.generators) != 1:
            raise Untranslatable(ast.unparse(node))
        generator = node.generators[0]
        if not isinstance(generator.target, ast.Name) or generator.is_async:
            raise Untranslatable(ast.unparse(node))
        var = generator.target.id
        iterated = self.translate(generator.iter)
        saved = self.locals.get(var)
        self.locals[var] = {"item": var}
        try:
            element = self.translate(node.elt)
            keep = {"op": "and", "args": [self.translate(test) for test in generator.ifs]} if generator.ifs else {"const": True}
        finally:
            if saved is None:
                self.locals.pop(var, None)
            else:
                self.locals[var] = saved
        return iterated, element, keep, var

    def _none_answer(self, call: ast.Call) -> dict | None:
        """A static method of a config class called on one value, whose first statement answers
        for None (``if model is None: return False``): that answer where the value is None,
        unknown otherwise."""
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in self.release.classes
            and len(call.args) == 1
            and not call.keywords
        ):
            return None
        method = self.release.classes[func.value.id].methods.get(func.attr)
        if method is None or "staticmethod" not in [ast.unparse(d) for d in method.decorator_list] or len(method.args.args) != 1:
            return None
        body = [stmt for stmt in method.body if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))]
        first = body[0] if body else None
        param = method.args.args[0].arg
        if not (
            isinstance(first, ast.If)
            and not first.orelse
            and ast.unparse(first.test) == f"{param} is None"
            and len(first.body) == 1
            and isinstance(first.body[0], ast.Return)
            and first.body[0].value is not None
            and literal(first.body[0].value) is not UNDEFINED
        ):
            return None
        value = self.translate(call.args[0])
        answer = literal(first.body[0].value)
        return {"op": "if", "args": [{"op": "is", "args": [value, {"const": None}]}, {"const": answer}, {"unknown": ast.unparse(call)}]}


_CONSTRUCTED: dict[int, set] = {}


def _constructed(release: Release) -> set:
    """Config classes EngineArgs builds (their unset fields keep the class default)."""
    key = id(release)
    if key not in _CONSTRUCTED:
        _CONSTRUCTED[key] = {cls for cls, _ in release.filled} | set(release.dict_built)
    return _CONSTRUCTED[key]


def _held_config(release: Release, cls: str, field: str) -> str | None:
    """The config class a field of a config holds (``CompilationConfig.pass_config``: PassConfig)."""
    info = release.classes.get(cls)
    text = info.annotations.get(field, "") if info is not None else ""
    parts = [part.strip() for part in text.split("|")]
    held = [part for part in parts if part in release.classes and part.endswith("Config")]
    return held[0] if len(held) == 1 and all(part in (held[0], "None") for part in parts) else None


def _sub_config(release: Release, attr: str) -> str | None:
    info = release.classes.get("VllmConfig")
    if info is None:
        return None
    annotation = info.annotations.get(attr, "")
    name = annotation.split("|")[0].strip()
    return name if name in release.classes else None


def message_of(node: ast.expr | None, ctx: Context) -> tuple[str, list]:
    """vLLM's message: text with ``{0}``-style fields, and each field as an expression (None
    where it is not made of arguments)."""
    if node is None:
        return "", []
    if isinstance(node, ast.Call) and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}"), []
    parts: list[str] = []
    fields: list = []

    def walk(part: ast.AST) -> bool:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            parts.append(part.value.replace("{", "{{").replace("}", "}}"))
            return True
        if isinstance(part, ast.JoinedStr):
            return all(walk(v) for v in part.values)
        if isinstance(part, ast.FormattedValue):
            try:
                expr = ctx.translate(part.value)
            except Untranslatable:
                expr = None
            text = ast.unparse(part.value)
            fields.append({"expr": expr, "text": text, "repr": part.conversion == ord("r"), "self_doc": False})
            parts.append("{" + str(len(fields) - 1) + "}")
            return True
        if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Add):
            return walk(part.left) and walk(part.right)
        return False

    if not walk(node):
        return "", []
    return "".join(parts), fields


# ---------------------------------------------------------------------------------------------
# Walking validators


class Walker:
    """Collects every ``raise`` of one function with the conditions on its path."""

    def __init__(self, ctx: Context, function: ast.FunctionDef, path: str, where: str, extra: list | None = None):
        self.ctx, self.function, self.path, self.where = ctx, function, path, where
        self.extra = extra or []
        self.found: list[dict] = []
        self.assignments: list[tuple[int, str, list]] = []  # (line, field, path conditions)
        self.prior: list = []  # assignments made before the function runs (line 0)
        self.prior_values: list = []  # the value of each of those, where it can be written
        self.values: dict = {}  # (line, field) -> the value assigned, where it can be written
        self.stop_at: int | None = None  # record the locals when this line is reached
        self.locals_at_stop: dict | None = None
        self.inlined_at: int | None = None  # the line of the call whose method is being read

    def run(self) -> list[dict]:
        self.block(self.function.body, [])
        return self.found

    def cond(self, node: ast.expr, positive: bool) -> object:
        try:
            expr = self.ctx.translate(node)
        except Untranslatable as error:
            if DEBUG:
                print(f"  untranslatable in {self.where}:{node.lineno}: {ast.unparse(node)[:120]} ({error})", file=sys.stderr)
            return None
        return expr if positive else {"op": "not", "args": [expr]}

    def block(self, body: list[ast.stmt], path: list) -> None:
        path = list(path)
        for stmt in body:
            if self.stop_at is not None and stmt.lineno <= self.stop_at <= (stmt.end_lineno or stmt.lineno):
                if not isinstance(stmt, ast.If):
                    if body is self.function.body:  # reached on every way through the function
                        self.locals_at_stop = dict(self.ctx.locals)
                    return
            if isinstance(stmt, ast.If):
                test = self.cond(stmt.test, True)
                before = dict(self.ctx.locals)
                self.block(stmt.body, path + [test])
                after_body, self.ctx.locals = self.ctx.locals, dict(before)
                self.block(stmt.orelse, path + [self.cond(stmt.test, False)])
                after_else = self.ctx.locals
                leaves_body, leaves_else = _leaves(stmt.body), _leaves(stmt.orelse)
                self.ctx.locals = _merge_locals(
                    test, None if leaves_body else after_body, None if leaves_else else after_else
                )
                if "maybe" in (leaves_body, leaves_else):
                    if DEBUG:
                        print(f"  unsure path in {self.where} after line {stmt.lineno}: a branch may leave", file=sys.stderr)
                    path.append(None)
                    continue
                if leaves_body and leaves_else:
                    return
                # After a branch that returns, only the other branch's condition holds.  After
                # one that raises, the start-up fails either way: its negation is added where it
                # can be written (so the message quoted is the one vLLM gives first).
                if leaves_body:
                    negated = self.cond(stmt.test, False)
                    if negated is not None or leaves_body == "return":
                        if negated is None and DEBUG:
                            print(f"  unsure path in {self.where} after line {stmt.lineno}: a return on a condition not written", file=sys.stderr)
                        path.append(_passed(negated) if leaves_body == "raise" else negated)
                elif leaves_else:
                    if test is not None or leaves_else == "return":
                        path.append(_passed(test) if leaves_else == "raise" else test)
            elif isinstance(stmt, ast.Raise):
                self.record(stmt, path)
                return
            elif isinstance(stmt, (ast.Return, ast.Continue, ast.Break)):
                return
            elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                self.assign(stmt, path)
            if isinstance(stmt, ast.For):
                self.loop(stmt, path)
            if isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try, ast.Match)) or hasattr(ast, "TryStar") and isinstance(stmt, getattr(ast, "TryStar")):
                # Loops, handlers and context managers: assignments inside make the fields
                # they write unknown afterwards; raises inside are not kept.
                for inner in ast.walk(stmt):
                    if isinstance(inner, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                        self.assign(inner, [None])
                        for target in inner.targets if isinstance(inner, ast.Assign) else [inner.target]:
                            if isinstance(target, ast.Name):
                                self.ctx.locals.pop(target.id, None)
                if any(isinstance(n, ast.Return) for n in ast.walk(stmt)):
                    path.append(None)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _mutation(stmt.value, self.ctx.owner):
                # ``self.custom_ops.append("+rotary_embedding")``: an assignment to the field.
                self.assign(_mutation(stmt.value, self.ctx.owner), path)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                inlined = _own_validator(self.ctx, stmt.value) if _MODEL_MODE else None
                if inlined is not None:
                    # ``self._verify_with_expert_parallelism()`` under the caller's branch: its
                    # raises hold on this path only.
                    where, self.where = self.where, f"{self.ctx.cls}.{inlined.name}"
                    at, self.inlined_at = self.inlined_at, self.inlined_at or stmt.lineno
                    start = len(self.assignments)
                    self.block(inlined.body, path)
                    self.where, self.inlined_at = where, at
                    # What it assigns is assigned where the call is.
                    self.assignments[start:] = [(stmt.lineno, field, guard) for _, field, guard in self.assignments[start:]]
                # A call on the config object may change any field: later checks are unsure.
                self.call(stmt.value, stmt.lineno)

    def loop(self, stmt: ast.For, path: list) -> None:
        """``for NAME in ITERABLE:`` over a value of the arguments, whose body raises: each raise
        is kept under "some item meets the body's conditions" (``{"op": "any"}``).  What the body
        assigns is left to the loop's treatment after it (unknown)."""
        if stmt.orelse or not isinstance(stmt.target, ast.Name) or not any(isinstance(n, ast.Raise) for n in ast.walk(stmt)):
            return
        try:
            iterated = self.ctx.translate(stmt.iter)
        except Untranslatable:
            return
        var = stmt.target.id
        saved = (list(self.assignments), dict(self.values), dict(self.ctx.locals))
        self.ctx.locals[var] = {"item": var}
        try:
            self.block(stmt.body, path + [{"loop": var, "iter": iterated}])
        finally:
            self.assignments, self.values, self.ctx.locals = saved

    def call(self, call: ast.Call, line: int) -> None:
        """A call of the object's own method writes the fields that method assigns; a call
        that is handed the object may write any of them."""
        owner = self.ctx.owner
        if isinstance(call.func, ast.Attribute) and _is_owner(call.func.value, owner):
            info = self.ctx.release.classes.get(self.ctx.cls or "")
            method = info.methods.get(call.func.attr) if info is not None else None
            if method is None:
                self.assignments.append((line, "*", [None]))
                return
            for node in ast.walk(method):
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    me = method.args.args[0].arg if method.args.args else "self"
                    for target in targets:
                        if isinstance(target, ast.Attribute) and _is_self_attr(target.value, me):
                            # ``self.x.key = ...``: one key of the config built from argument x.
                            self.assignments.append((line, f"{target.value.attr}.{target.attr}", [None]))
                            continue
                        for inner in ast.walk(target):
                            if isinstance(inner, ast.Attribute) and _is_owner(inner.value, me):
                                self.assignments.append((line, inner.attr, [None]))
                elif isinstance(node, ast.Call) and node is not call and ast.unparse(node.func) not in READ_ONLY_BUILTINS and any(
                    _is_owner(a, "self") for a in list(node.args) + [k.value for k in node.keywords]
                ):
                    written = _callee_writes(self.ctx.release, node, "self")
                    for field in sorted(written) if written is not None else ["*"]:
                        self.assignments.append((line, field, [None]))
            return
        if any(_is_owner(a, owner) for a in list(call.args) + [k.value for k in call.keywords]):
            if self.ctx.cls == SERVE and _only_reads(self.ctx.release, call, owner):
                return
            self.assignments.append((line, "*", [None]))

    def assign(self, stmt: ast.stmt, path: list) -> None:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if _converts_dict(stmt):
            return  # ``self.x = XConfig(**self.x)``: the dict argument becomes its config, as read
        value = getattr(stmt, "value", None)
        if isinstance(value, ast.Call) and ast.unparse(value.func) in MODEL_PASS_THROUGH:
            return
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Attribute) and _is_owner(node.value, self.ctx.owner):
                    self.assignments.append((stmt.lineno, node.attr, list(path)))
                    if self.ctx.tracked is not None and node.attr in self.ctx.tracked:
                        # Its value from here on this path (the branches merge after their ``if``).
                        key = f"{self.ctx.owner}.{node.attr}"
                        value = None
                        if isinstance(stmt, ast.Assign) and node is target and None not in path[-1:]:
                            try:
                                value = self.ctx.translate(stmt.value)
                            except Untranslatable:
                                value = None
                        elif (
                            isinstance(stmt, ast.AugAssign)
                            and type(stmt.op) in ARITH
                            and key in self.ctx.locals
                            and None not in path[-1:]
                        ):
                            # ``self.world_size *= self.data_parallel_size``
                            try:
                                value = {"op": ARITH[type(stmt.op)], "args": [self.ctx.locals[key], self.ctx.translate(stmt.value)]}
                            except Untranslatable:
                                value = None
                        if value is None and key in self.ctx.locals and _guard(path) is not None:
                            # Unknown where this assignment runs, as it was where it does not.
                            value = {"op": "if", "args": [_guard(path), {"unknown": ast.unparse(stmt)}, self.ctx.locals[key]]}
                        if value is None:
                            self.ctx.locals.pop(key, None)
                        else:
                            self.ctx.locals[key] = value
                    if isinstance(stmt, ast.Assign) and node is target and stmt.value is not None:
                        try:
                            self.values[(stmt.lineno, node.attr)] = self.ctx.translate(stmt.value)
                        except Untranslatable:
                            pass
                    elif isinstance(stmt, ast.AugAssign) and node is target and type(stmt.op) in ARITH and self.ctx.cls:
                        # ``self.custom_ops += ["+rotary_embedding"]``: the field as it was, and the value.
                        try:
                            before = self.ctx.field(self.ctx.cls, node.attr)
                            self.values[(stmt.lineno, node.attr)] = {"op": ARITH[type(stmt.op)], "args": [before, self.ctx.translate(stmt.value)]}
                        except Untranslatable:
                            pass
                elif isinstance(node, ast.Name) and isinstance(stmt, ast.Assign) and len(targets) == 1 and node is target:
                    # A local name: its value where it is assigned, on a sure path only.
                    # Its value from here on this path (branches merge after their ``if``).
                    try:
                        self.ctx.locals[node.id] = self.ctx.translate(stmt.value)
                    except Untranslatable:
                        self.ctx.locals.pop(node.id, None)

    def record(self, stmt: ast.Raise, path: list) -> None:
        conditions = self.extra + path
        if not conditions or any(c is None for c in conditions):
            if DEBUG:
                print(f"dropped {self.where}:{stmt.lineno}: path {['?' if c is None else 'ok' for c in conditions]}", file=sys.stderr)
            return
        conditions = _fold_loops(conditions)
        exc = stmt.exc
        # An earlier raise that did not fire (its negation, marked): where what it reads may be
        # assigned between it and here, it is left out rather than the check: vLLM rejects
        # the configuration either way, only its first message may be the other one.
        at = self.inlined_at or stmt.lineno  # an inlined method's raise: where the call is
        assigned = {field for line, field, _ in self.prior + self.assignments if line < at}
        if "*" not in assigned:
            conditions = [
                c for c in conditions
                if not (isinstance(c, dict) and c.get("passed") and _fields_read(c, self.ctx) & assigned)
            ]
        # The model's facts the raise's own branches read (an earlier raise that did not fire
        # only orders the messages): a check is over the model where these are some.
        own_facts = set().union(*(_model_facts_of(c) for c in conditions if not (isinstance(c, dict) and c.get("passed"))))
        conditions = [_unmarked(c) for c in conditions]
        if not conditions:
            return
        error = ast.unparse(exc.func if isinstance(exc, ast.Call) else exc) if exc is not None else ""
        if exc is None or not error.endswith(("Error", "Exception")):
            return
        condition = {"op": "and", "args": conditions} if len(conditions) > 1 else conditions[0]
        used = _args_of(condition)
        if not used:
            return
        guards = []
        current: dict = {}  # field -> its value so far, as an expression
        for index, (line, field, guard_path) in enumerate(self.prior + self.assignments):
            if line >= at:
                continue
            if field == "*":
                return
            if self.ctx.tracked is not None and field in self.ctx.tracked and line:
                continue  # the condition read it as it was there
            if any(f == field for f in _fields_read(condition, self.ctx)):
                guard = _guard(guard_path)
                if line:
                    value = self.values.get((line, field))
                else:
                    value = self.prior_values[index] if index < len(self.prior_values) else None
                try:
                    original = self.ctx.field(self.ctx.cls, field) if self.ctx.cls else None
                except Untranslatable:
                    original = None
                if value is not None and original is not None and "arg" in original:
                    # The field after this assignment: the value where its branch ran.
                    before = current.get(field, original)
                    value = _substitute(value, current, self.ctx)
                    if guard is None:
                        current[field] = value
                    else:
                        current[field] = {"op": "if", "args": [_substitute(guard, current, self.ctx), value, before]}
                    continue
                if guard is None:
                    return
                guards.append({"op": "not", "args": [guard]})
                if DEBUG:
                    print(f"guard {self.where}:{stmt.lineno}: {field} assigned at {line}", file=sys.stderr)
        condition = _substitute(condition, current, self.ctx)
        if guards:
            condition = {"op": "and", "args": [condition, *guards]}
        text, fields = message_of(exc, self.ctx)
        if not text:
            return
        for field in fields:
            if field["expr"] is not None and any(isinstance(n, dict) and "item" in n for n in _walk_expr(field["expr"])):
                field["expr"] = None  # the item of a loop: not one value
        self.found.append(
            {
                "when": condition,
                "message": text,
                "fields": fields,
                "error": error,
                "file": self.path,
                "line": stmt.lineno,
                "function": self.where,
                **({"model_facts": sorted(own_facts)} if _MODEL_MODE else {}),
            }
        )


MUTATORS = ("append", "extend", "insert", "remove", "pop", "clear", "update", "add", "discard", "setdefault")


def _mutation(call: ast.Call, owner: str) -> ast.stmt | None:
    """A method call that changes a field's list, set or dict in place, as the assignment it
    amounts to: ``self.x.append(v)`` is ``self.x += [v]``, ``self.x.extend(v)`` is
    ``self.x += v``; the others give the field a value that is not written (``self.x = <call>``)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in MUTATORS and _is_self_attr(func.value, owner)):
        return None
    target = ast.Attribute(value=func.value.value, attr=func.value.attr, ctx=ast.Store())
    if func.attr == "append" and len(call.args) == 1 and not call.keywords:
        stmt = ast.AugAssign(target=target, op=ast.Add(), value=ast.List(elts=[call.args[0]], ctx=ast.Load()))
    elif func.attr == "extend" and len(call.args) == 1 and not call.keywords:
        stmt = ast.AugAssign(target=target, op=ast.Add(), value=call.args[0])
    else:
        stmt = ast.Assign(targets=[target], value=call)
    return ast.copy_location(ast.fix_missing_locations(ast.copy_location(stmt, call)), call)


def _passed(condition):
    """The negation of an earlier raise's condition, marked as such (see ``Walker.record``)."""
    return dict(condition, passed=True) if isinstance(condition, dict) else condition


def _unmarked(condition):
    return {k: v for k, v in condition.items() if k != "passed"} if isinstance(condition, dict) and "passed" in condition else condition


def _fold_loops(conditions: list) -> list:
    """The conditions of a raise inside ``for NAME in ITERABLE`` (after its marker) become
    "some item of ITERABLE meets them all"."""
    for index, condition in enumerate(conditions):
        if isinstance(condition, dict) and "loop" in condition:
            inner = _fold_loops(conditions[index + 1 :])
            body = inner[0] if len(inner) == 1 else {"op": "and", "args": inner} if inner else {"const": True}
            return conditions[:index] + [{"op": "any", "var": condition["loop"], "args": [condition["iter"], body]}]
    return conditions


def _substitute(expr, current: dict, ctx):
    """``expr`` read after the assignments so far: each field in ``current`` has its value."""
    if not current:
        return expr
    return _replace(expr, {json.dumps(ctx.field(ctx.cls, f), sort_keys=True): v for f, v in current.items()})


def _replace(expr, originals: dict, done: dict | None = None):
    """``expr`` with every argument node equal to a key of ``originals`` (JSON) replaced by its
    value; subtrees without one are shared, not copied (a shared subtree is replaced once)."""
    done = {} if done is None else done
    if not isinstance(expr, dict):
        return expr
    if id(expr) in done:
        return done[id(expr)][1]
    result = expr
    if "arg" in expr:
        result = originals.get(json.dumps(expr, sort_keys=True), expr)
    elif "args" in expr:
        args = [_replace(a, originals, done) for a in expr["args"]]
        if not all(new is old for new, old in zip(args, expr["args"])):
            result = {**expr, "args": args}
    done[id(expr)] = (expr, result)  # (the original is kept alive so that its id stays its own)
    return result


def _guard(path: list):
    """The condition under which an assignment ran: its branch conditions, a condition that
    cannot be written being unknown (the guard is then false only where a known part is).
    None for an assignment that runs whatever the arguments."""
    # An earlier raise that did not fire holds wherever a later check is reached at all.
    path = [p for p in path if not (isinstance(p, dict) and p.get("passed"))]
    known = [p for p in path if p is not None]
    if not known:
        return None
    parts = [p if p is not None else {"unknown": "a condition on something else"} for p in path]
    return {"op": "and", "args": parts} if len(parts) > 1 else parts[0]


def _merge_locals(test, body: dict | None, orelse: dict | None) -> dict:
    """The locals after an ``if``: a name both branches leave alike keeps its value; one they
    set differently is ``test ? body : orelse`` (a branch that leaves does not count)."""
    if body is None and orelse is None:
        return {}
    if body is None or orelse is None:
        return dict(orelse if body is None else body)
    merged = {}
    for name in body.keys() & orelse.keys():
        if body[name] == orelse[name]:
            merged[name] = body[name]
        elif test is not None:
            merged[name] = {"op": "if", "args": [test, body[name], orelse[name]]}
    return merged


def _converts_dict(stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or not _is_self_attr(stmt.targets[0]):
        return False
    value = stmt.value
    return (
        isinstance(value, ast.Call)
        and any(k.arg is None and _is_self_attr(k.value) and k.value.attr == stmt.targets[0].attr for k in value.keywords)
    )


def _is_owner(node: ast.AST, owner: str) -> bool:
    return isinstance(node, ast.Name) and node.id == owner


def _leaves(body: list[ast.stmt]) -> str | None:
    """How the block leaves the function: "raise" or "return" as its last statement, "maybe"
    when a return is somewhere inside it (whether the code after runs is then unsure)."""
    if body and isinstance(body[-1], ast.Return):
        return "return"
    if any(isinstance(node, ast.Return) for stmt in body for node in ast.walk(stmt)):
        return "maybe"
    if body and isinstance(body[-1], ast.Raise):
        return "raise"
    return None


def _args_read_directly(expr) -> set:
    """The arguments ``expr`` reads, leaving out those read inside a local's value of
    ``create_engine_config`` (``_READ_IN_PLACE``)."""
    return {e["arg"] for e in _walk_expr(expr, skip=_READ_IN_PLACE) if isinstance(e, dict) and "arg" in e}


def _keys_read(expr) -> set:
    """``argument.key`` for each key of a dict argument the expression reads."""
    return {f"{node['arg']}.{node['key']}" for node in _walk_expr(expr) if isinstance(node, dict) and "arg" in node and "key" in node}


def _args_of(expr) -> set:
    return {e["arg"] for e in _walk_expr(expr) if isinstance(e, dict) and "arg" in e}


def _fields_read(expr, ctx: Context) -> set:
    """The names of the function's own fields the condition reads (as written in the source)."""
    # (An argument read inside a local of create_engine_config is not one of these fields.)
    arguments = _args_of(expr)
    return {key for key in _args_read_directly(expr)} | {
        e.get("key") for e in _walk_expr(expr) if isinstance(e, dict) and "key" in e
    } | {k for (cls, k), v in ctx.release.filled.items() if cls == ctx.cls and v in arguments}


def _walk_expr(expr, skip=()):
    """Every distinct node of ``expr`` once: the branches of long functions share their
    conditions, so the expressions are graphs whose paths are too many to walk one by one
    (a node in ``skip``, by identity, is left out with what it holds)."""
    seen: set = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if id(node) in seen or (isinstance(node, dict) and id(node) in skip):
            continue
        seen.add(id(node))
        yield node
        if isinstance(node, dict):
            stack.extend(reversed(node.get("args", ())))


def _post_init_context(release: Release, cls: str) -> Context:
    """The context ``cls.__post_init__`` is read in: a field it computes itself, neither an
    argument nor the class default (``world_size``, set to a product of sizes and then
    multiplied again on one branch), is followed through its assignments in order."""
    ctx = Context(release, cls)
    method = release.classes[cls].methods.get("__post_init__")
    if method is None:
        return ctx
    own = set()
    for node in ast.walk(method):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if _is_self_attr(target):
                own.add(target.attr)
                try:
                    ctx.locals[f"self.{target.attr}"] = ctx.field(cls, target.attr)
                except Untranslatable:
                    pass
    ctx.tracked = own
    return ctx


def _own_validator(ctx: Context, call: ast.Call) -> ast.FunctionDef | None:
    """The method of the object's own class a statement calls with no argument
    (``self._verify_with_expert_parallelism()``), where it raises."""
    info = ctx.release.classes.get(ctx.cls or "")
    func = call.func
    if info is None or call.args or call.keywords or not (isinstance(func, ast.Attribute) and _is_owner(func.value, ctx.owner)):
        return None
    method = info.methods.get(func.attr)
    if method is None or len(method.args.args) != 1 or not any(isinstance(n, ast.Raise) for n in ast.walk(method)):
        return None
    return method


def _called_by_own_methods(info: ClassInfo) -> set:
    """Methods another method of the class calls as ``self.name()``: their raises hold where
    the call runs (read there, with the model's facts), not on every start."""
    called = set()
    for function in info.methods.values():
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_owner(node.func.value, "self"):
                called.add(node.func.attr)
    return called


def _is_validator(function: ast.FunctionDef) -> bool:
    if function.name.startswith(VALIDATOR_PREFIXES):
        return True
    return any("model_validator" in ast.unparse(d) and "after" in ast.unparse(d) for d in function.decorator_list)


def extract(release: Release) -> list[dict]:
    checks: list[dict] = []
    for name, info in sorted(release.classes.items()):
        if not info.path.startswith("vllm/config/") and name != "EngineArgs":
            continue
        if not name.endswith("Config") and name != "EngineArgs":
            continue
        called = _called_by_own_methods(info) if _MODEL_MODE else set()
        for function in info.methods.values():
            wanted = _is_validator(function) or (name == "EngineArgs" and function.name == "create_engine_config")
            if not wanted or function.name in called:
                continue
            params = [a.arg for a in function.args.args[1:]]
            parameters = MODEL_PARAMETERS.get((name, function.name), {}) if _MODEL_MODE else {}
            if params and function.name not in ("__post_init__", "create_engine_config") and set(params) != set(parameters):
                continue  # a validator reading values passed in: not arguments
            ctx = _post_init_context(release, name) if function.name == "__post_init__" else Context(release, name)
            ctx.parameters = dict(parameters)
            walker = Walker(ctx, function, info.path, f"{name}.{function.name}")
            if function.name != "__post_init__" and "__post_init__" in info.methods:
                # pydantic runs ``__post_init__`` before the "after" validators: what it
                # assigns has been assigned when they run.
                first = Walker(_post_init_context(release, name), info.methods["__post_init__"], info.path, "")
                first.run()
                walker.prior = [(0, field, path) for _, field, path in first.assignments]
                walker.prior_values = [first.values.get((line, field)) for line, field, _ in first.assignments]
            checks += walker.run()
    checks += _llm_checks(release)
    checks += _serve_checks(release)
    checks += _speculator_checks(release)
    # EngineArgs rewrites arguments before it builds the configs: a check reading one it
    # may have rewritten is kept only where the rewrite did not run.
    return [check for check in (_guard_engine_rewrites(release, c) for c in checks) if check is not None]


def _llm_checks(release: Release) -> list[dict]:
    info = release.classes.get("LLM")
    if info is None or "__init__" not in info.methods:
        return []
    function = info.methods["__init__"]
    kwargs = function.args.kwarg.arg if function.args.kwarg else None
    if kwargs is None:
        return []
    ctx = Context(release, None, owner="self", kwargs=kwargs)
    found = Walker(ctx, function, info.path, "LLM.__init__").run()
    for check in found:
        check["llm_only"] = True
    return found


SERVE = "<vllm serve>"  # the context of ``vllm serve``'s parsed arguments


def _serve_checks(release: Release) -> list[dict]:
    """``validate_parsed_serve_args(args)``: ``vllm serve``'s own checks of its parsed options,
    run before the engine is built (``--enable-auto-tool-choice`` without
    ``--tool-call-parser``); they hold for ``vllm serve`` command lines only."""
    for path, module in sorted(release.modules.items()):
        if not path.startswith("vllm/entrypoints/"):
            continue
        for node in module.body:
            if isinstance(node, ast.FunctionDef) and node.name == "validate_parsed_serve_args" and node.args.args:
                ctx = Context(release, SERVE, owner=node.args.args[0].arg)
                found = Walker(ctx, node, path, "validate_parsed_serve_args").run()
                for check in found:
                    check["serve_only"] = True
                return found
    return []


# Builtins handed an object that only read it.
READ_ONLY_BUILTINS = frozenset({"getattr", "hasattr", "isinstance", "len", "type", "id", "repr", "str", "vars"})


def _callee_writes(release: Release, call: ast.Call, owner: str, visiting: frozenset = frozenset()) -> set | None:
    """The fields of the object handed to a call (``cls.verify_and_update_config(self)``) that
    the call may assign: every function of that name the release's modules define is taken as
    a callee (the one vLLM picks is looked up at run time), and each one's assignments to the
    parameter it gets the object as (``vllm_config.cache_config.x = ...`` writes
    ``cache_config``).  None where that cannot be told: no such function, or one that hands
    the object on again too deep."""
    name = call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id if isinstance(call.func, ast.Name) else None
    positions = [i for i, a in enumerate(call.args) if _is_owner(a, owner)]
    if name is None or len(positions) != 1 or any(_is_owner(k.value, owner) for k in call.keywords) or len(visiting) > 6:
        return None
    if name in visiting:
        return set()  # a callee already being read (hooks that call each other): its writes are counted there
    visiting = visiting | {name}
    callees = []
    for module in release.modules.values():
        for node in ast.walk(module):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                callees.append(node)
    if not callees:
        return None
    written: set = set()
    for function in callees:
        params = [a.arg for a in function.args.args]
        decorators = {ast.unparse(d) for d in function.decorator_list}
        skip = 0 if "staticmethod" in decorators or isinstance(call.func, ast.Name) else 1
        index = positions[0] + skip
        if index >= len(params):
            return None
        param = params[index]
        for node in ast.walk(function):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                base = target
                while isinstance(base, (ast.Attribute, ast.Subscript)) and not (isinstance(base, ast.Attribute) and _is_owner(base.value, param)):
                    base = base.value
                if isinstance(base, ast.Attribute) and _is_owner(base.value, param):
                    written.add(base.attr)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute):
                # ``vllm_config.compilation_config.custom_ops.append(...)``: a write too
                base = node.value.func.value
                while isinstance(base, ast.Attribute) and not _is_owner(base.value, param):
                    base = base.value
                if isinstance(base, ast.Attribute) and _is_owner(base.value, param) and node.value.func.attr in MUTATORS:
                    written.add(base.attr)
            if isinstance(node, ast.Call) and node is not function and any(_is_owner(a, param) for a in list(node.args) + [k.value for k in node.keywords]):
                if ast.unparse(node.func) in READ_ONLY_BUILTINS:
                    continue
                if ast.unparse(node.func) == "setattr":
                    return None
                inner = _callee_writes(release, node, param, visiting)
                if inner is None:
                    return None
                written |= inner
    return written


def _only_reads(release: Release, call: ast.Call, owner: str) -> bool:
    """A module function handed the namespace that assigns none of its attributes."""
    name = call.func.id if isinstance(call.func, ast.Name) else None
    for module in release.modules.values():
        for node in module.body:
            if isinstance(node, ast.FunctionDef) and node.name == name and node.args.args:
                param = node.args.args[0].arg
                for inner in ast.walk(node):
                    targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target] if isinstance(inner, (ast.AugAssign, ast.AnnAssign)) else []
                    if any(isinstance(t, ast.Attribute) and _is_owner(t.value, param) for t in targets):
                        return False
                    if (
                        isinstance(inner, ast.Call)
                        and ast.unparse(inner.func) not in ("getattr", "hasattr", "isinstance")
                        and any(isinstance(a, ast.Name) and a.id == param for a in inner.args)
                    ):
                        return False  # handed on: not followed
                return True
    return False


def _speculator_checks(release: Release) -> list[dict]:
    """Each speculative method's ``configure(cls, spec)``, under "the method is one of those
    whose config class is this one (or a subclass that keeps its ``configure``)"."""
    table = None
    for path, module in release.modules.items():
        if not path.startswith(SPEC_DIR):
            continue
        for stmt in module.body:
            target = stmt.target if isinstance(stmt, ast.AnnAssign) else (stmt.targets[0] if isinstance(stmt, ast.Assign) else None)
            if isinstance(target, ast.Name) and target.id == "_CONFIG_BY_METHOD" and isinstance(stmt.value, ast.Dict):
                table = {}
                for key, value in zip(stmt.value.keys, stmt.value.values):
                    if isinstance(key, ast.Constant) and isinstance(value, ast.Call) and len(value.args) == 2:
                        cls_name = literal(value.args[1])
                        if isinstance(cls_name, str):
                            table[key.value] = cls_name
    if not table or "SpeculativeConfig" not in release.dict_built:
        return []
    found = []
    post_init = release.classes["SpeculativeConfig"].methods.get("__post_init__")
    method_value = _inferred_method(release, post_init) or {"arg": release.dict_built["SpeculativeConfig"], "key": "method"}
    for cls_name in sorted(set(table.values())):
        info = release.classes.get(cls_name)
        if info is None:
            continue
        for name in ("default_model", "configure"):
            owner_cls = info
            while owner_cls is not None and name not in owner_cls.methods:
                owner_cls = next((release.classes[b] for b in owner_cls.bases if b in release.classes), None)
            if owner_cls is None:
                continue
            function = owner_cls.methods[name]
            if len(function.args.args) != 2:
                continue
            owner = function.args.args[1].arg
            methods = sorted(m for m, c in table.items() if c == cls_name)
            ctx = Context(release, "SpeculativeConfig", owner=owner)
            method = {"op": "in", "args": [method_value, {"const": methods}]}
            extra = [method]
            if name == "default_model":
                # ``SpeculativeConfig.__post_init__`` asks the method's class for a draft only
                # where none is given and the number of tokens is:
                # ``if self.model is None and (self.num_speculative_tokens is not None or ...)``.
                call = _default_model_guard(post_init, owner) if post_init is not None else None
                if call is None:
                    continue
                try:
                    extra.append(ctx.translate(call))
                except Untranslatable:
                    continue
            for check in Walker(ctx, function, owner_cls.path, f"{owner_cls.name}.{name}", extra=extra).run():
                if check not in found:
                    found.append(check)
    return found


def _inferred_method(release: Release, post_init: ast.FunctionDef | None) -> dict | None:
    """The speculative method as ``SpeculativeConfig.__post_init__`` has it where it looks up
    the method's class (``get_method_config_class(self)``): the one written, or the one it infers
    (no method and no model: ``draft_model``; the MTP aliases: ``mtp``)."""
    if post_init is None:
        return None
    line = next(
        (
            stmt.lineno
            for stmt in post_init.body
            for node in ast.walk(stmt)
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "get_method_config_class"
        ),
        None,
    )
    if line is None:
        return None
    walker = Walker(_post_init_context(release, "SpeculativeConfig"), post_init, "", "SpeculativeConfig.__post_init__")
    walker.stop_at = line
    walker.run()
    return (walker.locals_at_stop or {}).get("self.method")


def _default_model_guard(post_init: ast.FunctionDef, owner: str) -> ast.expr | None:
    """The test of the ``if`` whose body calls ``<class>.default_model(self)`` in
    ``SpeculativeConfig.__post_init__`` (its ``or`` parts that are calls left unknown), read
    with the configure function's parameter in place of ``self``."""
    for node in ast.walk(post_init):
        if isinstance(node, ast.If) and any(
            isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "default_model"
            for stmt in node.body
            for inner in ast.walk(stmt)
        ):
            test = ast.parse(ast.unparse(node.test), mode="eval").body
            for inner in ast.walk(test):
                if isinstance(inner, ast.Name) and inner.id == "self":
                    inner.id = owner
            return test
    return None


def _keys_set(release: Release, function: ast.FunctionDef) -> dict:
    """(line, argument) -> (key, value) for each ``self.<dict argument>.<key> = <value>`` of an
    EngineArgs method whose value is written in arguments (``{"const": True}``)."""
    found = {}
    built = set(release.dict_built.values())
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Attribute) and _is_self_attr(target.value) and target.value.attr in built:
                try:
                    value = Context(release, "EngineArgs").translate(node.value)
                except Untranslatable:
                    continue
                found[(node.lineno, target.value.attr)] = (target.attr, value)
    return found


def _guard_engine_rewrites(release: Release, check: dict) -> dict | None:
    engine = release.engine
    guards = []
    # (create_speculative_config's merge of --spec-* into speculative_config is read as such.)
    for name in ("__post_init__", "create_engine_config"):
        function = engine.methods.get(name)
        if function is None:
            continue
        if check["function"] == f"EngineArgs.{name}":
            continue  # its own assignments were read in order
        # A local of create_engine_config was read at its line, its rewrites before included.
        used = _args_read_directly(check["when"]) if name == "create_engine_config" else _args_of(check["when"])
        used = used | _keys_read(check["when"])
        walker = Walker(Context(release, "EngineArgs"), function, "", name)
        walker.run()
        keys_set = _keys_set(release, function) if _MODEL_MODE else {}
        for line, field, path in walker.assignments:
            if (line, field) in keys_set and _guard(path) is not None:
                # ``if self.enable_return_routed_experts: self.aux_output_config.enable_return_routed_experts
                # = True``: the key is that value where the branch ran.
                key, value = keys_set[(line, field)]
                node = {"arg": field, "key": key}
                check = dict(check, when=_replace(check["when"], {json.dumps(node, sort_keys=True): {"op": "if", "args": [_guard(path), value, node]}}))
                continue
            if field in used:
                guard = _guard(path)
                if guard is None:
                    if DEBUG:
                        print(f"rewritten {check['function']}:{check['line']}: {field} in EngineArgs.{name}", file=sys.stderr)
                    return None
                guards.append({"op": "not", "args": [guard]})
    if guards:
        check = dict(check, when={"op": "and", "args": [check["when"], *guards]})
    return check


# ---------------------------------------------------------------------------------------------


def arguments_of(release: Release, checks: list[dict]) -> dict:
    used = set()
    for check in checks:
        used |= _args_of(check["when"])
        for field in check["fields"]:
            used |= _args_of(field["expr"]) if field["expr"] else set()
    table = {}
    for name in sorted(used):
        default = release.defaults.get(name, release.frontend.get(name, release.field_default("AsyncEngineArgs", name)))
        entry = {"type": release.arg_type(name)}
        if default is not UNDEFINED:
            entry["default"] = default
        table[name] = entry
    keys = {}
    for check in checks:
        for expr in _walk_expr(check["when"]):
            if isinstance(expr, dict) and "key" in expr:
                cls = next(c for c, a in release.dict_built.items() if a == expr["arg"])
                *holders, last = expr["key"].split(".")
                for holder in holders:
                    cls = _held_config(release, cls, holder) or cls
                default = release.field_default(cls, last)
                keys.setdefault(expr["arg"], {})[expr["key"]] = None if default is UNDEFINED else {"default": default}
    return {"arguments": table, "keys": keys, "shortcuts": {"speculative_config": release.spec_aliases}}


def _intern(expr, nodes: list, seen: dict, done: dict | None = None):
    """Operations are stored once per release (``nodes``) and referred to by index: the
    negated branches of long functions repeat the same conditions many times."""
    if not isinstance(expr, dict) or "op" not in expr:
        return expr
    done = {} if done is None else done
    if id(expr) in done:
        return done[id(expr)][1]
    node = {**{k: v for k, v in expr.items() if k != "args"}, "args": [_intern(a, nodes, seen, done) for a in expr["args"]]}
    key = json.dumps(node, sort_keys=True)
    if key not in seen:
        seen[key] = len(nodes)
        nodes.append(node)
    done[id(expr)] = (expr, {"ref": seen[key]})
    return done[id(expr)][1]


def _model_facts_of(expr) -> set:
    return {e["model"] for e in _walk_expr(expr) if isinstance(e, dict) and "model" in e}


def extract_with_model(release: Release, argument_checks: list[dict]) -> list[dict]:
    """The checks whose conditions read the model's config too: the validators read again with
    ``MODEL_FACTS`` as inputs (and the ModelConfig validators that take the parallel config);
    kept are the raises the argument checks do not hold whose conditions read a model fact."""
    global _MODEL_MODE
    _MODEL_MODE = True
    try:
        found = extract(release)
    finally:
        _MODEL_MODE = False
    held = {(c["file"], c["line"]) for c in argument_checks}
    kept = []
    for check in found:
        if not check["model_facts"]:
            continue
        # The argument checks hold this raise too (read without the model, its facts unknown):
        # the checker reports it once.
        check["argument_check"] = (check["file"], check["line"]) in held
        check["model_facts"] = sorted(_model_facts_of(check["when"]))
        kept.append(check)
    return kept


def _finish(release: Release, checks: list[dict]) -> dict:
    for check in checks:
        check.setdefault("llm_only", False)
        check.setdefault("serve_only", False)
    entry = {"release": release.version, **arguments_of(release, checks)}
    nodes: list = []
    for check in checks:
        check["when"] = _intern(check["when"], nodes, {})
    return {**entry, "nodes": nodes, "checks": checks}


def generate(versions: list[str]) -> dict:
    releases, with_model = {}, {}
    for version in versions:
        wheel = vllm_schema.find_wheel(version)
        release = Release(version, read_sources(wheel))
        checks = extract(release)
        model_checks = extract_with_model(release, checks)
        key = ".".join(version.split(".")[:2])
        releases[key] = _finish(release, checks)
        with_model[key] = _finish(release, model_checks)
    return {"generated_by": "tools/vllm_startup_checks.py", "releases": releases, "with_model": with_model}


def _key(version: str) -> tuple:
    return tuple(int(p) for p in version.split("-")[0].split(".")[:2])


def committed_versions() -> list[str]:
    """The releases the committed data holds (their full versions), oldest first."""
    if not (OUT / "index.json").exists():
        return []
    return [json.loads((OUT / f"{key}.json").read_text())["release"] for key in json.loads((OUT / "index.json").read_text())["releases"]]


def files_of(data: dict) -> dict[str, str]:
    """File name -> text: one file per release, and the index of releases with the newest
    release's messages (what the rules' docs quote)."""
    files = {}
    for key, entry in data["releases"].items():
        files[f"{key}.json"] = json.dumps({"generated_by": data["generated_by"], **entry}, separators=(",", ":"), default=repr) + "\n"
    ordered = sorted(data["releases"], key=lambda k: _key(k))
    messages = []
    if ordered:
        for item in data["releases"][ordered[-1]]["checks"]:
            text = " ".join(item["message"].format(*("{" + f["text"] + "}" for f in item["fields"])).split())
            if [item["file"], text] not in messages:
                messages.append([item["file"], text])
    for key, entry in data.get("with_model", {}).items():
        # Read by VLM407 only, and only for an engine whose model vllm-lint knows.
        files[f"{key}.model.json"] = json.dumps({"generated_by": data["generated_by"], **entry}, separators=(",", ":"), default=repr) + "\n"
    index = {"generated_by": data["generated_by"], "releases": ordered, "newest": ordered[-1] if ordered else None, "messages": messages}
    files["index.json"] = json.dumps(index, indent=1) + "\n"
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("versions", nargs="*", help="releases to read (default: those the committed data holds)")
    parser.add_argument("--add", metavar="VERSION", help="add one release (e.g. 0.33.0) to the committed ones")
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed files differ")
    args = parser.parse_args(argv)
    versions = args.versions or committed_versions() or list(DEFAULT_RELEASES)
    if args.add:
        versions = [v for v in versions if _key(v) != _key(args.add)] + [args.add]
    versions = sorted(versions, key=_key)
    data = generate(versions)
    files = files_of(data)
    if args.check:
        stale = [name for name, text in files.items() if not (OUT / name).exists() or (OUT / name).read_text() != text]
        stale += [p.name for p in OUT.glob("*.json") if p.name not in files]
        if stale:
            print(f"{OUT}: {', '.join(sorted(stale))} out of date: run python tools/vllm_startup_checks.py", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for stale in OUT.glob("*.json"):
        if stale.name not in files:
            stale.unlink()
    for name, text in files.items():
        (OUT / name).write_text(text)
    print(f"wrote {OUT}: " + ", ".join(f"{k}: {len(v['checks'])} checks" for k, v in data["releases"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
