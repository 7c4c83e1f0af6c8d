#!/bin/bash
# target-version: 0.9
# vLLM 0.9 gives a Literal its choices even beside torch.device or type[ExecutorBase] in the union.
vllm serve Qwen/Qwen3-8B --device gpu  # expect: VLM303
vllm serve Qwen/Qwen3-8B --device cuda
vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --distributed-executor-backend multiprocessing  # expect: VLM303
vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --distributed-executor-backend mp
# --lora-modules has its own argparse.Action: there is no --no-lora-modules.
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --no-lora-modules  # expect: VLM301
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --lora-modules sql-lora=/adapters/sql
