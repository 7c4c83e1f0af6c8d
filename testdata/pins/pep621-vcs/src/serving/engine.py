from vllm import AsyncEngineArgs

args = AsyncEngineArgs(model="mistralai/Mistral-7B-Instruct-v0.3", task="generate")
legacy = AsyncEngineArgs(model="mistralai/Mistral-7B-Instruct-v0.3", tokenizer_pool_size=4)  # expect: VLM301
