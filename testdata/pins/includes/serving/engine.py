from vllm import LLM

# vllm comes from ../common/base.txt, constrained by ../common/constraints.txt to 0.10.2.
llm = LLM(model="Qwen/Qwen3-4B", task="generate", preemption_mode="swap")
legacy = LLM(model="Qwen/Qwen3-4B", enable_reasoning=True)  # expect: VLM301
