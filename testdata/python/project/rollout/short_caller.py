from rollout.third_party.vllm import create_async_llm

if __name__ == "__main__":
    create_async_llm(model="Qwen/Qwen3-8B", return_sampling_mask=True)  # expect: VLM105
