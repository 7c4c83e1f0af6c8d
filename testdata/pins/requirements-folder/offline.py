from vllm import LLM

# requirements/gpu.txt pins the project beside it.
llm = LLM(model="facebook/opt-125m", task="generate")
legacy = LLM(model="facebook/opt-125m", use_v2_block_manager=True)  # expect: VLM301
