"""A vision-language example: the arguments object, merged with runtime options, builds the engine."""
from dataclasses import asdict

from vllm import LLM, EngineArgs, SamplingParams


def main(image_path: str, question: str, seed: int = 0):
    engine_args = EngineArgs(
        model="Qwen/Qwen2.5-VL-7B-Instruct",
        max_model_len=32768,
        max_num_seqs=5,
        limit_mm_per_prompt={"image": 1},
        return_sampling_mask=True,  # replay the sampled nucleus
    )
    engine_args = asdict(engine_args) | {"seed": seed}
    llm = LLM(**engine_args)
    params = SamplingParams(temperature=0.7, top_k=20, max_tokens=1024)
    return llm.generate({"prompt": question, "multi_modal_data": {"image": image_path}}, params)
