"""Differential test of the engine rules against vLLM's own validation code.

    python tests/oracle/vllm_oracle.py                        # every supported release
    python tests/oracle/vllm_oracle.py --vllm-version 0.35.0  # bring in a new release
    tox -e vllm-oracle

For each vLLM release the oracle takes the wheel (``$VLLM_LINT_WHEELS``, a
folder list, or the cache folder ``$VLLM_LINT_CACHE/wheels``, default
``~/.cache/vllm-lint/wheels``; else ``pip download --no-deps vllm==X`` into the
cache), reads ``vllm/config/vllm.py`` out of it and extracts, with ``ast``, the
methods of ``VllmConfig`` that decide whether an engine with replay starts:
``_verify_sampling_replay_config``, ``_verify_trace_replay_config``,
``_validate_batch_sharded_sampling``, the ``use_v2_model_runner`` property and
every ``self.<method>`` they reach (``_get_v2_model_runner_unsupported_features``
and its helpers), plus the module-level functions and constants those use.
They run against plain stand-in objects that have exactly the attributes vLLM
reads; an attribute the oracle does not model is an error that names it, which
is how a new release tells what it started to read.  Nothing of vLLM is kept.

Every combination of the replay-relevant settings (mask, ``logprobs_mode``,
speculative decoding, logits processors, diffusion through
``hf_overrides={"canvas_length": ...}``, batch-sharded sampling with tp=2,
trace replay, ``VLLM_USE_V2_MODEL_RUNNER``) is judged twice by vLLM:

* as vLLM runs: the first error raised, in ``VllmConfig.__post_init__``'s order
  (replay, trace replay, batch-sharded sampling).  A keyword the release's
  ``EngineArgs`` does not have is a ``TypeError`` before any of them (VLM301);
* with every ``raise`` in the three validators turned into a record, so each
  precondition is evaluated on its own: the set of everything vLLM rejects.

vLLM's messages are mapped to VLM codes.  The same configuration is written as
``LLM(...)`` code (and as a ``vllm serve`` command line when the command-line
front end is installed) and linted for the same release.  A configuration
agrees when vllm-lint's engine findings are exactly the rejected set (which
contains vLLM's first error).  Disagreements are reported per release; the exit
code is 1 when there is any.
"""

from __future__ import annotations

import argparse
import ast
import copy
import functools
import io
import itertools
import json
import os
import subprocess
import sys
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, fields
from pathlib import Path

SUPPORTED = ("0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0", "0.34.0")
VALIDATORS = ("_verify_sampling_replay_config", "_verify_trace_replay_config", "_validate_batch_sharded_sampling")
ENTRY_POINTS = (*VALIDATORS, "use_v2_model_runner")
MODEL = "Qwen/Qwen3-4B"  # a dense decoder: vLLM 0.28 defaults it to Model Runner V2

# vLLM's messages (substrings) and the rule that predicts each.
MESSAGES = (
    ("sampling distribution replay requires Model Runner V2", "VLM101"),
    ("sampling distribution replay does not support speculative decoding", "VLM102"),
    ("sampling distribution replay with speculative decoding requires fixed verification boundaries", "VLM102"),
    ("sampling distribution replay does not support diffusion models", "VLM103"),
    ("sampling distribution replay does not support custom logits processors", "VLM104"),
    ("sampling distribution replay requires logprobs_mode='processed_logprobs'", "VLM105"),
    ("return_sampling_mask is set and the batch-sharded gather does not forward sampling masks", "VLM106"),
    ("trace replay requires Model Runner V2", "VLM107"),
)
# Rejections that are not about replay (no rule predicts them): other batch-sharded blockers.
OUT_OF_SCOPE = ("Batch-sharded sampling was explicitly enabled",)
ENGINE_CODES = {code for _, code in MESSAGES} | {"VLM301"}


class OracleGap(AttributeError):
    """vLLM read something the stand-ins do not model."""


# --------------------------------------------------------------------- wheels


def cache_dir() -> Path:
    return Path(os.environ.get("VLLM_LINT_CACHE") or Path.home() / ".cache" / "vllm-lint")


def find_wheel(version: str, offline: bool = False) -> Path:
    folders = [Path(p) for p in os.environ.get("VLLM_LINT_WHEELS", "").split(os.pathsep) if p]
    folders.append(cache_dir() / "wheels")
    for folder in folders:
        found = sorted(folder.glob(f"vllm-{version}-*.whl")) if folder.is_dir() else []
        if found:
            return found[0]
    if offline:
        raise SystemExit(f"no wheel for vllm {version} in {', '.join(map(str, folders))} (offline)")
    target = cache_dir() / "wheels"
    target.mkdir(parents=True, exist_ok=True)
    print(f"downloading vllm=={version} (no dependencies) into {target}", file=sys.stderr)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(target), f"vllm=={version}"],
        check=True,
    )
    return find_wheel(version, offline=True)


@dataclass
class Sources:
    version: str
    config: str  # vllm/config/vllm.py
    arg_utils: str
    envs: str
    speculative: str


def read_sources(version: str, offline: bool = False) -> Sources:
    wheel = find_wheel(version, offline)
    with zipfile.ZipFile(wheel) as archive:

        def text(name: str) -> str:
            return archive.read(name).decode("utf-8")

        return Sources(
            version,
            text("vllm/config/vllm.py"),
            text("vllm/engine/arg_utils.py"),
            text("vllm/envs.py"),
            text("vllm/config/speculative.py"),
        )


# ---------------------------------------------------------------- stand-ins


class StandIn:
    """An object with exactly the attributes given; reading another is an OracleGap."""

    def __init__(self, _name: str, **attributes) -> None:
        object.__setattr__(self, "_name", _name)
        self.__dict__.update(attributes)

    def __getattr__(self, attribute: str):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        raise OracleGap(f"vLLM reads {self._name}.{attribute}, which the oracle does not model")


class _Logger:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class _Enum:
    def __init__(self, name: str, members: dict[str, int]) -> None:
        for member, value in members.items():
            setattr(self, member, (name, member, value))


COMPILATION_MODE = _Enum("CompilationMode", {"NONE": 0, "STOCK_TORCH_COMPILE": 1, "DYNAMO_TRACE_ONCE": 2, "VLLM_COMPILE": 3})
CUDAGRAPH_MODE = _Enum(
    "CUDAGraphMode", {"NONE": 0, "PIECEWISE": 1, "FULL": 2, "FULL_DECODE_ONLY": 3, "FULL_AND_PIECEWISE": 4}
)
PROVIDED = {
    "HAS_TRITON": True,
    "logger": _Logger(),
    "CompilationMode": COMPILATION_MODE,
    "CUDAGraphMode": CUDAGRAPH_MODE,
    "current_platform": StandIn(
        "current_platform",
        is_rocm=lambda: False,
        is_cuda=lambda: True,
        is_unspecified=lambda: False,
        is_cpu=lambda: False,
        is_xpu=lambda: False,
    ),
    "entry_points": lambda **kwargs: [],  # no logits-processor plugins installed
    "property": property,
    "cached_property": functools.cached_property,
    "lru_cache": functools.lru_cache,
    "cache": functools.cache,
}


# ------------------------------------------------------------ configurations

SPECULATIVE = {
    "none": None,
    "plain": {"method": "eagle3", "model": "org/eagle3-draft", "num_speculative_tokens": 3},
    "adaptive": {"method": "dspark", "model": "org/dspark-draft", "num_speculative_tokens": 4, "enable_adaptive_verification": True},
    "ngram": {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4},
    "suffix": {"method": "suffix", "num_speculative_tokens": 3},
    "draft_model": {"method": "draft_model", "model": "org/small-draft", "num_speculative_tokens": 3},
    "mtp": {"method": "mtp", "num_speculative_tokens": 1},
    "dflash": {"method": "dflash", "model": "org/dflash-draft", "num_speculative_tokens": 8},
    "custom_class": {"method": "custom_class", "model": "my_pkg.drafter:Proposer", "num_speculative_tokens": 2},
}
# vLLM re-detects a model-based method from the draft checkpoint (its name, its
# config.json architectures and model_type): ``draft_model`` and ``mtp`` may end up
# as any of these (speculative.py, e.g. 0.30:1306-1366).  Which one is not visible in
# the code, so only what vLLM rejects for every possible outcome is certain.
REDETECTED = {"draft_model", "mtp"}
REDETECTED_AS = ("eagle", "eagle3", "dflash", "dspark", "mtp", "medusa", "mlp_speculator", "draft_model")
# The draft checkpoint's config also decides whether vLLM 0.28 forces Model Runner V2
# and what later releases require of the runner (sliding-window dflash drafts, DFlash2
# candidate heads): vllm.py ``_dflash_needs_multi_kv_group``, ``_is_dflash2_draft``,
# ``_is_dflash_candidate_draft``.  Model-based methods are judged for each kind.
DRAFT_KINDS = {
    "plain": (["LlamaForCausalLM"], None),
    "sliding-window": (["LlamaForCausalLM"], ["sliding_attention", "full_attention"]),
    "candidate-head": (["DFlash2DraftModel"], None),
}
LOGPROBS_MODES = (None, "raw_logprobs", "raw_logits", "processed_logits", "processed_logprobs")
PROCESSORS = {"absent": None, "empty": [], "one": ["my_pkg.processors:NoRepeat"]}


@dataclass(frozen=True)
class Config:
    mask: bool
    logprobs_mode: str | None
    speculative: str
    processors: str
    diffusion: bool
    batch_sharded: bool
    trace: bool
    env: str | None  # VLLM_USE_V2_MODEL_RUNNER: None (unset), "0" or "1"

    def label(self) -> str:
        return ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))

    def engine_kwargs(self) -> dict:
        """The keyword arguments of ``LLM(...)`` (after the model), in a stable order."""
        kwargs: dict = {}
        if self.mask:
            kwargs["return_sampling_mask"] = True
        if self.logprobs_mode is not None:
            kwargs["logprobs_mode"] = self.logprobs_mode
        if SPECULATIVE[self.speculative] is not None:
            kwargs["speculative_config"] = SPECULATIVE[self.speculative]
        if PROCESSORS[self.processors] is not None:
            kwargs["logits_processors"] = PROCESSORS[self.processors]
        if self.diffusion:
            kwargs["hf_overrides"] = {"canvas_length": 256}
        if self.batch_sharded:
            kwargs["enable_batch_sharded_sampling"] = True
            kwargs["tensor_parallel_size"] = 2
        if self.trace:
            kwargs["enable_trace_replay"] = True
        return kwargs


def configurations() -> list[Config]:
    return [
        Config(*values)
        for values in itertools.product(
            (False, True), LOGPROBS_MODES, tuple(SPECULATIVE), tuple(PROCESSORS), (False, True), (False, True), (False, True), (None, "0", "1")
        )
    ]


# ------------------------------------------------------------------ vLLM side


class _RaiseToRecord(ast.NodeTransformer):
    """``raise E(msg)`` -> ``__oracle_record__(E(msg))``: evaluate every precondition."""

    def visit_Raise(self, node: ast.Raise):
        if node.exc is None:
            return node
        call = ast.Call(func=ast.Name("__oracle_record__", ast.Load()), args=[node.exc], keywords=[])
        return ast.copy_location(ast.Expr(call), node)


class _LocalImports(ast.NodeTransformer):
    """``from vllm.x import y`` (and importlib.metadata) inside a method -> the stand-in ``y``."""

    def visit_ImportFrom(self, node: ast.ImportFrom):
        if not (node.module or "").startswith(("vllm", "importlib")):
            return node
        assigns = []
        for alias in node.names:
            value = ast.Subscript(ast.Name("__oracle_provided__", ast.Load()), ast.Constant(alias.name), ast.Load())
            assigns.append(ast.copy_location(ast.Assign([ast.Name(alias.asname or alias.name, ast.Store())], value), node))
        return assigns


class VllmChecks:
    """One release's validators, compiled from its wheel, runnable on stand-ins."""

    def __init__(self, sources: Sources) -> None:
        self.version = sources.version
        tree = ast.parse(sources.config)
        self.filename = f"vllm-{sources.version}/vllm/config/vllm.py"
        config_class = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "VllmConfig")
        methods = {n.name: n for n in config_class.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        wanted = self._reached(methods, [name for name in ENTRY_POINTS if name in methods])
        self.validators = [name for name in VALIDATORS if name in methods]
        self.has_runner_choice = "use_v2_model_runner" in methods
        module_defs = self._module_level(tree, [methods[name] for name in wanted])
        self.engine_fields = self._engine_fields(sources.arg_utils)
        self.has_env = '"VLLM_USE_V2_MODEL_RUNNER":' in sources.envs
        self.speculative_source = sources.speculative
        self.classes = {mode: self._compile(module_defs, [methods[name] for name in wanted], mode) for mode in ("first", "all")}

    @staticmethod
    def _reached(methods: dict, start: list[str]) -> list[str]:
        reached: list[str] = []
        todo = list(start)
        while todo:
            name = todo.pop()
            if name in reached:
                continue
            reached.append(name)
            for node in ast.walk(methods[name]):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "self"
                    and node.attr in methods
                ):
                    todo.append(node.attr)
        return sorted(reached)

    @staticmethod
    def _free_names(nodes: list[ast.AST]) -> set[str]:
        import builtins

        free: set[str] = set()
        for function in nodes:
            bound = {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)}
            bound |= {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
            for node in ast.walk(function):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound:
                    if not hasattr(builtins, node.id):
                        free.add(node.id)
        return free

    def _module_level(self, tree: ast.Module, functions: list[ast.AST]) -> list[ast.stmt]:
        """Module-level functions and constants the methods use (transitively), in file order."""
        definitions: dict[str, ast.stmt] = {}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                definitions[node.name] = node
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                definitions[node.targets[0].id] = node
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                definitions[node.target.id] = node
        needed: list[str] = []
        todo = sorted(self._free_names(functions))
        while todo:
            name = todo.pop()
            if name in needed or name in PROVIDED or name == "envs":
                continue
            if name not in definitions:
                raise SystemExit(
                    f"vLLM {self.version}: the validators use {name!r}, which is neither defined in "
                    f"vllm/config/vllm.py nor provided by the oracle: teach tests/oracle/vllm_oracle.py about it"
                )
            needed.append(name)
            todo.extend(sorted(self._free_names([definitions[name]])))
        return [node for node in tree.body if any(node is definitions[name] for name in needed)]

    @staticmethod
    def _engine_fields(arg_utils: str) -> set[str]:
        tree = ast.parse(arg_utils)
        engine_args = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "EngineArgs")
        return {n.target.id for n in engine_args.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}

    def _compile(self, module_defs: list[ast.stmt], methods: list[ast.AST], mode: str):
        body = [copy.deepcopy(node) for node in methods]
        transformers: list[ast.NodeTransformer] = [_LocalImports()]
        for node in body:
            for transformer in transformers:
                transformer.visit(node)
            if mode == "all" and node.name in VALIDATORS:
                _RaiseToRecord().visit(node)
        klass = ast.ClassDef(name="VllmConfigUnderTest", bases=[ast.Name("StandIn", ast.Load())], keywords=[], body=body, decorator_list=[])
        defs = [_LocalImports().visit(copy.deepcopy(n)) for n in module_defs]
        module = ast.Module(body=defs + [klass], type_ignores=[])
        ast.fix_missing_locations(module)
        namespace = {"StandIn": StandIn, "__oracle_provided__": PROVIDED, **PROVIDED}
        exec(compile(module, self.filename, "exec"), namespace)
        return namespace

    def method_valid(self, name: str) -> bool:
        spec = SPECULATIVE[name]
        return spec is None or f'"{spec["method"]}"' in self.speculative_source

    def _instance(self, namespace: dict, config: Config, env: str | None, method: str | None = None, draft: str | None = None):
        spec = SPECULATIVE[config.speculative]
        speculative = None
        if spec is not None:
            method = method or spec["method"]
            speculative = StandIn(
                "speculative_config",
                method=method,
                model=spec.get("model"),
                num_speculative_tokens=spec["num_speculative_tokens"],
                enable_adaptive_verification=bool(spec.get("enable_adaptive_verification")),
                parallel_drafting=method in ("dflash", "dspark"),  # vLLM turns it on for these
                use_heterogeneous_vocab=False,
                draft_model_config=None if draft is None else StandIn(
                    "draft_model_config",
                    architectures=DRAFT_KINDS[draft][0],
                    hf_config=StandIn("draft_hf_config", layer_types=DRAFT_KINDS[draft][1], model_type="llama"),
                ),
                draft_lm_head_quantization=None,
                is_xpress=lambda: False,
            )
        trace = config.trace and "enable_trace_replay" in self.engine_fields
        batch = config.batch_sharded and "enable_batch_sharded_sampling" in self.engine_fields
        model = StandIn(
            "model_config",
            return_sampling_mask=config.mask,
            enable_trace_replay=trace,
            logprobs_mode=config.logprobs_mode or "raw_logprobs",
            logits_processors=PROCESSORS[config.processors],
            is_diffusion=config.diffusion,  # hf_config.canvas_length is not None
            max_logprobs=20,
            runner_type="generate",
            architectures=["Qwen3ForCausalLM"],
            architecture="Qwen3ForCausalLM",
            is_hybrid=False,
            is_attention_free=False,
            is_moe=False,
            use_mla=False,
            enable_prompt_embeds=False,
            is_multimodal_model=False,
            is_encoder_decoder=False,
            multimodal_config=None,
        )
        parallel = StandIn(
            "parallel_config",
            tensor_parallel_size=2 if batch else 1,
            pipeline_parallel_size=1,
            prefill_context_parallel_size=1,
            decode_context_parallel_size=1,
            distributed_executor_backend=None,
            enable_batch_sharded_sampling=True if batch else None,
            enable_dbo=False,
            use_ubatching=False,
            enable_elastic_ep=False,
        )
        envs = StandIn("envs", VLLM_USE_V2_MODEL_RUNNER=None if env is None else bool(int(env))) if self.has_env else StandIn("envs")
        namespace["envs"] = envs
        return namespace["VllmConfigUnderTest"](
            "vllm_config",
            model_config=model,
            speculative_config=speculative,
            parallel_config=parallel,
            scheduler_config=StandIn("scheduler_config", max_num_seqs=256, async_scheduling=False),
            compilation_config=StandIn(
                "compilation_config",
                mode=COMPILATION_MODE.VLLM_COMPILE,
                pass_config=StandIn("pass_config", enable_sp=False),
                cudagraph_mode=CUDAGRAPH_MODE.FULL_AND_PIECEWISE,
            ),
            cache_config=StandIn("cache_config", kv_sharing_fast_prefill=False, mamba_cache_mode="none"),
            attention_config=StandIn("attention_config", hisparse_config=None),
            lora_config=None,
            watermark_config=None,
        )

    def unknown_keywords(self, config: Config) -> list[str]:
        return [name for name in config.engine_kwargs() if name not in self.engine_fields]

    def variants(self, config: Config) -> list[tuple[str | None, str | None]]:
        """(final method, draft checkpoint kind) pairs vLLM may see for the written configuration."""
        spec = SPECULATIVE[config.speculative]
        if spec is None:
            return [(None, None)]
        methods = [spec["method"]]
        if spec["method"] in REDETECTED:
            methods = [m for m in REDETECTED_AS if f'"{m}"' in self.speculative_source]
        if "model" not in spec and spec["method"] != "mtp":
            return [(method, None) for method in methods]  # ngram, suffix: no draft model
        return [(method, draft) for method in methods for draft in DRAFT_KINDS]

    def first_failure(self, config: Config, method: str | None = None, draft: str | None = None) -> str | None:
        if self.unknown_keywords(config):
            return "TypeError: unexpected keyword argument"
        namespace = self.classes["first"]
        instance = self._instance(namespace, config, config.env, method, draft)
        for name in self.validators:
            try:
                getattr(instance, name)()
            except ValueError as error:
                return str(error)
        return None

    def all_rejections(self, config: Config, method: str | None = None, draft: str | None = None) -> list[str]:
        found: list[str] = []
        if self.unknown_keywords(config):
            found.append("TypeError: unexpected keyword argument")
        namespace = self.classes["all"]
        namespace["__oracle_record__"] = lambda error: found.append(str(error))
        instance = self._instance(namespace, config, config.env, method, draft)
        for name in self.validators:
            getattr(instance, name)()
        return found


def codes_of(message: str) -> tuple[set[str], bool]:
    """The rules a vLLM message corresponds to; False when the message is unknown."""
    if message.startswith("TypeError"):
        return {"VLM301"}, True
    codes = {code for text, code in MESSAGES if text in message}
    if codes or any(text in message for text in OUT_OF_SCOPE):
        return codes, True
    return set(), False


# ------------------------------------------------------------------ lint side


def python_source(config: Config) -> str:
    lines = ["import os", "", "from vllm import LLM", ""]
    if config.env is not None:
        lines.append(f'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "{config.env}"')
    arguments = [json.dumps(MODEL)] + [f"{name}={value!r}" for name, value in config.engine_kwargs().items()]
    lines.append("llm = LLM(" + ", ".join(arguments) + ")")
    return "\n".join(lines) + "\n"


def shell_source(config: Config) -> str | None:
    words = ["vllm", "serve", MODEL]
    for name, value in config.engine_kwargs().items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, list):
            if not value:
                continue  # nargs="+": an empty list cannot be written; the same as absent
            words += [flag, *value]
        elif isinstance(value, dict):
            words += [flag, "'" + json.dumps(value) + "'"]
        else:
            words += [flag, str(value)]
    prefix = f"VLLM_USE_V2_MODEL_RUNNER={config.env} " if config.env is not None else ""
    return "#!/bin/sh\n" + prefix + " ".join(words) + "\n"


def lint_codes(config: Config, version, front_end: str) -> set[str]:
    from vllm_lint.lint import lint_python_bytes

    if front_end == "python":
        result = lint_python_bytes("-", python_source(config).encode(), lambda _p: (version, "oracle"))
    else:
        from vllm_lint.commandline import lint_command_file

        result = lint_command_file("serve.sh", shell_source(config).encode(), "shell", lambda _p: (version, "oracle"))
    if result.error is not None:
        return {f"error: {result.error.reason}"}
    return {f.code for f in result.findings if f.code in ENGINE_CODES or f.code.startswith("VLM1")}


# ---------------------------------------------------------------- comparison


@dataclass
class Outcome:
    version: str
    checked: int
    skipped: int
    agree: int
    disagreements: dict  # (front end, vLLM set, lint set) -> [configs]
    unknown_messages: Counter
    first_failures: Counter
    redetected: int = 0


def front_ends() -> list[str]:
    import importlib.util

    ends = ["python"]
    if importlib.util.find_spec("vllm_lint.commandline") is not None:
        ends.append("command-line")
    return ends


def compare(version: str, offline: bool = False, limit: int | None = None) -> Outcome:
    from vllm_lint.versions import Version

    checks = VllmChecks(read_sources(version, offline))
    target = Version.parse(version)
    disagreements: dict = defaultdict(list)
    unknown: Counter = Counter()
    firsts: Counter = Counter()
    checked = skipped = agree = redetected = 0
    ends = front_ends()
    for config in configurations()[:limit]:
        if not checks.method_valid(config.speculative):
            skipped += 1  # the release's SpeculativeConfig rejects the method first
            continue
        variants = checks.variants(config)
        expected_sets: list[set[str]] = []
        first_sets: list[set[str]] = []
        try:
            for method, draft in variants:
                first = checks.first_failure(config, method, draft)
                expected = set()
                for message in checks.all_rejections(config, method, draft):
                    codes, known = codes_of(message)
                    if not known:
                        unknown[message] += 1
                    expected |= codes
                expected_sets.append(expected)
                first_sets.append(codes_of(first)[0] if first else set())
        except OracleGap as gap:
            raise SystemExit(f"vLLM {version}: {gap}; teach tests/oracle/vllm_oracle.py about it") from None
        # Certain: rejected whatever the draft checkpoint turns out to be.
        expected = set.intersection(*expected_sets)
        first_codes = set.intersection(*first_sets)
        if len(variants) > 1:
            redetected += 1
        if first_codes:
            label = ", ".join(sorted(first_codes))
        elif any(first_sets):
            label = "depends on the draft checkpoint"
        else:
            label = "accepted" if first is None else "not a replay rule"
        firsts[label] += 1
        checked += 1
        ok = True
        for end in ends:
            found = lint_codes(config, target, end)
            if found != expected or not first_codes <= found:
                disagreements[(end, tuple(sorted(expected)), tuple(sorted(found)))].append(config)
                ok = False
        agree += ok
    return Outcome(version, checked, skipped, agree, dict(disagreements), unknown, firsts, redetected)


def report(outcome: Outcome, examples: int = 2) -> str:
    lines = [
        f"vLLM {outcome.version}: {outcome.checked} configurations, {outcome.agree} agree, "
        f"{outcome.checked - outcome.agree} disagree ({outcome.skipped} skipped: speculative method unknown to the release; "
        f"{outcome.redetected} judged for every draft checkpoint they may load)",
        "  vLLM's first error: " + ", ".join(f"{k} {v}" for k, v in sorted(outcome.first_failures.items())),
    ]
    for message, count in outcome.unknown_messages.most_common():
        lines.append(f"  UNMAPPED vLLM message ({count}x): {message}")
    for (end, expected, found), configs in sorted(outcome.disagreements.items(), key=lambda item: -len(item[1])):
        lines.append(
            f"  [{end}] vLLM rejects {{{', '.join(expected) or 'nothing'}}}, vllm-lint reports "
            f"{{{', '.join(found) or 'nothing'}}}: {len(configs)} configurations, e.g."
        )
        for config in configs[:examples]:
            lines.append(f"      {config.label()}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vllm-version", action="append", metavar="X.Y.Z", help=f"default: {', '.join(SUPPORTED)}")
    parser.add_argument("--offline", action="store_true", help="never download; use cached wheels only")
    parser.add_argument("--limit", type=int, help="only the first N configurations (a quick look)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="versions checked in parallel")
    parser.add_argument("--examples", type=int, default=2, help="configurations shown per disagreement")
    args = parser.parse_args(argv)
    versions = args.vllm_version or list(SUPPORTED)
    for version in versions:  # download first, in this process
        find_wheel(version, args.offline)
    worker = functools.partial(compare, offline=True, limit=args.limit)
    if args.jobs > 1 and len(versions) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(worker, versions))
    else:
        outcomes = [worker(version) for version in versions]
    failed = False
    for outcome in outcomes:
        print(report(outcome, args.examples))
        failed |= outcome.agree != outcome.checked or bool(outcome.unknown_messages)
    print(f"\nfront ends compared: {', '.join(front_ends())}")
    print("RESULT: " + ("disagreements found" if failed else "vllm-lint agrees with vLLM on every configuration"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
