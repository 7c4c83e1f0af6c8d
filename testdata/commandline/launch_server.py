# target-version: 0.33
"""Servers started from Python: argv lists and env= dicts given to subprocess and os.exec*."""
import asyncio
import os
import subprocess
import sys
from subprocess import Popen

MODEL = "Qwen/Qwen3-8B"

cmd = ["vllm", "serve", MODEL, "--return-sampling-mask"]  # expect: VLM105:32
cmd += ["--port", "8000"]
subprocess.Popen(cmd)

# Built up in straight-line code: the finding points at the flag's string.
args = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", MODEL]
args.append("--return-sampling-mask")
args.extend(["--logprobs-mode", "processed_logprobs", "--enable-batch-sharded-sampling"])  # expect: VLM106:55
subprocess.run(args, check=True)

# env= replaces the environment; **os.environ keeps the process's own.
# Findings about the environment point at the list's --return-sampling-mask.
serve = ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]  # expect: VLM101:34
Popen(serve, env={**os.environ, "VLLM_USE_V2_MODEL_RUNNER": "0"})
Popen(serve, env={"PATH": "/usr/bin"})
Popen(serve, env={**os.environ, "VLLM_USE_V2_MODEL_RUNNER": "1"})
os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"
subprocess.run(["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])  # expect: VLM101:41
Popen(["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"], env={"VLLM_USE_V2_MODEL_RUNNER": "1"})
del os.environ["VLLM_USE_V2_MODEL_RUNNER"]

os.execvp("vllm", ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode=raw_logprobs"])  # expect: VLM105:70
subprocess.check_call("vllm serve Qwen/Qwen3-8B --return-sampling-mask --logits-processors a:B", shell=True)  # expect: VLM104:23, VLM105:23


async def start(extra):
    await asyncio.create_subprocess_exec("vllm", "serve", MODEL, "--return-sampling-mask", *extra)
    await asyncio.create_subprocess_exec("vllm", "serve", MODEL, "--return-sampling-mask", "--enable-batch-sharded-sampling")  # expect: VLM105:66, VLM106:92


def unknown(extra_args):
    # Unknown extra arguments may add any flag: silent.
    subprocess.run(["vllm", "serve", MODEL, "--return-sampling-mask"] + extra_args)
    # Not a vLLM server.
    subprocess.run(["python", "-m", "sglang.launch_server", "--model-path", MODEL, "--return-sampling-mask"])
