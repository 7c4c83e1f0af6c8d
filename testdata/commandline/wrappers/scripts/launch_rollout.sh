#!/usr/bin/env bash
# target-version: 0.33
# The project's own server modules take vLLM's flags like `vllm serve`.
set -euo pipefail
MODEL=Qwen/Qwen3-8B

python -m rollout.serving.openai_server --model "$MODEL" --port 8100 --return-sampling-mask  # expect: VLM105:70
python3 -u -m rollout.serving.openai_server --model "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs --enable-batch-sharded-sampling  # expect: VLM106:120
uv run python src/rollout/serving/openai_server.py --model "$MODEL" --return-sampling-mask  # expect: VLM105:69
# The positional model is served only when the module copies model_tag; this one
# also sets VLLM_USE_V2_MODEL_RUNNER=0 unless the caller set it.
python -m rollout.serving.model_tag_server google/diffusiongemma-26B-A4B-it --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101:77, VLM103:44
VLLM_USE_V2_MODEL_RUNNER=1 python -m rollout.serving.model_tag_server "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs
# ... and it assigns logits_processors itself: what the flag says is not what runs.
VLLM_USE_V2_MODEL_RUNNER=1 python -m rollout.serving.model_tag_server "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors a:B
python -m rollout.serving.openai_server google/diffusiongemma-26B-A4B-it --return-sampling-mask --logprobs-mode processed_logprobs

# Not wrappers we read: silent.
python -m rollout.serving.config_server --model "$MODEL" --return-sampling-mask
python -m rollout.serving.sglang_server --model-path "$MODEL" --return-sampling-mask
python -m rollout.serving.client --return-sampling-mask
python -m rollout.serving.missing_module --return-sampling-mask
python scripts/no_such_server.py --return-sampling-mask
