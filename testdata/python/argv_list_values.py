"""Words after an option of several values (--served-model-name, --api-key): in a Python list each
element is one argument, so an unknown one there is one more value, not a flag."""
import os
import subprocess


def restart_server(config, step):
    command = [
        "python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        os.path.join(config.save_path, f"step_{step}"),
        "--served-model-name",
        config.model_name,
        "--return-sampling-mask",  # expect: VLM105
    ]
    return subprocess.Popen(command)


def serve_with_aliases(model, alias):
    argv = ["vllm", "serve", model, "--served-model-name", alias, "policy", "--api-key", os.environ["API_KEY"]]
    argv += ["--return-sampling-mask", "--logprobs-mode", "raw_logprobs"]  # expect: VLM105
    return subprocess.Popen(argv)


def serve_fixed(model, alias):
    argv = ["vllm", "serve", model, "--served-model-name", alias, "--return-sampling-mask"]
    argv += ["--logprobs-mode", "processed_logprobs"]
    return subprocess.Popen(argv)


def serve_with_extra_flags(model, alias, extra):
    # The splat may hold any flags, --logprobs-mode among them.
    argv = ["vllm", "serve", model, "--served-model-name", alias, *extra, "--return-sampling-mask"]
    return subprocess.Popen(argv)


def serve_flags_after_names(model, names, flags):
    argv = ["vllm", "serve", model, "--return-sampling-mask", "--served-model-name", *names]
    argv.extend(flags)  # any number of words after the names
    return subprocess.Popen(argv)


def sglang_lookalike(model, alias):
    argv = ["python", "-m", "sglang.launch_server", "--model-path", model, "--served-model-name", alias, "--return-sampling-mask"]
    return subprocess.Popen(argv)
