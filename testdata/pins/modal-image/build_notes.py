"""Look-alike: a helper of the project's own whose method happens to be called pip_install.
It builds no serverless image, so the folder's pin (0.34) stands."""

from vllm import LLM

from tools.envs import VirtualEnv

env = VirtualEnv("bench").pip_install("vllm==0.9.2")
llm = LLM(model="Qwen/Qwen2.5-7B-Instruct", num_scheduler_steps=8)  # expect: VLM301
