#!/usr/bin/env bash
# target-version: 0.33
# Servers started inside a running container (`docker exec NAME COMMAND`): the command runs
# there, with the container's environment and the vLLM of its image, which this script
# does not name, so only an option no release has is reported about its arguments.
set -euo pipefail
CONTAINER=${CONTAINER:-rl-dev}
pip install vllm==0.9.2  # the host's vLLM: not the container's

docker exec -it rl-dev bash -c '
export VLLM_LOGGING_LEVEL=INFO
echo "starting the policy server"
vllm serve /models/policy \
  --served-model-name policy \
  --dtype bfloat16 \
  --return-sampling-mask `# expect: VLM105:3` \
  --host 0.0.0.0 --port 8000
'

sudo docker exec -d "${CONTAINER}" bash -lc "
  source /opt/env/setup.sh
  python -u -m vllm.entrypoints.openai.api_server \
    --model /models/reward --port 8001 \
    --use-v2-block-manager \
    --max-num-seqs 64 \
    --gpu-memory-utilisation 0.85  # expect: VLM301:5
"

docker exec -e VLLM_USE_V2_MODEL_RUNNER=1 rl-dev vllm serve /models/policy --return-sampling-mask --logprobs-mode processed_logprobs

# Look-alikes: a benchmark client and another server in the same container.
docker exec -it rl-dev vllm bench serve --model /models/policy --num-prompts 16 --return-sampling-mask
docker exec rl-dev python -m sglang.launch_server --model-path /models/policy --return-sampling-mask
docker exec rl-dev bash -c 'tail -f /var/log/vllm.log'
