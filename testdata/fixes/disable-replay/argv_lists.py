"""--fix-mode disable-replay: the mask goes from argv lists too."""
import subprocess

MODEL = "Qwen/Qwen3-8B"


def in_the_list():
    return subprocess.Popen(["vllm", "serve", MODEL, "--return-sampling-mask", "--logits-processors", "a:B"])


def appended():
    cmd = ["vllm", "serve", MODEL, "--enable-batch-sharded-sampling"]
    cmd.append("--return-sampling-mask")  # replay
    return subprocess.run(cmd, check=True)


def its_own_list():
    base = ["vllm", "serve", MODEL, "--logprobs-mode", "raw_logprobs"]
    return subprocess.Popen(base + ["--return-sampling-mask"])
