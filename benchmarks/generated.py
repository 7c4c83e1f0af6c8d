"""Generated benchmark corpora: repository shapes that need no download.

* ``harness``: an evaluation harness, about 15,000 files: task configs (small
  YAML files, many per task family), the Python helpers beside them, and a few
  shell scripts.  Nothing in it mentions vLLM: every file is skipped by the
  prefilter, so the run is reading, walking and prefiltering.
* ``framework``: an RL framework's repository in NeMo-RL's shape: its own base
  config (``examples/configs/grpo_math_1B.yaml``, which ``policy.generation``
  forwards to vLLM), about 40 top-level configs and 230 recipes composing it
  through ``defaults:``, about 230 test-suite scripts launching the recipes with
  Hydra overrides, and about 700 Python modules (a few build engines).

Both are deterministic (a fixed seed), so runs compare across machines.
"""

from __future__ import annotations

import random
from pathlib import Path

WORDS = (
    "accuracy answer batch benchmark choice context dataset document example few shot generation label "
    "length metric model normalize option passage prompt question reasoning reference response sample "
    "score sentence split target task template token translation validation vocabulary"
).split()
LANGUAGES = ["en", "de", "fr", "es", "ja", "zh", "ar", "hi", "sw", "ru", "pt", "it", "ko", "tr", "vi"]


def _name(rng: random.Random, parts: int = 2) -> str:
    return "_".join(rng.choice(WORDS) for _ in range(parts))


def _function(rng: random.Random, name: str) -> str:
    arg = rng.choice(["doc", "docs", "items", "text", "results"])
    body = [
        f"def {name}({arg}, *, limit=None):",
        f'    """{rng.choice(WORDS).capitalize()} each {rng.choice(WORDS)} of the {rng.choice(WORDS)}."""',
        "    out = []",
        f"    for position, item in enumerate({arg}):",
        "        if limit is not None and position >= limit:",
        "            break",
        f"        key = str(item).strip().lower().replace({rng.choice(WORDS)!r}, {rng.choice(WORDS)!r})",
        f"        if key.startswith({rng.choice(WORDS)!r}) or len(key) > {rng.randint(8, 400)}:",
        f"            out.append({{'{rng.choice(WORDS)}': key, 'position': position}})",
        "        else:",
        f"            out.append({{'{rng.choice(WORDS)}': key[::-1], 'score': len(key) / {rng.randint(2, 9)}}})",
        "    return out",
        "",
        "",
    ]
    return "\n".join(body)


def _python_module(rng: random.Random, functions: int, imports: str = "") -> str:
    head = '"""Helpers for the ' + " ".join(rng.choice(WORDS) for _ in range(3)) + ' tasks."""\n\n'
    head += "import math\nimport re\n" + imports + "\n\n"
    names = sorted({_name(rng) for _ in range(functions)})
    constant = f"PATTERN = re.compile(r'\\b({'|'.join(rng.sample(WORDS, 4))})\\b')\n\n\n"
    return head + constant + "".join(_function(rng, name) for name in names)


def harness(root: Path, seed: int = 21) -> None:
    rng = random.Random(seed)
    tasks = root / "evalkit" / "tasks"
    families = 1000
    for number in range(families):
        family = f"{_name(rng)}_{number}"
        folder = tasks / family
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "utils.py").write_text(_python_module(rng, rng.randint(2, 8)))
        (folder / "_default_template_yaml").write_text(f"dataset_path: org/{family}\noutput_type: multiple_choice\n")
        for language in rng.sample(LANGUAGES, rng.randint(10, 15)):
            task = f"{family}_{language}"
            metric = rng.choice(["acc", "acc_norm", "exact_match", "f1", "bleu"])
            (folder / f"{task}.yaml").write_text(
                f"include: _default_template_yaml\n"
                f"task: {task}\n"
                f"dataset_name: {language}\n"
                f"test_split: {rng.choice(['test', 'validation', 'train'])}\n"
                f"num_fewshot: {rng.randint(0, 5)}\n"
                f'doc_to_text: "{{{{{rng.choice(WORDS)}}}}}\\n{rng.choice(WORDS).capitalize()}:"\n'
                f"doc_to_target: {rng.choice(['label', 'answer', 'target'])}\n"
                f"doc_to_choice: [{', '.join(repr(w) for w in rng.sample(WORDS, 4))}]\n"
                f"process_docs: !function utils.{_name(rng)}\n"
                f"metric_list:\n"
                f"  - metric: {metric}\n"
                f"    aggregation: mean\n"
                f"    higher_is_better: true\n"
                f"metadata:\n"
                f"  version: {rng.randint(0, 3)}.0\n"
            )
    package = root / "evalkit"
    for number in range(60):
        (package / f"{_name(rng)}_{number}.py").write_text(_python_module(rng, rng.randint(10, 40)))
    scripts = root / "scripts"
    scripts.mkdir(parents=True, exist_ok=True)
    for number in range(10):
        (scripts / f"run_{_name(rng)}_{number}.sh").write_text(
            "#!/bin/bash\nset -euo pipefail\n"
            f"python -m evalkit --tasks {_name(rng)} --batch_size {rng.randint(1, 64)} --output_path results/$1\n"
        )


BASE_CONFIG_SECTIONS = ["grpo", "loss_fn", "checkpointing", "data", "env", "logger", "cluster"]


def _section(rng: random.Random, indent: str, depth: int, keys: int) -> list[str]:
    lines = []
    for _ in range(keys):
        key = _name(rng, 1 + (depth == 0))
        if depth < 2 and rng.random() < 0.25:
            lines.append(f"{indent}{key}:")
            lines += _section(rng, indent + "  ", depth + 1, rng.randint(2, 6))
        else:
            value = rng.choice([str(rng.randint(0, 4096)), "true", "false", "null", f"{rng.random():.3f}", f"'{_name(rng)}'"])
            lines.append(f"{indent}{key}: {value}")
    return lines


def _base_config(rng: random.Random) -> str:
    lines = ["# Defaults every GRPO recipe composes (defaults: ../../grpo_math_1B.yaml)."]
    for section in BASE_CONFIG_SECTIONS[:3]:
        lines.append(f"{section}:")
        lines += _section(rng, "  ", 1, 18)
    lines += [
        "policy:",
        '  model_name: "Qwen/Qwen2.5-1.5B"',
        "  train_global_batch_size: 512",
        "  train_micro_batch_size: 4",
        "  max_total_sequence_length: 512",
        "  precision: bfloat16",
        "  dtensor_cfg:",
        *_section(rng, "    ", 2, 12),
        "  optimizer:",
        "    name: torch.optim.AdamW",
        "    kwargs:",
        "      lr: 5.0e-6",
        "      weight_decay: 0.01",
        "  generation:",
        "    backend: vllm",
        "    max_new_tokens: ${policy.max_total_sequence_length}",
        "    temperature: 1.0",
        "    top_p: 1.0",
        "    top_k: null",
        "    stop_token_ids: null",
        "    vllm_cfg:",
        "      async_engine: false",
        "      precision: ${policy.precision}",
        "      tensor_parallel_size: 1",
        "      pipeline_parallel_size: 1",
        "      gpu_memory_utilization: 0.6",
        "      max_model_len: ${policy.max_total_sequence_length}",
        "      enforce_eager: false",
        "      logprobs_mode: processed_logprobs",
        "    vllm_kwargs: {}",
        "    colocated:",
        "      enabled: true",
    ]
    for section in BASE_CONFIG_SECTIONS[3:]:
        lines.append(f"{section}:")
        lines += _section(rng, "  ", 1, 30)
    return "\n".join(lines) + "\n"


def _recipe(rng: random.Random, base: str) -> str:
    model = rng.choice(["Qwen/Qwen2.5-7B", "meta-llama/Llama-3.1-8B-Instruct", "google/gemma-3-1b-it", "Qwen/Qwen3-8B"])
    lines = [f"defaults: {base}", "grpo:"]
    lines += _section(rng, "  ", 1, rng.randint(3, 8))
    lines += ["checkpointing:", f"  checkpoint_dir: results/{_name(rng, 3)}", "policy:", f"  model_name: {model}"]
    lines += [f"  max_total_sequence_length: {rng.choice([1024, 4096, 8192])}", "  generation:"]
    lines += [f"    temperature: {rng.choice(['0.6', '0.8', '1.0'])}", "    vllm_cfg:"]
    lines += [f"      tensor_parallel_size: {rng.choice([1, 2, 4, 8])}", f"      gpu_memory_utilization: {rng.choice(['0.5', '0.6', '0.7'])}"]
    if rng.random() < 0.3:
        lines += ["    vllm_kwargs:", f"      max_num_seqs: {rng.choice([64, 128, 256])}", "      enable_prefix_caching: true"]
    lines += ["logger:", f"  log_dir: logs/{_name(rng, 3)}", "  wandb_enabled: true", "cluster:"]
    lines += [f"  gpus_per_node: 8", f"  num_nodes: {rng.choice([1, 2, 4])}"]
    return "\n".join(lines) + "\n"


def _suite_script(rng: random.Random, recipe: str, entry: str) -> str:
    steps = rng.choice([20, 40, 100, 500])
    return f"""#!/bin/bash
SCRIPT_DIR=$( cd -- "$( dirname -- "${{BASH_SOURCE[0]}}" )" &> /dev/null && pwd)
source $SCRIPT_DIR/common.env

# ===== BEGIN CONFIG =====
NUM_NODES={rng.choice([1, 2, 4])}
STEPS_PER_RUN={steps}
MAX_STEPS={steps}
NUM_RUNS=$(( (MAX_STEPS + STEPS_PER_RUN - 1) / STEPS_PER_RUN ))
CONFIG_PATH=examples/configs/recipes/llm/{recipe}.yaml
# ===== END CONFIG =====

exit_if_max_steps_reached

cd $PROJECT_ROOT
uv run {entry} \\
    --config $CONFIG_PATH \\
    grpo.max_num_steps=$MAX_STEPS \\
    logger.log_dir=$LOG_DIR \\
    logger.wandb.name=$EXP_NAME \\
    policy.generation.vllm_cfg.gpu_memory_utilization={rng.choice(['0.5', '0.6', '0.7'])} \\
    checkpointing.checkpoint_dir=$CKPT_DIR \\
    $@ \\
    2>&1 | tee $RUN_LOG

uv run tests/json_dump_tb_logs.py $LOG_DIR --output_path $JSON_METRICS
if [[ $(jq 'to_entries | .[] | select(.key == "train/loss") | .value | keys | map(tonumber) | max' $JSON_METRICS) -ge $MAX_STEPS ]]; then
    uv run tests/check_metrics.py $JSON_METRICS 'data["train/reward"]["{steps}"] > {rng.random():.2f}'
fi
"""


def framework(root: Path, seed: int = 5) -> None:
    rng = random.Random(seed)
    configs = root / "examples" / "configs"
    recipes = configs / "recipes" / "llm"
    recipes.mkdir(parents=True, exist_ok=True)
    (configs / "grpo_math_1B.yaml").write_text(_base_config(rng))
    for number in range(40):
        (configs / f"{rng.choice(['grpo', 'dapo', 'sft', 'dpo'])}_{_name(rng)}_{number}.yaml").write_text(_recipe(rng, "grpo_math_1B.yaml"))
    suites = root / "tests" / "test_suites" / "llm"
    suites.mkdir(parents=True, exist_ok=True)
    (suites / "common.env").write_text("PROJECT_ROOT=$(realpath $SCRIPT_DIR/../../..)\nLOG_DIR=$PROJECT_ROOT/logs\n")
    entries = ["examples/run_grpo.py", "examples/run_grpo_math.py"]
    for number in range(230):
        recipe = f"grpo-{_name(rng)}-{rng.choice([1, 2, 4])}n8g-{number}"
        (recipes / f"{recipe}.yaml").write_text(_recipe(rng, "../../grpo_math_1B.yaml"))
        (suites / f"{recipe}.sh").write_text(_suite_script(rng, recipe, rng.choice(entries)))
    for entry in entries:
        (root / entry).write_text(
            '"""Run GRPO with a Hydra config and command-line overrides."""\n\nimport argparse\n\n'
            "from rlkit.algorithms.grpo import grpo_train, setup\n\n\n"
            "def main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--config')\n"
            "    args, overrides = parser.parse_known_args()\n    grpo_train(*setup(args.config, overrides))\n\n\n"
            "if __name__ == '__main__':\n    main()\n"
        )
    package = root / "rlkit"
    for number in range(700):
        folder = package / rng.choice(["algorithms", "data", "models", "distributed", "utils", "environments"])
        folder.mkdir(parents=True, exist_ok=True)
        imports = ""
        if number % 100 == 7:  # a generation worker: builds a vLLM engine from the config
            imports = "from vllm import LLM, SamplingParams\n"
        text = _python_module(rng, rng.randint(6, 24), imports)
        if imports:
            text += (
                "def build_engine(cfg):\n"
                "    kwargs = dict(cfg['vllm_kwargs'])\n"
                "    return LLM(model=cfg['model_name'], tensor_parallel_size=cfg['vllm_cfg']['tensor_parallel_size'], **kwargs)\n"
            )
        (folder / f"{_name(rng)}_{number}.py").write_text(text)
    (root / "pyproject.toml").write_text('[project]\nname = "rlkit"\nversion = "0.1.0"\n')
