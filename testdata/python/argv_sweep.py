"""A benchmark sweep: every arm starts its own server, so a mistake in one arm is reported there,
whatever the other arms write."""
import subprocess
import sys

MODEL = "Qwen/Qwen3-8B"
ARMS = {
    "baseline": ["--max-num-seqs", "256"],
    "replay": ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"],
    "replay-default-mode": ["--return-sampling-mask"],  # expect: VLM105
}


def launch(arm, tp):
    cmd = [
        sys.executable,
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        MODEL,
        "--tensor-parallel-size",
        str(tp),
        *ARMS[arm],
    ]
    return subprocess.Popen(cmd)


def sweep():
    for arm in ("baseline", "replay", "replay-default-mode"):
        for tp in (1, 2):
            launch(arm, tp).wait()


def sweep_modes():
    for mode in ["processed_logprobs", "raw_logprobs"]:
        argv = ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", mode]  # expect: VLM105
        subprocess.run(argv, check=True)


def sweep_runtime(modes):
    for mode in modes:  # the arms are the caller's
        subprocess.run(["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", mode], check=True)

