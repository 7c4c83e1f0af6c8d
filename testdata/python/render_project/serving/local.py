"""A renderer in the same module, with a comprehension; TGI's launcher takes other flags."""
import subprocess

REPLAY_SERVER = {"model": "Qwen/Qwen3-8B", "tensor_parallel_size": 2, "return_sampling_mask": True}


def render(options):
    flags = []
    for name, value in options.items():
        flags.extend([f"--{name.replace('_', '-')}"] if value is True else [f"--{name.replace('_', '-')}", str(value)])  # expect: VLM105
    return flags


def serve_replay(port):
    options = dict(REPLAY_SERVER, port=port, enable_prefix_caching=None)
    options = {key: value for key, value in options.items() if value is not None}
    return subprocess.Popen(["vllm", "serve", *render(options)])


def serve_tgi(port):
    options = dict(REPLAY_SERVER, port=port)
    return subprocess.Popen(["text-generation-launcher", *render(options)])
