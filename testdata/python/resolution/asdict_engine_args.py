"""Engines built from ``dataclasses.asdict`` of vLLM's ``EngineArgs``, as vLLM's multimodal
examples do: the dict holds every field (the unwritten ones at their defaults), so a setting the
arguments object does not write is reported, and fixed, at the arguments object."""
import argparse
from dataclasses import asdict

from vllm import LLM, EngineArgs, SamplingParams


def make_engine_args(model_name: str, max_num_seqs: int = 2) -> EngineArgs:
    return EngineArgs(  # expect: VLM105
        model=model_name,
        max_model_len=8192,
        max_num_seqs=max_num_seqs,
        limit_mm_per_prompt={"image": 1},
        return_sampling_mask=True,
    )


def run_image_inference(model_name: str, prompts: list[str]):
    engine_args = make_engine_args(model_name)
    # Extra runtime options (seed, multimodal cache) merged over the arguments.
    engine_args_dict = asdict(engine_args) | {"seed": 1234, "mm_processor_cache_gb": 4}
    llm = LLM(**engine_args_dict)
    return llm.generate(prompts, SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=512))


def run_replay_ready(model_dir: str, prompts: list[str]):
    engine_args = EngineArgs(
        model=model_dir,
        max_model_len=32768,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    llm = LLM(**{**asdict(engine_args), "seed": 0})
    return llm.generate(prompts, SamplingParams(temperature=0.7, top_k=50, max_tokens=256))


def run_from_command_line(prompts: list[str]):
    parser = argparse.ArgumentParser()
    EngineArgs.add_cli_args(parser)
    engine_args = EngineArgs.from_cli_args(parser.parse_args())
    engine_args.return_sampling_mask = True
    # Every other setting comes from the command line: unknown here.
    llm = LLM(**asdict(engine_args))
    return llm.generate(prompts)
