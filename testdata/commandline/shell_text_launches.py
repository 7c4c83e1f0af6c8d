# target-version: 0.33
"""Servers started with one command text run by /bin/sh -c: os.system and os.popen, as test
helpers, notebooks and worker scripts start them (in the background, with redirections)."""
import os
import platform
from os import system

MODEL = "Qwen/Qwen3-8B"


def start_vllm_server(model_path, host, port):
    """A test helper: the server in the background, the model and address from the test."""
    cmd = f"vllm serve {model_path} --host={host} --port={port} --api-key=token-abc123 --return-sampling-mask &"
    os.system(cmd)  # expect: VLM105:15


os.system("vllm serve Qwen/Qwen2.5-7B-Instruct --port 8081 --tensor-parallel-size 2 --return-sampling-mask > vllm.log 2>&1 &")  # expect: VLM105:11


def serve_fast_mode():
    vllm_args = ["--model", MODEL, "--port", "8000", "--return-sampling-mask", "--enable-batch-sharded-sampling"]
    os.system(f"python -m vllm.entrypoints.openai.api_server {' '.join(vllm_args)}")  # expect: VLM105:15, VLM106:15


with os.popen(f"vllm serve {MODEL} --return-sampling-mask --logprobs-mode processed_logprobs --speculative-config '{{\"method\": \"ngram\", \"num_speculative_tokens\": 4, \"enable_adaptive_verification\": true}}'") as log:  # expect: VLM102:15
    print(log.readline())

system(f"vllm serve {MODEL} --return-sampling-mask --logprobs-mode processed_logprobs")  # clean: replay as vLLM wants it


def passthrough(extra):
    # A variable that may hold any flag, unquoted in the command: the logprobs mode may be in it.
    os.system(f"vllm serve {MODEL} --return-sampling-mask {extra}")


# Not vLLM servers.
os.system(f"python -m sglang.launch_server --model-path {MODEL} --return-sampling-mask &")
os.system(f"text-generation-launcher --model-id {MODEL} --return-sampling-mask")
os.system(f"lmdeploy serve api_server {MODEL} --return-sampling-mask")
print(platform.system())
os.system("nvidia-smi")
