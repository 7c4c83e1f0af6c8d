#!/usr/bin/env bash
# target-version: 0.33
# Command texts in variables that give nothing: fixed, decided by a value from elsewhere,
# another server, or text this shell does not run as a command.

SERVE_CMD="vllm serve '${MODEL_DIR}' --port ${PORT} --return-sampling-mask --logprobs-mode processed_logprobs"
nohup bash -c "cd /srv && ${SERVE_CMD}" > serve.log 2>&1 &

# The logprobs mode comes from the caller's environment.
REPLAY_CMD="vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode ${LOGPROBS_MODE}"
bash -c "$REPLAY_CMD"

# Flags from elsewhere may set anything.
EXTRA_CMD="vllm serve Qwen/Qwen3-8B ${EXTRA_ARGS} --return-sampling-mask"
sh -c "$EXTRA_CMD"

# Only printed, never run.
SHOWN_CMD="vllm serve Qwen/Qwen3-8B --return-sampling-mask"
echo "to start the server: $SHOWN_CMD"
printf '%s\n' "$SHOWN_CMD" > commands.txt

# Look-alikes: other servers' commands in the same shapes.
TGI_CMD="text-generation-launcher --model-id ${MODEL_DIR} --port ${PORT} --return-sampling-mask"
bash -c "$TGI_CMD"
LMDEPLOY_CMD="lmdeploy serve api_server ${MODEL_DIR} --server-port ${PORT}"
LMDEPLOY_CMD="$LMDEPLOY_CMD --return-sampling-mask"
eval "$LMDEPLOY_CMD"
SGLANG_CMD="python3 -m sglang.launch_server --model-path ${MODEL_DIR} --return-sampling-mask"
exec $SGLANG_CMD
