#!/usr/bin/env bash
# A setup function the script calls before it serves: the release it installs
# is the one the server runs.
set -euo pipefail

setup_env() {
    python -m pip install --upgrade pip
    pip install "vllm==0.10.1" flashinfer-python
}

install_extras() {
    pip install vllm==0.34.0
}

setup_env
vllm serve Qwen/Qwen3-8B --port 8000 --return-sampling-mask  # expect: VLM301

# Called only when a flag is given: it may not run, and decides nothing.
if [ -n "${UPGRADE:-}" ]; then
    install_extras
fi
vllm serve Qwen/Qwen3-8B --port 8001 --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM301
