import subprocess

SERVER_FLAGS = ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]


def start(port):
    argv = ["vllm", "serve", "Qwen/Qwen3-4B", "--port", str(port), *SERVER_FLAGS]
    return subprocess.Popen(argv)
