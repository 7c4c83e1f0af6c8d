#!/usr/bin/env bash
# target-version: 0.33
# Unquoted variables and substitutions that stand as one value (an option that
# takes one value, or the model) are that one value: the flags stay certain.
model_path=${1:-Qwen/Qwen3-8B}
vllm serve ${model_path} --port ${PORT} --return-sampling-mask  # expect: VLM105:41

gpu_id=${GPU_ID:-0}
port=$((30000 + gpu_id))
CUDA_VISIBLE_DEVICES=$gpu_id vllm serve $model_path --port ${port} \
  --host $(hostname -i) --gpu-memory-utilization $MEM_FRACTION \
  --return-sampling-mask --logprobs-mode raw_logprobs `# expect: VLM105:26`

vllm serve `cat model.txt` --served-model-name policy --return-sampling-mask -tp $TP  # expect: VLM105:55

# Fixed.
vllm serve ${model_path} --port ${PORT} --return-sampling-mask --logprobs-mode processed_logprobs
vllm serve $model_path --port=$port --return-sampling-mask --logprobs-mode=${LOGPROBS_MODE}

# Where a flag's name stands, an expansion may be any number of flags.
vllm serve ${model_path} $SERVE_FLAGS --return-sampling-mask
vllm serve ${model_path} --enforce-eager $(extra_flags) --return-sampling-mask
# An option that takes several values (nargs='+') takes the variable's words as more
# values, not as flags.
vllm serve ${model_path} --served-model-name $NAMES --return-sampling-mask  # expect: VLM105:53
vllm serve ${model_path} --served-model-name ${model_name} policy --return-sampling-mask --logprobs-mode processed_logprobs
vllm serve ${model_path} --api-key $API_KEYS --return-sampling-mask  # expect: VLM105:46

# Look-alikes with the same shapes.
python -m sglang.launch_server --model-path ${model_path} --port ${port} --return-sampling-mask
text-generation-launcher --model-id ${model_path} --port ${PORT} --return-sampling-mask
