"""Flags rendered from a mapping of the run's configuration by a helper that appends to the argv
list: the words written before the loop stay known, what the loop adds is any number of unknown
words (so replay settings are unknown, but a written option no release has is still reported)."""
import subprocess


def append_vllm_kwargs(cmd, kwargs):
    for key, value in kwargs.items():
        if isinstance(value, bool):
            cmd.append(f"--{key}" if value else f"--no-{key}")  # expect: VLM105
            continue
        cmd.append(f"--{key}")
        if value not in (None, ""):
            cmd.append(str(value))


def run_reference_server(cfg, port):
    cmd = [
        "python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(cfg.model_path),
        "--port",
        str(port),
        "--max-model-length",  # expect: VLM301
        "8192",
        "--return-sampling-mask",  # the configuration's flags may set --logprobs-mode
    ]
    append_vllm_kwargs(cmd, cfg.vllm_kwargs)
    return subprocess.Popen(cmd)


def run_known_server(port):
    cmd = ["vllm", "serve", "Qwen/Qwen3-8B", "--port", str(port)]
    append_vllm_kwargs(cmd, {"return-sampling-mask": True, "max-num-seqs": 64})  # reported where the flag is rendered
    return subprocess.Popen(cmd)


def run_pruned_server(port, drop):
    cmd = ["vllm", "serve", "Qwen/Qwen3-8B", "--max-model-length", "8192"]
    for flag in drop:
        cmd.remove(flag)  # not only grown: its elements are no longer known
    return subprocess.Popen(cmd)
