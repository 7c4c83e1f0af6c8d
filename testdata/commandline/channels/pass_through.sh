#!/usr/bin/env bash
# target-version: 0.33
# A launcher script that forwards its own arguments: they carry nothing the
# script decides, so what it writes is checked, and the finding names them.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen3-8B}

vllm serve "$MODEL" --tensor-parallel-size 2 --return-sampling-mask "$@"  # expect: VLM105:46
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode raw_logprobs $@  # expect: VLM105:44
python3 -m vllm.entrypoints.openai.api_server --model "$MODEL" --return-sampling-mask "${@:2}"  # expect: VLM105:64

# The usual shape: a main function that gets the script's arguments.
main() {
  vllm serve "$MODEL" --port 8000 --return-sampling-mask --enable-batch-sharded-sampling "$@"  # expect: VLM105:35, VLM106:58
}
main "$@"

# Fixed: the same launches with what replay needs.
vllm serve "$MODEL" --tensor-parallel-size 2 --return-sampling-mask --logprobs-mode processed_logprobs "$@"
vllm serve "$MODEL" "$@" --return-sampling-mask --logprobs-mode processed_logprobs

# Written after the arguments: they cannot change it (and no assumption is named).
vllm serve "$MODEL" "$@" --return-sampling-mask --logprobs-mode processed_logits  # expect: VLM105:49

# A variable from the environment where flags stand: it may add --logprobs-mode.
vllm serve "$MODEL" --return-sampling-mask $VLLM_EXTRA_ARGS
vllm serve "$MODEL" --return-sampling-mask ${EXTRA_SERVE_FLAGS:-}

# A function the script calls with its own words: those words decide.
serve_replay() {
  vllm serve "$MODEL" --return-sampling-mask "$@"
}
serve_replay --logprobs-mode processed_logprobs

# Look-alikes: other servers forward arguments too.
python -m sglang.launch_server --model-path "$MODEL" --return-sampling-mask "$@"
text-generation-launcher --model-id "$MODEL" --return-sampling-mask "$@"
lmdeploy serve api_server "$MODEL" --return-sampling-mask "$@"
