#!/usr/bin/env bash
# target-version: 0.33
# A command assembled in a variable, one arm per serving framework, then run by another
# shell: each arm that may set it is read as its own command.
set -euo pipefail

SETTINGS=/workspace/run.json
MODEL_DIR=$(jq -r .model_dir "$SETTINGS")
SERVED_NAME=$(jq -r .served_name "$SETTINGS")
PORT=$(jq -r .port "$SETTINGS")
TP=$(jq -r .tensor_parallel "$SETTINGS")
ENGINE=$(jq -r .engine "$SETTINGS")
REASONING=$(jq -r .reasoning "$SETTINGS")

if [ "$ENGINE" = "vllm" ]; then
    SERVE_CMD="vllm serve '${MODEL_DIR}' \
        --host 0.0.0.0 \
        --port ${PORT} \
        --served-model-name '${SERVED_NAME}' \
        --tensor-parallel-size ${TP} \
        --return-sampling-mask"  # expect: VLM105:9

    if [ "$REASONING" = "true" ]; then
        SERVE_CMD="$SERVE_CMD --reasoning-parser deepseek_r1"
    fi
elif [ "$ENGINE" = "tgi" ]; then
    # Look-alike: another server's launcher with the same flag.
    SERVE_CMD="text-generation-launcher --model-id '${MODEL_DIR}' --port ${PORT} --return-sampling-mask"
else
    # Look-alike: SGLang.
    SERVE_CMD="python3 -m sglang.launch_server \
        --model-path '${MODEL_DIR}' \
        --port ${PORT} \
        --tp ${TP} \
        --return-sampling-mask"
fi

echo "starting: ${SERVE_CMD}"
nohup bash -c "cd /workspace && ${SERVE_CMD}" > /workspace/logs/serve.log 2>&1 &
echo $! > /workspace/serve.pid
