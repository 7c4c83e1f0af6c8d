"""A Modal image built on a third party's vLLM build: its release is not named (older releases
than the rules know included) and its parser takes options of its own, so nothing that
depends on the release is reported."""

import subprocess

import modal

image = (
    modal.Image.from_registry("acme-audio/vllm:speech-v20250909", add_python="3.10")
    .pip_install("requests", "torchaudio")
)
app = modal.App("speech-serve")


@app.function(image=image, gpu="L40S")
@modal.web_server(port=8000, startup_timeout=600)
def serve():
    # --audio-parser is the fork's own option.
    subprocess.Popen(["vllm", "serve", "acme/speech-7b", "--tokenizer-mode", "speech", "--audio-parser", "speech"])


@app.function(image=image, gpu="L40S")
def offline(prompts: list[str]):
    from vllm import LLM

    # Not a finding: the fork's release may predate replay, and its defaults are its own.
    llm = LLM(model="acme/speech-7b", return_sampling_mask=True)
    return llm.generate(prompts)
