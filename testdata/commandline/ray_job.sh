#!/bin/bash
# target-version: 0.33
# ray job submit runs the command after "--" as a Ray job: in the cluster's environment and the
# job's runtime environment, so what this script exports does not reach it.
set -e
MODEL=Qwen/Qwen3-8B
export VLLM_USE_V2_MODEL_RUNNER=0

ray job submit --address="http://127.0.0.1:8265" --no-wait -- vllm serve "$MODEL" --return-sampling-mask  # expect: VLM105:83
ray job submit --address="$RAY_ADDRESS" --runtime-env-json='{"working_dir": "."}' -- \
    python3 -m vllm.entrypoints.openai.api_server --model "$MODEL" --return-sampling-mask --logprobs-mode raw_logprobs  # expect: VLM105:91

# The exported variable stays behind: fine as far as anything here can tell.
ray job submit --address="http://127.0.0.1:8265" -- vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs
# What vllm serve would be told without a Ray job: the exported variable reaches it.
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101:21

# Other ray commands, another engine, and a job whose command is not marked with "--".
ray start --head --port=6379
ray job submit --address="http://127.0.0.1:8265" -- python3 -m sglang.launch_server --model-path "$MODEL" --return-sampling-mask
ray job submit --address="http://127.0.0.1:8265" vllm serve "$MODEL" --return-sampling-mask
ray job logs raysubmit_123 -- vllm serve "$MODEL" --return-sampling-mask

# The job's runtime environment sets the variable: Model Runner V1 for the job.
ray job submit --address="http://127.0.0.1:8265" --runtime-env-json '{"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0"}}' -- \
    vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101
ray job submit --runtime-env-json='{"pip": ["vllm==0.33.0"], "env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "1"}}' -- \
    vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs

# The job's runtime environment installs its own vLLM: 0.10 runs the command.
ray job submit --runtime-env-json '{"pip": ["vllm==0.10.2"]}' -- vllm serve "$MODEL" --task generate --num-scheduler-steps 8  # expect: VLM301
ray job submit --runtime-env-json '{"pip": {"packages": ["vllm==0.10.2"]}}' -- vllm serve "$MODEL" --task generate --preemption-mode swap
