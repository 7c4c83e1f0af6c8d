from vllm import LLM, SamplingParams

# vLLM 0.10 (the wheel's file name): --task still exists, the v2 block manager switch is gone.
generator = LLM(model="Qwen/Qwen2.5-1.5B-Instruct", task="generate")
legacy = LLM(model="Qwen/Qwen2.5-1.5B-Instruct", use_v2_block_manager=True)  # expect: VLM301
outputs = generator.generate(["2 + 2 ="], SamplingParams(max_tokens=8))
