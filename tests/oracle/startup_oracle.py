"""Differential test of the start-up checks (VLM401-VLM406) against vLLM's own engine.

    python tests/oracle/startup_oracle.py [--release 0.34] [--count N] [--seed S] [--source DIR]

Run with a Python environment where vLLM is installed with a CPU build of torch (the
``startup-oracle`` tox environment builds one for 0.34 from ``$VLLM_LINT_WHEELS``).  Another
release is checked with its own data (``startup_data/<release>.json``) and its own vLLM: the
one installed, or the ``vllm`` package unpacked from that release's wheel into ``--source``
(``$VLLM_REAL_SOURCE``), put first on ``sys.path`` (the oracle stops when the vLLM it
imports is not the release asked for).  For each
configuration generated over the engine arguments the start-up checks read (their
values, the values the checks compare with, and values nearby), in one process:

* vLLM: ``LLM``'s own check of its ``**kwargs`` (the lines of ``LLM.__init__`` before the
  engine is built, run by calling ``LLM.__init__`` on an object whose ``LLMEngine`` factory
  stops there), then ``EngineArgs(model=<a tiny local Llama>, **kwargs).create_engine_config()``;
* vllm-lint: ``LLM(MODEL, **kwargs)`` written as a Python file and linted (every rule: the
  start-up checks, and the schema's choices and bounds, VLM303/VLM304).

The tiny Llama is a folder the oracle writes (``config.json`` and a word-level tokenizer
made locally): nothing is downloaded.  vLLM runs on CPU with its CUDA platform emulating
an 8-GPU H100 node.  The patches, all of them (none changes a validation rule):

1. the compiled op libraries (``vllm._C``, ``vllm.vllm_flash_attn._vllm_fa2_C``, ...) are empty
   modules; in their ``torch.ops`` namespaces a capability query (``*support*``) answers ``False`` and
   no other op exists;
2. the current platform is vLLM's ``CudaPlatform``;
3. the device queries answer for 8 H100s: ``torch.cuda.device_count``/``is_available``, the
   platform's ``device_count``, ``get_device_capability`` (9.0), ``get_device_name``,
   ``get_device_total_memory`` (80 GiB), ``is_fully_connected``.

A rejection is "decidable from the arguments" when the same configuration without the
tiny model's own limits would still fail: the message does not name the model, its
architecture, its config or the hardware (see ``MODEL_WORDS``).  Reported: how many
configurations vLLM rejects, how many of those are decidable, how many vllm-lint flags
(recall), and every configuration vLLM accepts that vllm-lint flags (false positives,
which must be 0).
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import json
import os
import random
import re
import sys
import tempfile
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

class _Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        tail = name.rsplit(".", 1)[-1]
        if (name.startswith("vllm.") and tail.startswith("_") and (tail == "_C" or "_C" in tail)) or name == "vllm.cumem_allocator":
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__file__ = "<stub>"
        return module

    def exec_module(self, module):
        return None


def prepare_vllm(source: str | None = None):
    if source:
        sys.path.insert(0, source)
    sys.meta_path.insert(0, _Stubs())
    for key, value in {"VLLM_LOGGING_LEVEL": "CRITICAL", "VLLM_NO_USAGE_STATS": "1", "VLLM_DO_NOT_TRACK": "1", "HF_HUB_OFFLINE": "1"}.items():
        os.environ.setdefault(key, value)
    import torch

    class Kernels:
        """An op namespace of the stubbed libraries: every kernel query answers "unsupported"."""

        def __init__(self, name):
            self.name = name

        def __getattr__(self, attr):
            if "support" not in attr:
                raise AttributeError(attr)  # the op is not there (``hasattr`` probes)
            return lambda *args, **kwargs: False

    for namespace in ("_C", "_moe_C", "_C_cache_ops", "_C_custom_ar", "_rocm_C", "_vllm_fa2_C", "_vllm_fa3_C"):
        torch.ops.__dict__[namespace] = Kernels(namespace)
    torch.cuda.device_count = lambda: 8
    torch.cuda.is_available = lambda: True
    import vllm.platforms as platforms
    from vllm.platforms import cuda
    from vllm.platforms.interface import DeviceCapability

    platform_cls = cuda.CudaPlatform
    platform_cls.get_device_capability = classmethod(lambda cls, device_id=0: DeviceCapability(9, 0))
    platform_cls.get_device_name = classmethod(lambda cls, device_id=0: "NVIDIA H100 80GB HBM3")
    platform_cls.get_device_total_memory = classmethod(lambda cls, device_id=0: 80 * 2**30)
    platform_cls.is_fully_connected = classmethod(lambda cls, ids: True)
    platform_cls.device_count = classmethod(lambda cls: 8)
    platforms._current_platform = platform_cls()


def tiny_llama(folder: Path, config: dict | None = None, files: dict | None = None, special: dict | None = None) -> Path:
    """A two-layer Llama config (or ``config``, a real model's) and a word-level tokenizer,
    written locally; ``files``: other JSON files of the checkpoint folder; ``special``: named
    special tokens the model's processor looks up (``{"image_token": "<image_soft_token>"}``)."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2, **{f"w{i}": i + 3 for i in range(509)}}
    for token in (special or {}).values():
        vocab.setdefault(token, len(vocab))
    config = config or {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
        "intermediate_size": 128, "num_attention_heads": 4, "num_key_value_heads": 4,
        "num_hidden_layers": 2, "vocab_size": len(vocab), "max_position_embeddings": 4096,
        "torch_dtype": "bfloat16", "rms_norm_eps": 1e-5, "bos_token_id": 1, "eos_token_id": 2,
    }
    (folder / "config.json").write_text(json.dumps(config))
    for name, content in (files or {}).items():
        (folder / name).write_text(json.dumps(content))
    added = [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
             for t in (special or {}).values()]
    tokenizer = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": None, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None, "decoder": None,
        "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "<unk>"},
    }
    (folder / "tokenizer.json").write_text(json.dumps(tokenizer))
    tokenizer_config = {"tokenizer_class": "PreTrainedTokenizerFast", "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
    if special:
        tokenizer_config["extra_special_tokens"] = special
    (folder / "tokenizer_config.json").write_text(json.dumps(tokenizer_config))
    return folder


# Real models' configurations, written into a local checkpoint folder (with the tiny
# tokenizer): the whole configs of ``model_configs.json`` (``tools/known_models.py --oracle``,
# which records the public repository, commit and file of each), and an AWQ checkpoint
# composed here.  The multimodal Gemma 3 (``gemma-3-4b-it``) also writes the checkpoint's
# preprocessor and processor configs and names Gemma 3's image tokens in the tokenizer; vLLM
# inspects its architecture by importing the image processor, which needs torchvision: it
# runs beside a build of torch that torchvision loads with (docs/development.md).
MODEL_CONFIGS = Path(__file__).resolve().parent / "model_configs.json"
# AutoAWQ's quantization_config, as an AWQ checkpoint of Qwen3-8B (Qwen/Qwen3-8B-AWQ) writes it.
AWQ = {"bits": 4, "group_size": 128, "modules_to_not_convert": None, "quant_method": "awq", "version": "gemm", "zero_point": True}
# AutoGPTQ's quantization_config and quantize_config.json, as a 4-bit GPTQ checkpoint writes them.
GPTQ = {"bits": 4, "damp_percent": 0.01, "desc_act": False, "group_size": 128, "model_file_base_name": None,
        "model_name_or_path": None, "quant_method": "gptq", "static_groups": False, "sym": True, "true_sequential": True}


def model_folder(name: str, root: Path) -> Path:
    """The checkpoint folder of one of the oracle's models ("tiny-llama" and the real ones)."""
    if name == "tiny-llama":
        return tiny_llama(root / "tiny-llama")
    configs = json.loads(MODEL_CONFIGS.read_text())
    if name == "qwen3-8b-awq":
        config = dict(configs["qwen3-8b"]["config"], quantization_config=AWQ)
        return tiny_llama(root / name, config, {"quant_config.json": {"zero_point": True, "q_group_size": 128, "w_bit": 4, "version": "GEMM"}})
    if name == "qwen3-8b-gptq":
        config = dict(configs["qwen3-8b"]["config"], quantization_config=GPTQ)
        return tiny_llama(root / name, config, {"quantize_config.json": {k: v for k, v in GPTQ.items() if k != "quant_method"}})
    entry = configs[name]
    return tiny_llama(root / name, entry["config"], entry.get("files"), entry.get("special_tokens"))


MODELS = ("tiny-llama", "llama-3.1-8b", "qwen3-30b-a3b", "deepseek-v2-lite", "gemma-3-1b-it", "qwen3-8b-awq", "qwen3-8b-gptq", "gemma-3-4b-it")


def model_arguments() -> dict:
    """The arguments whose rejection depends on the model, and values on both sides of it."""
    return {
        "max_model_len": [1024, 4096, 8192, 32768, 40960, 40961, 65536, 131072, 131073, 163840, 163841, 1048576],
        "tensor_parallel_size": [1, 2, 3, 4, 6, 8],
        "decode_context_parallel_size": [1, 2, 4, 8],
        "enable_expert_parallel": [True, False],
        "enable_return_routed_experts": [True],
        "quantization": ["gptq_marlin", "gptq", "awq", "awq_marlin", "auto_awq", "moe_wna16", "quark", "fp8", "modelopt", "compressed-tensors", "inc", "bitsandbytes"],
        "default_mm_loras": [{"image": "/adapters/vision"}],
        # multimodal options: taken by the multimodal Gemma 3, and left unused by a text-only model
        "limit_mm_per_prompt": [{"image": 2}, {"image": 0}, {"video": 1}],
        "mm_processor_kwargs": [{"do_pan_and_scan": True}],
        "language_model_only": [True],
        "enable_mm_embeds": [True],
        "enable_lora": [True],
        "disable_sliding_window": [True],
    }


# Messages about the hardware or the environment: no argument nor model fact decides them.
HARDWARE_WORDS = ("GPU", "gpu", "device", "CUDA", "cuda", "platform", "compute capability", "is not installed", "No module", "import")


# Messages about the model, its checkpoint or the hardware: not decidable from the arguments.
MODEL_WORDS = (
    "model", "architecture", "hf_config", "checkpoint", "GPU", "gpu", "device", "CUDA", "cuda", "platform",
    "compute capability", "MoE", "moe", "expert", "is not installed", "No module", "import",
    "tokenizer",
)


# Phrases with a word of MODEL_WORDS that name an argument, not the model: a speculative
# method that needs a draft checkpoint given without one (``speculative_config["model"]``),
# redundant experts asked for without EPLB (``eplb_config["num_redundant_experts"]``).
ARGUMENT_PHRASES = ("provided but without speculative model", "num_redundant_experts")


def argument_space(release: dict, rng: random.Random) -> dict:
    """Values for the arguments the checks read: each argument's constants in the checks,
    its default, and neighbours; plus the arguments of vLLM's common launches."""
    values: dict[str, set] = {}

    def constants(expr, into):
        if isinstance(expr, dict):
            if "const" in expr:
                into.append(expr["const"])
            for arg in expr.get("args", ()):
                constants(arg, into)

    def pairs(node):
        """(argument, constants) it is compared with, in one operation of the release."""
        if node.get("op") in ("==", "!=", "<", "<=", ">", ">=", "in", "not in") and len(node["args"]) == 2:
            left, right = node["args"]
            if "arg" in left and "key" not in left:
                found = []
                constants(right, found)
                yield left["arg"], found

    for node in release["nodes"]:
        for name, found in pairs(node):
            bucket = values.setdefault(name, set())
            for value in found:
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, (bool, str)) or item is None:
                        bucket.add(item)
                    elif isinstance(item, (int, float)):
                        bucket.update({item, item + 1, max(item - 1, 0)})
    table = {}
    for name, entry in release["arguments"].items():
        if name.startswith("_"):
            continue
        kind = entry["type"]
        bucket = set(values.get(name, set()))
        if kind == "bool":
            bucket = {True, False}
        elif kind == "int":
            bucket = {v for v in bucket if isinstance(v, int) and not isinstance(v, bool)} | {1, 2, 4}
        elif kind == "str":
            bucket = {v for v in bucket if isinstance(v, str)}
        else:
            continue
        if bucket:
            table[name] = sorted(bucket, key=repr)
    return table


def configurations(release: dict, count: int, seed: int, model_values: dict | None = None) -> list[dict]:
    rng = random.Random(seed)
    table = argument_space(release, rng)
    if model_values:
        table.update(model_values)
    extra = {
        "checkpoint_prepare_on_startup": [True], "enable_sleep_mode": [True, False],
        "speculative_config": [{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 2, "prompt_lookup_min": 4},
                               {"method": "eagle", "num_speculative_tokens": 2}, {"num_speculative_tokens": 2},
                               {"method": "eagle3", "num_speculative_tokens": 3}, {"method": "draft_model", "num_speculative_tokens": 2}],
        "long_prefill_token_threshold": [64, 10000], "max_model_len": [1024, 2048],
        "kv_cache_dtype": ["float16", "auto"], "dtype": ["bfloat16", "float16", "auto"],
        "enable_lora": [True, False], "enable_dbo": [True, False],
        "decode_context_parallel_size": [1, 2, 3], "tensor_parallel_size": [1, 2, 3, 4],
    }
    for name, options in extra.items():
        table.setdefault(name, options)
    names = sorted(table)
    out = []
    for _ in range(count):
        chosen = rng.sample(names, k=min(len(names), rng.randint(1, 4)))
        out.append({name: rng.choice(table[name]) for name in chosen})
    return out


def vllm_verdict(model: str, kwargs: dict) -> tuple[str, str]:
    """("ok", "") or ("rejected", message)."""
    from vllm import LLM
    from vllm.engine.arg_utils import EngineArgs

    class Stop(Exception):
        pass

    llm = object.__new__(LLM)
    try:
        import vllm.entrypoints.llm as llm_module

        original = llm_module.EngineArgs

        def stop(*args, **kw):
            raise Stop()

        llm_module.EngineArgs = stop
        try:
            LLM.__init__(llm, model=model, **kwargs)
        finally:
            llm_module.EngineArgs = original
    except Stop:
        pass
    except (ValueError, TypeError, NotImplementedError) as error:
        return "rejected", str(error)
    except Exception as error:  # noqa: BLE001 - any other failure is a rejection too
        return "rejected", f"{type(error).__name__}: {error}"
    try:
        EngineArgs(model=model, **kwargs).create_engine_config()
    except Exception as error:  # noqa: BLE001
        return "rejected", f"{type(error).__name__}: {error}"
    return "ok", ""


def lint_verdict(kwargs: dict, release: str, model: str = "tiny-llama") -> list:
    from vllm_lint.lint import lint_python_bytes
    from vllm_lint.versions import Version

    arguments = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    source = f'from vllm import LLM\n\nllm = LLM({model!r}, {arguments})\n'
    result = lint_python_bytes("oracle.py", source.encode(), lambda _p: (Version.parse(release), "oracle"))
    return result.findings


def _headline(message: str) -> str:
    """The error itself: pydantic's "Value error, ..." line where there is one."""
    for line in message.splitlines():
        if "Value error, " in line:
            return line.split("Value error, ", 1)[1].split(" [type=")[0][:160]
        if " [type=" in line:
            return line.strip().split(" [type=")[0][:160]
    return message.splitlines()[0][:160] if message else ""


def decidable(message: str) -> bool:
    """Not about the model or the hardware, and not a variable of the launch's environment
    that vLLM reads without a default (``KeyError: 'RANK'``: ``external_launcher`` takes the
    rank from ``torchrun``'s environment, which the arguments do not give)."""
    if message.startswith("KeyError: '") and message[len("KeyError: '"):].rstrip("'").isupper():
        return False
    for phrase in ARGUMENT_PHRASES:
        message = message.replace(phrase, "")
    # An option's own name is not about the model (--max-model-len, --device-ids).
    message = re.sub(r"--[A-Za-z][\w-]*(?:\.[\w-]+)*", " ", message)
    return not any(word in message for word in MODEL_WORDS)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--release", default="0.34", help="the minor release whose data and vLLM are compared")
    parser.add_argument("--source", default=os.environ.get("VLLM_REAL_SOURCE"), help="a folder holding that release's vllm package")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=15)
    parser.add_argument(
        "--model", choices=MODELS, default="tiny-llama",
        help="the checkpoint: the tiny Llama (linted by a name vllm-lint does not know), or a real model's config "
        "(linted by the same local path, and drawn over the arguments whose rejection depends on the model too)",
    )
    args = parser.parse_args(argv)
    prepare_vllm(args.source)
    import vllm

    if ".".join(vllm.__version__.split(".")[:2]) != args.release:
        print(f"vLLM {vllm.__version__} is imported, not {args.release}: pass --source", file=sys.stderr)
        return 2
    release = json.loads((ROOT / "src/vllm_lint/rules/startup_data" / f"{args.release}.json").read_text())
    os.environ["HF_HUB_CACHE"] = tempfile.mkdtemp(prefix="vllm-lint-oracle-hub-")  # vllm-lint reads only the folder
    model = str(model_folder(args.model, Path(tempfile.mkdtemp(prefix="vllm-lint-oracle-"))))
    real = args.model != "tiny-llama"
    rejected = decidable_count = flagged = 0
    model_count = model_flagged = 0
    false_positives, missed, model_missed = [], [], []
    for kwargs in configurations(release, args.count, args.seed, model_arguments() if real else None):
        verdict, message = vllm_verdict(model, kwargs)
        findings = lint_verdict(kwargs, args.release, model if real else "tiny-llama")
        if verdict == "ok":
            if findings:
                false_positives.append((kwargs, [f.vllm_error for f in findings]))
            continue
        rejected += 1
        if not decidable(message):
            if real and not any(word in message for word in HARDWARE_WORDS) and not message.startswith("KeyError: '"):
                model_count += 1  # decided by the arguments and the model's config together
                if findings:
                    model_flagged += 1
                else:
                    model_missed.append((kwargs, _headline(message)))
            continue
        decidable_count += 1
        if findings:
            flagged += 1
        else:
            missed.append((kwargs, _headline(message)))
    print(f"vLLM {vllm.__version__}: {args.count} configurations, {rejected} rejected, {decidable_count} decidable from the arguments")
    recall = flagged / decidable_count if decidable_count else 1.0
    print(f"vllm-lint flags {flagged} of {decidable_count} ({recall:.1%}); false positives on accepted ones: {len(false_positives)}")
    if real:
        share = model_flagged / model_count if model_count else 1.0
        print(f"{args.model}: {model_count} rejections decided by the arguments and the model's config; vllm-lint flags {model_flagged} ({share:.1%})")
        counts_model: dict[str, int] = {}
        for _, message in model_missed:
            counts_model[message] = counts_model.get(message, 0) + 1
        for message, number in sorted(counts_model.items(), key=lambda item: -item[1])[: args.show]:
            example = next(kwargs for kwargs, text in model_missed if text == message)
            print(f"MODEL MISSED x{number}: {message}\n    e.g. {example}")
    for kwargs, errors in false_positives[: args.show]:
        print("FALSE POSITIVE", kwargs, errors)
    counts: dict[str, int] = {}
    for _, message in missed:
        key = message
        counts[key] = counts.get(key, 0) + 1
    for message, number in sorted(counts.items(), key=lambda item: -item[1])[: args.show]:
        example = next(kwargs for kwargs, text in missed if text == message)
        print(f"MISSED x{number}: {message}\n    e.g. {example}")
    return 1 if false_positives else 0


if __name__ == "__main__":
    sys.exit(main())
