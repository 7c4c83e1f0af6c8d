#!/bin/bash
# target-version: 0.34
# A pip install before a launch decides the release it runs, when it surely runs.
if ! pip show vllm > /dev/null 2>&1; then
    pip install vllm==0.8.5  # only when vLLM is missing: the installed one may be any release
fi
pip show vllm > /dev/null || pip install vllm==0.9.2
vllm serve facebook/opt-125m --runner pooling

pip install "vllm==0.9.2" && vllm serve facebook/opt-125m --runner pooling  # expect: VLM301
