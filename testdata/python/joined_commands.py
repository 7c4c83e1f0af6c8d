"""`" ".join(cmd)` run with shell=True (a Modal web server's usual start): the shell splits the
joined text again, so an element with blanks is several words and an element of unknown value is
one value where one value stands, any number of words where a flag's name stands."""
import os
import subprocess

import modal

app = modal.App("replay-serving")
MODEL = "Qwen/Qwen3-8B"
PORT = 8000
EAGER = False


@app.function(gpu="H100", secrets=[modal.Secret.from_name("serving-key")])
@modal.web_server(port=PORT, startup_timeout=600)
def serve():
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--host",
        "0.0.0.0",
        "--port",
        str(PORT),
        "--api-key",
        os.environ["SERVING_API_KEY"],
        "--reasoning-parser qwen3",
        "--return-sampling-mask",  # expect: VLM105
    ]
    cmd += ["--enforce-eager" if EAGER else "--no-enforce-eager"]
    subprocess.Popen(" ".join(cmd), shell=True)


@modal.web_server(port=PORT)
def serve_fixed():
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode processed_logprobs"]
    subprocess.Popen(" ".join(cmd), shell=True)


@modal.web_server(port=PORT)
def serve_logged():
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask"]  # expect: VLM105
    line = " ".join(cmd)
    cmd.append("--logprobs-mode=processed_logprobs")  # after the text was joined: not in it
    subprocess.Popen(line, shell=True)


@modal.web_server(port=PORT)
def serve_with_extra(extra_flags):
    # Words from elsewhere where a flag's name stands: they may set --logprobs-mode.
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask", extra_flags]
    subprocess.Popen(" ".join(cmd), shell=True)


@modal.web_server(port=PORT)
def serve_extended(extra):
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask"]
    cmd.extend(extra)
    subprocess.Popen(" ".join(cmd), shell=True)


@modal.web_server(port=PORT)
def serve_without_shell():
    # Without a shell the joined text is one program name: no vLLM server starts.
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask"]
    subprocess.Popen(" ".join(cmd))


@modal.web_server(port=30000)
def serve_sglang():
    cmd = ["python", "-m", "sglang.launch_server", "--model-path", MODEL, "--return-sampling-mask"]
    subprocess.Popen(" ".join(cmd), shell=True)


async def serve_async():
    import asyncio

    cmd = ["vllm", "serve", MODEL, "--port", str(PORT), "--return-sampling-mask"]  # expect: VLM105
    return await asyncio.create_subprocess_shell(" ".join(cmd))


@modal.web_server(port=PORT)
def serve_multimodal(limits):
    import json

    cmd = ["vllm", "serve", MODEL, "--limit-mm-per-prompt", f"'{json.dumps(limits)}'"]
    cmd += ["--return-sampling-mask"]  # expect: VLM105
    subprocess.Popen(" ".join(cmd), shell=True)
