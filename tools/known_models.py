"""Generate vllm-lint's table of widely used models: ``src/vllm_lint/model_data/known_models.json``.

    python tools/known_models.py --mirrors DIR    # DIR holds the bare git mirrors of SOURCES
    python tools/known_models.py --mirrors DIR --check

Each entry is a model id, the keys of its config.json that vLLM's start-up checks read
(``KEPT``, and every key naming experts or MoE, so that a model without one is known to be dense),
and the source it was read from: a public repository at a commit, the file, and where the
file keeps several configs, the one read.  The configs are public data (the Hub's
config.json files, as public repositories store them); none is downloaded from the Hub.

A source is ``owner/name@commit:path`` with an optional ``#key`` (a config among the dicts
of a Python module's ``MODEL_PRESETS``-style table).  The mirrors are bare git directories
named ``owner+name/repo`` (as the project's search tool lays them out), read with ``git show``.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "vllm_lint" / "model_data" / "known_models.json"

INFERSIM = "alibaba/InferSim@f2293dab6d23fe2780356eb71e0ffc3b4baf61dd"
MLC = "mlc-ai/mlc-llm@79d603f085f50500e9509fa01785ffa7ecfaaa93:python/mlc_llm/model/model_preset.py"

# model id -> source.  An id stands for the checkpoints that share its config.json (the
# base and instruct checkpoints of one size share it).
SOURCES = {
    "meta-llama/Llama-3.1-8B": MLC + "#llama3_1_8b",
    "meta-llama/Llama-3.1-8B-Instruct": MLC + "#llama3_1_8b",
    "meta-llama/Llama-3.1-70B-Instruct": MLC + "#llama3_1_70b",
    "meta-llama/Llama-3.2-1B-Instruct": MLC + "#llama3_2_1b",
    "meta-llama/Llama-3.2-3B-Instruct": MLC + "#llama3_2_3b",
    "mistralai/Mistral-7B-Instruct-v0.3": MLC + "#mistral_7b_v03",
    "deepseek-ai/DeepSeek-V2-Lite": MLC + "#deepseek_v2_lite",
    "deepseek-ai/DeepSeek-V2-Lite-Chat": MLC + "#deepseek_v2_lite",
    "google/gemma-3-1b-it": MLC + "#gemma3_1b_it",
    "google/gemma-2-9b-it": MLC + "#gemma2_9b",
    "google/gemma-2-27b-it": MLC + "#gemma2_27b",
    "microsoft/Phi-4-mini-instruct": MLC + "#phi-4",
    "Qwen/Qwen2-7B-Instruct": MLC + "#qwen2_7b",
    "Qwen/Qwen3-0.6B": MLC + "#qwen3_0.6b",
    "Qwen/Qwen3-1.7B": MLC + "#qwen3_1.7b",
    "Qwen/Qwen3-8B": INFERSIM + ":hf_configs/qwen3-8B_config.json",
    "Qwen/Qwen3-30B-A3B": INFERSIM + ":hf_configs/qwen3-30B-A3B_config.json",
    "Qwen/Qwen3-235B-A22B": INFERSIM + ":hf_configs/qwen3-235B-A22B_config.json",
}

# Whole configs for the start-up oracle (tests/oracle/startup_oracle.py --model NAME), which
# writes each into a local checkpoint folder for vLLM to read: ``--oracle`` writes them.
ORACLE = {
    "llama-3.1-8b": MLC + "#llama3_1_8b",
    "qwen3-8b": INFERSIM + ":hf_configs/qwen3-8B_config.json",
    "qwen3-30b-a3b": INFERSIM + ":hf_configs/qwen3-30B-A3B_config.json",
    "deepseek-v2-lite": MLC + "#deepseek_v2_lite",
    "gemma-3-1b-it": MLC + "#gemma3_1b_it",
}
ORACLE_OUT = Path(__file__).resolve().parent.parent / "tests" / "oracle" / "model_configs.json"
# Oracle models written into that file by hand, with the checkpoint's other files (the
# multimodal Gemma 3's processor configs): ``--oracle`` keeps them.
ORACLE_BY_HAND = ("gemma-3-4b-it",)

# The config.json keys vLLM's start-up checks read (``vllm_lint.rules.startup_checkpoint``).
KEPT = (
    "architectures",
    "model_type",
    "num_attention_heads",
    "num_key_value_heads",
    "n_head_kv",
    "num_kv_heads",
    "multi_query_group_num",
    "num_attention_groups",
    "max_position_embeddings",
    "n_positions",
    "max_seq_len",
    "seq_length",
    "model_max_length",
    "max_target_positions",
    "max_sequence_length",
    "max_seq_length",
    "seq_len",
    "rope_scaling",
    "rope_parameters",
    "sliding_window",
    "block_configs",
    "quantization_config",
    "compression_config",
    "canvas_length",
    "torch_dtype",
    "dtype",
)


# Of a RoPE config, what the derived length reads (a per-layer-type config nests them).
ROPE_KEPT = ("rope_type", "type", "factor")


def _rope(value):
    if not isinstance(value, dict):
        return value
    if value and all(isinstance(inner, dict) for inner in value.values()):
        return {name: _rope(inner) for name, inner in value.items()}
    return {key: value[key] for key in ROPE_KEPT if key in value}


def kept(config: dict) -> dict:
    result = {key: _rope(config[key]) if key.startswith("rope_") else config[key] for key in KEPT if key in config}
    result.update({key: value for key, value in config.items() if "expert" in key or "moe" in key.lower()})
    if isinstance(config.get("text_config"), dict):
        result["text_config"] = kept(config["text_config"])
    return result


def read_source(source: str, mirrors: Path) -> dict:
    head, _, key = source.partition("#")
    repo_commit, _, path = head.partition(":")
    repo, _, commit = repo_commit.partition("@")
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    text = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
    ).stdout
    if not key:
        return json.loads(text)
    module = ast.parse(text)
    for node in ast.walk(module):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            for name, value in zip(node.value.keys, node.value.values):
                if isinstance(name, ast.Constant) and name.value == key:
                    return ast.literal_eval(value)
    raise SystemExit(f"{source}: no config named {key!r}")


def _where(source: str) -> str:
    head, _, key = source.partition("#")
    repo_commit, _, path = head.partition(":")
    repo, _, commit = repo_commit.partition("@")
    return f"{repo} at {commit[:12]}, {path}" + (f" [{key!r}]" if key else "")


def build_oracle(mirrors: Path) -> dict:
    built = {name: {"config": read_source(source, mirrors), "source": _where(source)} for name, source in sorted(ORACLE.items())}
    # Entries no mirror holds whole (their source says so) are kept as they are.
    committed = json.loads(ORACLE_OUT.read_text()) if ORACLE_OUT.exists() else {}
    built.update({name: committed[name] for name in ORACLE_BY_HAND if name in committed})
    return dict(sorted(built.items()))


def build(mirrors: Path) -> dict:
    models = {}
    for model, source in sorted(SOURCES.items()):
        head, _, key = source.partition("#")
        repo_commit, _, path = head.partition(":")
        repo, _, commit = repo_commit.partition("@")
        where = f"{repo} at {commit[:12]}, {path}" + (f" [{key!r}]" if key else "")
        models[model] = {"config": kept(read_source(source, mirrors)), "source": where}
    return {"models": models}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, required=True, help="the folder of the sources' bare git mirrors")
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed table differs")
    parser.add_argument("--oracle", action="store_true", help="write the start-up oracle's whole configs instead")
    options = parser.parse_args(argv)
    if options.oracle:
        ORACLE_OUT.write_text(json.dumps(build_oracle(options.mirrors), indent=1, sort_keys=True) + "\n")
        print(f"wrote {ORACLE_OUT} ({len(ORACLE)} models)")
        return 0
    text = json.dumps(build(options.mirrors), indent=1, sort_keys=True) + "\n"
    if options.check:
        if OUT.read_text() != text:
            print(f"{OUT} differs from its sources; run tools/known_models.py")
            return 1
        return 0
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(SOURCES)} models)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
