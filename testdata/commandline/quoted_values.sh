#!/usr/bin/env bash
# target-version: 0.33
# A quoted variable is exactly one word: after an option that takes one value
# (any `vllm serve` option of the release, not only the replay ones) it is
# that value, and the rest of the command line stays certain.
set -euo pipefail
: "${MODEL:=Qwen/Qwen3-8B}"
PORT=${PORT:-8000}

vllm serve "$MODEL" --port "$PORT" --return-sampling-mask  # expect: VLM105:36
vllm serve "$MODEL" \
  --host "$(hostname -I | cut -d' ' -f1)" \
  --tensor-parallel-size "${TP}" \
  --gpu-memory-utilization "$GPU_UTIL" \
  --served-model-name policy \
  --return-sampling-mask `# expect: VLM105:3` \
  --logits-processors my_pkg.lp:NoRepeat  # expect: VLM104:3
python -m vllm.entrypoints.openai.api_server --model "$MODEL" --max-model-len "$MAX_LEN" --return-sampling-mask  # expect: VLM105:90
vllm serve "$MODEL" --port="$PORT" --return-sampling-mask --logprobs-mode raw_logprobs  # expect: VLM105:59

# Fine: the value is written.
vllm serve "$MODEL" --port "$PORT" --return-sampling-mask --logprobs-mode processed_logprobs
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode "$LOGPROBS_MODE"

# Unquoted, a variable or substitution that stands as one value is that one value too:
# splitting it into more flags is not what anyone writes.
vllm serve $MODEL --port $PORT --return-sampling-mask  # expect: VLM105:32
vllm serve ${MODEL} --host $(hostname -i) --port=${PORT} -tp ${TP} --return-sampling-mask  # expect: VLM105:68
WORKER_PORT=$((PORT + 1))  # a number: one word, whatever the reading
vllm serve "$MODEL" --port $WORKER_PORT --return-sampling-mask  # expect: VLM105:41
# After an option that takes several values (nargs='+'), a quoted variable is one more value.
vllm serve "$MODEL" --served-model-name a "$ALIAS" --return-sampling-mask  # expect: VLM105:52

# Unknown: a quoted variable where a flag's name stands may be any flag
# (`--logprobs-mode`, taking the next word), and an unquoted one any number of words.
vllm serve "$MODEL" --enforce-eager "$EXTRA_FLAG" --return-sampling-mask
vllm serve "$MODEL" "$EXTRA_FLAG" --return-sampling-mask
vllm serve "$MODEL" --enforce-eager $EXTRA_FLAGS --return-sampling-mask
vllm serve "$MODEL" --port $PORT_ARGS --return-sampling-mask  # its name says it holds several words
# An option that takes an optional value may or may not take the variable.
vllm serve "$MODEL" --hf-token "$HF_TOKEN" --return-sampling-mask
# Dynamo's worker has options of its own: not read with vLLM's table.
python -m dynamo.vllm --model "$MODEL" --endpoint "$ENDPOINT" --return-sampling-mask
# SGLang has a --port too.
python -m sglang.launch_server --model-path "$MODEL" --port "$PORT" --return-sampling-mask
