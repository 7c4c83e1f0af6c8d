#!/usr/bin/env bash
# target-version: 0.33
# A command text built piece by piece (`cmd+=" --flag"`, `CMD="$CMD --flag"`), pieces under a
# test no one can decide included, then run by `bash -c "$cmd"`, `eval "$CMD"` or `exec $CMD`.

launch_replica() {
    local replica=$1
    local port=$2
    local devices=$3
    local serve_cmd="vllm serve"
    serve_cmd+=" \"$CHECKPOINT\""
    serve_cmd+=" --port $port"
    serve_cmd+=" --host $BIND_ADDR"
    if [[ -n "$DTYPE" ]]; then
        serve_cmd+=" --dtype $DTYPE"
    fi
    if [[ "$REPLAY" == "true" ]]; then
        serve_cmd+=" --return-sampling-mask"  # expect: VLM105:22
    fi
    CUDA_VISIBLE_DEVICES="$devices" nohup bash -c "$serve_cmd" > "logs/replica_${replica}.log" 2>&1 &
    echo $! > "logs/replica_${replica}.pid"
}

for ((i = 0; i < REPLICAS; i++)); do
    launch_replica "$i" $((8000 + i)) "$i"
done

run_local() {
    SERVER_CMD="vllm serve $MODEL"
    SERVER_CMD="$SERVER_CMD --port ${SERVER_PORT:-8000}"
    SERVER_CMD="$SERVER_CMD --max-model-len ${MAX_LEN:-32768}"
    if [ "$CPU_ONLY" = true ]; then
        SERVER_CMD="$SERVER_CMD --cpu-offload-gb 16"
    else
        SERVER_CMD="$SERVER_CMD --gpu-memory-utilization 0.9 --return-sampling-mask"  # expect: VLM105:62
    fi
    echo "Command: $SERVER_CMD"
    exec $SERVER_CMD
}

run_pinned() {
    local cmd="vllm serve Qwen/Qwen3-8B --port 8100 --return-sampling-mask"  # expect: VLM105:53
    echo "$cmd"
    eval "$cmd"
}

case "${1:-local}" in
    local) run_local ;;
    pinned) run_pinned ;;
esac
