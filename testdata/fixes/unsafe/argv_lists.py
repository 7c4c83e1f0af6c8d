"""Servers started from Python argv lists: flags and their values are removed from the list."""
import asyncio
import os
import subprocess

MODEL = "Qwen/Qwen3-8B"
SHARED = ["vllm", "serve", MODEL, "--enable-batch-sharded-sampling"]


def flag_with_value():
    cmd = [
        "vllm",
        "serve",
        MODEL,
        "--return-sampling-mask",
        "--logprobs-mode", "processed_logprobs",
        # engine-level processors
        "--logits-processors", "my_pkg.processors:NoRepeat",  # no repeats
        "--port", "8000",
    ]
    print(" ".join(cmd))
    return subprocess.Popen(cmd)


def appended():
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    cmd.append("--enable-batch-sharded-sampling")
    cmd += ["--return-sampling-mask-logprobs"]
    return subprocess.run(cmd, check=True)


def adaptive_verification():
    os.execvp(
        "vllm",
        [
            "vllm",
            "serve",
            MODEL,
            "--return-sampling-mask",
            "--logprobs-mode=processed_logprobs",
            "--speculative-config",
            '{"method": "ngram", "num_speculative_tokens": 3, "enable_adaptive_verification": true}',
        ],
    )


def adaptive_as_dotted_option():
    flags = ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    flags += ["--speculative-config.method", "ngram", "--speculative-config.enable_adaptive_verification", "true"]
    return subprocess.Popen(["vllm", "serve", MODEL, *flags])


def shared_with_another_server():
    # SHARED also starts a server without replay: reported, not edited.
    subprocess.Popen(SHARED)
    return subprocess.Popen(SHARED + ["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"])


def handed_to_other_code():
    cmd = ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]
    cmd += ["--enable-batch-sharded-sampling"]
    LAUNCHED.append(cmd)  # kept elsewhere too: reported, not edited
    return subprocess.Popen(cmd)


LAUNCHED = []


def escaped_json():
    # Rewriting the string would change its escapes: reported, not edited.
    return subprocess.Popen(
        ["vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",
         "--speculative-config", "{\"method\": \"ngram\", \"enable_adaptive_verification\": true}"]
    )


def shell_string():
    # One string read by the shell: not a list to edit.
    return subprocess.check_call(f"vllm serve {MODEL} --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors a:B", shell=True)


async def separate_arguments():
    # Arguments of the call, not elements of a list: reported, not edited.
    await asyncio.create_subprocess_exec("vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-batch-sharded-sampling")


def tuples():
    cmd = ("vllm", "serve", MODEL, "--return-sampling-mask", "--logprobs-mode", "processed_logprobs")
    cmd += ("--enable-batch-sharded-sampling",)
    return subprocess.Popen(cmd)
