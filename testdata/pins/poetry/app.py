from vllm.engine.arg_utils import AsyncEngineArgs

args = AsyncEngineArgs(model="m", task="generate", guided_decoding_backend="xgrammar")
broken = AsyncEngineArgs(model="m", num_scheduler_steps=8)  # expect: VLM301
