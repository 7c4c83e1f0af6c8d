#!/usr/bin/env bash
# target-version: 0.33
# vllm serve launches read like LLM(...): the same rules, the flag's position.
set -euo pipefail

MODEL=Qwen/Qwen3-8B

# The most common mistake: the mask without --logprobs-mode.
vllm serve "$MODEL" --tensor-parallel-size 2 --return-sampling-mask  # expect: VLM105:46

# Split over lines: the finding is on the flag's line.
vllm serve Qwen/Qwen3-8B \
  --port 8000 \
  --return-sampling-mask `# expect: VLM105:3` \
  --max-model-len 8192

# Fine: both flags, in either spelling and order.
vllm serve "$MODEL" --logprobs-mode processed_logprobs --return-sampling-mask
vllm serve "$MODEL" --return_sampling_mask --logprobs_mode=processed_logprobs
vllm serve --model "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs

# A wrong value is reported where it is written.
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode raw_logprobs  # expect: VLM105:44
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode=processed_logits  # expect: VLM105:44

# The last flag wins.
vllm serve "$MODEL" --return-sampling-mask --no-return-sampling-mask
vllm serve "$MODEL" --no-return-sampling-mask --return-sampling-mask  # expect: VLM105:47
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode raw_logprobs --logprobs-mode processed_logprobs

# Incompatible flags (0.33: only adaptive verification blocks speculative decoding).
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors my_pkg.lp:NoRepeat  # expect: VLM104:79
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs -tp 4 --enable-batch-sharded-sampling  # expect: VLM106:85
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs --enable-batch-sharded-sampling --disable-batch-sharded-sampling
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs \
  --speculative-config '{"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": true}'  # expect: VLM102:3
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs \
  --speculative-config '{"method": "dspark", "num_speculative_tokens": 4}'
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs \
  --speculative-config.method dspark --speculative-config.enable_adaptive_verification true  # expect: VLM102:3
vllm serve google/diffusiongemma-26B-A4B-it --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM103:12
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs --hf-overrides '{"canvas_length": 256}'  # expect: VLM103:79

# The runner variable: a prefix, env(1), an export, unset.
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101:48
env VLLM_USE_V2_MODEL_RUNNER=0 vllm serve "$MODEL" --enable-trace-replay  # expect: VLM107:32
export VLLM_USE_V2_MODEL_RUNNER=0
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101:21
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs
unset VLLM_USE_V2_MODEL_RUNNER
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs
# A feature that makes 0.33 fall back to Model Runner V1.
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs --spec-method suffix  # expect: VLM101:21

# Flags no release has.
vllm serve "$MODEL" --enable-return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM302:21
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs --return-sampling-mask-logprobs  # expect: VLM302:79

# Unknown words: an unquoted expansion where a flag stands may add any flag, so only what follows it is certain.
vllm serve "$MODEL" --return-sampling-mask $EXTRA_ARGS
vllm serve "$MODEL" ${EXTRA_ARGS:-} --return-sampling-mask
vllm serve "$MODEL" $EXTRA_ARGS --return-sampling-mask --logits-processors a:B  # expect: VLM104:56
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode "$MODE"
# The script's own arguments carry nothing it decides: reported, naming them.
vllm serve "$@" --return-sampling-mask  # expect: VLM105:17
# Where the model stands, a substitution is the model.
vllm serve $(cat model.txt) --return-sampling-mask  # expect: VLM105:29
# A variable the script set is known, and split into words.
FLAGS="--return-sampling-mask --enable-batch-sharded-sampling"
vllm serve "$MODEL" --logprobs-mode processed_logprobs $FLAGS  # expect: VLM106:56

# Other launchers of the same engine.
python -m vllm.entrypoints.openai.api_server --model "$MODEL" --return-sampling-mask  # expect: VLM105:63
python3 -u -m vllm.entrypoints.cli.main serve "$MODEL" --return-sampling-mask  # expect: VLM105:56
nohup vllm serve "$MODEL" --return-sampling-mask > server.log 2>&1 &  # expect: VLM105:27
uv run vllm serve "$MODEL" --return-sampling-mask | tee server.log  # expect: VLM105:28
bash -c "vllm serve $MODEL --return-sampling-mask"  # expect: VLM105:28
docker run --gpus all -e VLLM_USE_V2_MODEL_RUNNER=0 vllm/vllm-openai:v0.33.0 --model "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs  # expect: VLM101:95
python -m dynamo.vllm --model "$MODEL" --return-sampling-mask  # expect: VLM105:40
# The API server ignores a positional model (it serves --model): not a diffusion model here.
python -m vllm.entrypoints.openai.api_server google/diffusiongemma-26B-A4B-it --return-sampling-mask --logprobs-mode processed_logprobs

# Not vLLM engines: silent.
python -m sglang.launch_server --model-path "$MODEL" --return-sampling-mask
vllm bench serve --model "$MODEL" --return-sampling-mask
echo "vllm serve $MODEL --return-sampling-mask"
cat <<END_OF_NOTES
vllm serve $MODEL --return-sampling-mask
END_OF_NOTES
# vllm serve "$MODEL" --return-sampling-mask

# Branches: a variable keeps its value only when every branch agrees.
if [ -n "${USE_V1:-}" ]; then
  export VLLM_USE_V2_MODEL_RUNNER=0
fi
vllm serve "$MODEL" --return-sampling-mask --logprobs-mode processed_logprobs

start_server() {
  vllm serve "$1" --return-sampling-mask --logits-processors "$2"  # expect: VLM104:42, VLM105:19
}

# noqa on the flagged line.
vllm serve "$MODEL" --return-sampling-mask --enable-batch-sharded-sampling  # noqa: VLM105  # expect: VLM106:44
vllm serve "$MODEL" --return-sampling-mask  # noqa
