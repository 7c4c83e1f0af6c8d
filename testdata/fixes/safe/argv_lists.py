"""Servers started from Python argv lists: VLM105 and VLM302 fixes edit the list's strings."""
import os
import subprocess
from subprocess import Popen

MODEL = "Qwen/Qwen3-8B"


def wrong_mode():
    return subprocess.Popen(["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", 'raw_logprobs'])


def inline_mode():
    os.execvp("vllm", ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode=raw_logits"])


def missing_mode():
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--return-sampling-mask",  # replay for the trainer
        "--port", "8000",
    ]
    return Popen(cmd)


def built_up():
    cmd = ["vllm", "serve", MODEL]
    cmd += ['--return-sampling-mask']
    cmd.extend(["--port", "8000"])
    return subprocess.run(cmd, check=True)


def renamed():
    return subprocess.Popen(("vllm", "serve", MODEL, "--enable-return-sampling-mask", "--logprobs-mode", "processed_logprobs"))


def renamed_and_logprobs():
    return subprocess.Popen(["vllm", "serve", MODEL, "--enable-return-sampling-mask", "--return-sampling-mask-logprobs"])


def last_of_a_multiline_list():
    return subprocess.Popen(
        [
            "vllm",
            "serve",
            MODEL,
            "--return-sampling-mask",
        ]
    )


def value_from_a_name(mode):
    # Not written in the list: reported, not edited.
    return subprocess.Popen(["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", MODE_OF_THE_RUN])


MODE_OF_THE_RUN = "raw_logprobs"
