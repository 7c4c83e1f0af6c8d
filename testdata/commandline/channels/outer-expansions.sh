#!/usr/bin/env bash
# target-version: 0.33
# A script handed to another shell (`sh -c "..."`, `docker exec NAME bash -lc "..."`):
# what this shell expands inside the double quotes (`${PORT}`, `$(cat token)`) is a value
# of the script that vllm-lint cannot read; the script's words around it are read.
set -euo pipefail
source ./env.sh

sh -c "HF_TOKEN=$(cat /secrets/hf_token) vllm serve Qwen/Qwen3-8B --port ${PORT} --return-sampling-mask"  # expect: VLM105:82

docker exec -d "${CONTAINER}" bash -lc "
  set -e
  source \"${WORKSPACE}/setup_env.sh\"
  export CUDA_VISIBLE_DEVICES=${GPUS}
  python -u -m vllm.entrypoints.openai.api_server \
    --host ${HOST} --port ${PORT} \
    --model ${MODEL_PATH} \
    --served-model-name ${SERVED_NAME} \
    --max_num_seqs 128 \
    --return-sampling-mask  # expect: VLM105:5
"

# Fixed, or decided by what the outer shell expands.
sh -c "vllm serve Qwen/Qwen3-8B --port ${PORT} --return-sampling-mask --logprobs-mode processed_logprobs"
sh -c "vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode ${LOGPROBS_MODE}"
sh -c "vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode '${LOGPROBS_MODE}'"
sh -c "vllm serve Qwen/Qwen3-8B ${EXTRA_ARGS} --return-sampling-mask"
sh -c "vllm serve Qwen/Qwen3-8B --port ${PORT_ARGS} --return-sampling-mask"

# Look-alikes: other servers in the same shapes.
sh -c "python -m sglang.launch_server --model-path ${MODEL_PATH} --port ${PORT} --return-sampling-mask"
docker exec -d "${CONTAINER}" bash -lc "lmdeploy serve api_server ${MODEL_PATH} --return-sampling-mask"
