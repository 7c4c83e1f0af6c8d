"""Commands a shell runs, written as f-strings (a Modal web server's start): each unknown value
stands as an unquoted ``$(cmd)`` would, and ``NAME=value`` words before the command set its
environment, also when some paths leave them out of a joined list."""
import asyncio
import os
import subprocess

import modal

app = modal.App("replay-serving")
MODEL_DIR = "/models"
PORT = 8000


@app.function(gpu="H100")
@modal.web_server(port=PORT, startup_timeout=600)
def serve_template():
    model_path = os.path.join(MODEL_DIR, os.environ["MODEL_NAME"])
    cmd = f"""
    VLLM_ATTENTION_BACKEND=FLASH_ATTN vllm serve {model_path} --served-model-name {os.environ["MODEL_NAME"]} --port {PORT} --return-sampling-mask
    """
    subprocess.Popen(cmd, shell=True, env=os.environ)  # expect: VLM105


@modal.web_server(port=PORT)
def serve_template_fixed():
    model_path = os.path.join(MODEL_DIR, os.environ["MODEL_NAME"])
    cmd = f"vllm serve {model_path} --return-sampling-mask --logprobs-mode processed_logprobs --port {PORT}"
    subprocess.Popen(cmd, shell=True)


@modal.web_server(port=PORT)
def serve_joined():
    cmd = []
    if os.getenv("PROFILE_DIR"):
        cmd.append(f"VLLM_TORCH_PROFILER_DIR={os.getenv('PROFILE_DIR')}")
    cmd.extend(
        [
            "python",
            "-m",
            "vllm.entrypoints.openai.api_server",
            "--model",
            os.environ["MODEL_NAME"],
            "--tensor-parallel-size",
            os.getenv("TP", "1"),
            "--return-sampling-mask",  # expect: VLM105
        ]
    )
    subprocess.Popen(" ".join(cmd), shell=True)


async def start_server(model: str, extra_flags: str):
    # The caller's flags may hold --logprobs-mode: they stand where a flag's name stands.
    return await asyncio.create_subprocess_shell(f"vllm serve {model} --return-sampling-mask {extra_flags}")


async def start_pinned_server(model: str):
    return await asyncio.create_subprocess_shell(f"VLLM_USE_V2_MODEL_RUNNER=1 vllm serve {model} --return-sampling-mask")  # expect: VLM105


def serve_glued(model: str, quant_flag: str):
    # Where the second value's words begin is not known.
    subprocess.Popen(f"vllm serve {model}{quant_flag} --return-sampling-mask", shell=True)


def serve_single_quoted(model: str):
    # Inside single quotes a stand-in would be text: not read.
    subprocess.Popen(f"bash -c 'vllm serve {model} --return-sampling-mask'", shell=True)


def serve_wrapped(node: int):
    # An optional word before the command that is not an assignment: the command is not known.
    cmd = []
    if node >= 0:
        cmd.append(f"numactl --cpunodebind={node}")
    cmd.extend(["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask"])
    subprocess.Popen(" ".join(cmd), shell=True)


def serve_sglang(model: str):
    subprocess.Popen(f"CUDA_VISIBLE_DEVICES=0 python -m sglang.launch_server --model-path {model} --port 30000", shell=True)


def print_command(model: str):
    # Not run: only printed.
    print(f"VLLM_ATTENTION_BACKEND=FLASH_ATTN vllm serve {model} --return-sampling-mask")
