"""A launchpad program: each node constructs its class later, in its own process, with the
arguments written here."""
import json

import launchpad as lp
from launchpad.nodes.python import local_multi_processing

from inference.nodes.generation_actor import GenerationActor
from inference.nodes.scoring_actor import ScoringActor
from inference.nodes.sglang_actor import SglangActor


class ShmServer:
    def __init__(self, size_mb):
        self.size_mb = size_mb


def get_program(args, actor_cls=GenerationActor):
    program = lp.Program("rollout")
    ipc_server = program.add_node(lp.CourierNode(ShmServer, size_mb=args.shm_size_mb), label="ipc")
    vllm_args = {
        "model": args.pretrain,
        "trust_remote_code": True,
        "tensor_parallel_size": args.num_gpus_per_actor,
        "gpu_memory_utilization": args.vllm_gpu_ratio,
        "dtype": "bfloat16" if args.bf16 else "float16",
        "enable_prefix_caching": args.enable_prefix_caching,
    }
    resources = {}
    for i in range(args.num_actors):
        label = f"actor_{i}"
        program.add_node(lp.CourierNode(actor_cls, ipc_server, vllm_args, args), label=label)  # expect: VLM105
        resources[label] = local_multi_processing.PythonProcess(env={"CUDA_VISIBLE_DEVICES": str(i)})
    program.add_node(lp.CourierNode(GenerationActor, ipc_server, dict(vllm_args), args), label="eval_actor")  # expect: VLM105
    return program, resources


def get_scoring_program(config_path):
    program = lp.Program("scoring")
    with open(config_path) as f:
        program.add_node(lp.CourierNode(ScoringActor, json.load(f)), label="scorer")
    return program


def get_preference_program(args, actor_cls):
    program = lp.Program("preference")
    vllm_args = {"model": args.pretrain, "tensor_parallel_size": args.num_gpus_per_actor}
    for i in range(args.num_actors):
        program.add_node(lp.CourierNode(actor_cls, None, vllm_args, args), label=f"actor_{i}")  # expect: VLM105
    checked_args = dict(vllm_args, logprobs_mode="processed_logprobs")
    program.add_node(lp.CourierNode(actor_cls, None, checked_args, args), label="checked_actor")
    program.add_node(lp.CourierNode(SglangActor, {"model_path": args.pretrain}), label="sglang_actor")
    return program
