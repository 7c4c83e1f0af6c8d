#!/bin/bash
# target-version: 0.33
# sudo before the server: its options are skipped; without -E the command
# starts in a fresh environment, so what the script exported does not reach it.
set -e
MODEL=Qwen/Qwen3-8B
export VLLM_USE_V2_MODEL_RUNNER=0

sudo -u vllm -H vllm serve "$MODEL" --port 8000 --return-sampling-mask  # expect: VLM105:49
sudo --user=vllm --chdir /srv/vllm -- vllm serve "$MODEL" --return-sampling-mask --logits-processors a.b:C  # expect: VLM104:82, VLM105:59
sudo -E vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101:29
sudo -nE -u vllm vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101:38
sudo --preserve-env=VLLM_USE_V2_MODEL_RUNNER,HF_HOME vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101:74
sudo VLLM_USE_V2_MODEL_RUNNER=0 nohup vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs &  # expect: VLM101:59

# The exported variable stays behind: fine as far as anything here can tell.
sudo vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs
sudo -u vllm vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs
sudo --preserve-env=HF_HOME vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs

# sudo running something else, or running a shell we do not follow.
sudo systemctl restart vllm --return-sampling-mask
sudo python -m sglang.launch_server --model-path "$MODEL" --return-sampling-mask
sudo -i vllm serve "$MODEL" --return-sampling-mask
sudo -s vllm serve "$MODEL" --return-sampling-mask
sudo -u "$SERVICE_USER" vllm serve "$MODEL" --return-sampling-mask  # expect: VLM105:45
sudo $SUDO_FLAGS vllm serve "$MODEL" --return-sampling-mask
