"""An argv list handed to unknown code before the launch may have been changed there."""
import subprocess

from deploy_tools import configure

MODEL = "Qwen/Qwen3-8B"


def launch_configured():
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask"]
    configure(cmd)  # may add --logprobs-mode processed_logprobs
    return subprocess.Popen(cmd)


def launch_with_a_copy():
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask"]  # expect: VLM105
    configure(*cmd)  # the callee gets a copy of the elements
    return subprocess.Popen(cmd)


def launch_printed():
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask"]  # expect: VLM105
    print("starting:", " ".join(cmd))
    return subprocess.Popen(cmd)
