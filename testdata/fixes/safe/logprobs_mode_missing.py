"""VLM105: a missing logprobs_mode is added to the call that turns replay on."""
from vllm import LLM, AsyncEngineArgs, AsyncLLMEngine, EngineArgs, LLMEngine
from vllm.config import ModelConfig, VllmConfig

MODEL = "Qwen/Qwen3-4B"

# One line: the keyword goes right after return_sampling_mask.
policy = LLM(MODEL, return_sampling_mask=True)

# One keyword per line, with a trailing comma: a line of its own.
reference = LLM(
    model=MODEL,
    return_sampling_mask=True,  # replay for the trainer
    tensor_parallel_size=2,
)

# Last argument, no trailing comma.
critic_args = EngineArgs(
    model=MODEL,
    return_sampling_mask=True
)
critic = LLMEngine.from_engine_args(critic_args)

# The closing bracket on the last argument's line.
actor_args = AsyncEngineArgs(model=MODEL,
                             return_sampling_mask=True)
actor = AsyncLLMEngine.from_engine_args(actor_args)

# Single quotes elsewhere in the call are kept for the new value.
quoted = LLM(model='Qwen/Qwen3-4B', return_sampling_mask=True, seed=0)

# The mask comes from a dict: the keyword is added to the call.
kwargs = {"model": MODEL, "return_sampling_mask": True}
from_dict = LLM(**kwargs)

# VllmConfig: the model config holds the replay flags.
config = VllmConfig(model_config=ModelConfig(model=MODEL, return_sampling_mask=True))
