#!/bin/bash
# Evaluation with the trainer's own launcher; generation runs vLLM inside it.
python -m evalkit.run \
  --config eval-suite.yaml \
  --backend vllm
