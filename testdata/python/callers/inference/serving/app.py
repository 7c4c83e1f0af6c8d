import os

from inference.serving.deployment import LLMServer, TunedServer

app = LLMServer.bind(model=os.environ["MODEL_ID"], tensor_parallel_size=int(os.environ.get("TP", "1")))
small = LLMServer.options(num_replicas=2).bind(model="Qwen/Qwen3-0.6B", max_model_len=8192)
tuned = TunedServer.bind(model="Qwen/Qwen3-4B", logprobs_mode="processed_logprobs")
tuned_from_env = TunedServer.bind(model="Qwen/Qwen3-4B", logprobs_mode=os.environ["LOGPROBS_MODE"])
