"""Engines started in child processes and worker pools: the function runs with the arguments
the deferring call hands it, as a direct call would."""
import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor
from threading import Thread

import submitit
from vllm import LLM, SamplingParams


def run_engine(gpu_id, engine_kwargs, prompts, results):
    llm = LLM(**engine_kwargs, return_sampling_mask=True)  # expect: VLM105
    results[gpu_id] = llm.generate(prompts, SamplingParams(temperature=0.7, top_k=50))


def run_checked_engine(engine_kwargs, prompts):
    llm = LLM(**engine_kwargs, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    return llm.generate(prompts)


def run_cluster_engine(engine_kwargs):
    llm = LLM(**engine_kwargs, return_sampling_mask=True)
    return llm.generate(["ping"])


def generate_isolated(model, prompts):
    ctx = mp.get_context("spawn")
    results = ctx.Manager().dict()
    engine_kwargs = {"model": model, "gpu_memory_utilization": 0.85, "enforce_eager": True}
    workers = [
        ctx.Process(target=run_engine, args=(gpu, dict(engine_kwargs, seed=gpu), prompts, results))
        for gpu in range(2)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    watcher = Thread(target=run_checked_engine, kwargs={"engine_kwargs": engine_kwargs, "prompts": prompts})
    watcher.start()
    with ProcessPoolExecutor(max_workers=1) as executor:
        future = executor.submit(run_checked_engine, {"model": model, "max_model_len": 4096}, prompts)
    return dict(results), future.result()


def generate_on_cluster(model):
    # submitit's executor runs the function on a cluster node: a call the project does not show.
    executor = submitit.AutoExecutor(folder="logs")
    return executor.submit(run_cluster_engine, {"model": model})
