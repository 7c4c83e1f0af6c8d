"""Start-up checks between engine arguments, as vLLM 0.34's config classes raise them."""
# target-version: 0.34
import os

from vllm import LLM, EngineArgs, SamplingParams

MODEL = "Qwen/Qwen3-8B"

# Elastic expert parallelism rebalances experts: it needs EPLB.
elastic = LLM("Qwen/Qwen3-30B-A3B", tensor_parallel_size=2, enable_elastic_ep=True)  # expect: VLM401:61
elastic_eplb = LLM(
    "Qwen/Qwen3-30B-A3B", tensor_parallel_size=2, enable_elastic_ep=True, enable_eplb=True, enable_expert_parallel=True
)

# EPLB without expert parallelism: the LLM class rejects data parallelism first, both are reported.
moe = LLM("Qwen/Qwen3-30B-A3B", data_parallel_size=2, enable_eplb=True)  # expect: VLM401, VLM403
moe_ep = LLM("Qwen/Qwen3-30B-A3B", tensor_parallel_size=2, enable_eplb=True, enable_expert_parallel=True)

# Data parallelism in one process: only the LLM class refuses it.
dp = LLM(MODEL, data_parallel_size=4)  # expect: VLM403:17
dp_external = LLM(MODEL, data_parallel_size=4, distributed_executor_backend="external_launcher")

# Checkpoint preparation happens while the engine sleeps.
prepared = LLM(MODEL, checkpoint_prepare_on_startup=True)  # expect: VLM404:23
sleeping = LLM(MODEL, checkpoint_prepare_on_startup=True, enable_sleep_mode=True)

# Tracing details need somewhere to send them.
traced = LLM(MODEL, collect_detailed_traces=["model"])  # expect: VLM405
exported = LLM(MODEL, collect_detailed_traces=["model"], otlp_traces_endpoint="http://otel:4317")

# Fault tolerance runs with an external load balancer only.
tolerant = LLM(MODEL, enable_fault_tolerance=True)  # expect: VLM402

# Multi-node launches: the MP backend, and a world size the nodes divide.
two_nodes = LLM(MODEL, tensor_parallel_size=2, nnodes=2, data_parallel_backend="ray")  # expect: VLM402
two_nodes_mp = LLM(MODEL, tensor_parallel_size=2, nnodes=2, node_rank=1)

# A data-parallel rank switches vLLM to external load balancing, which needs more than one
# data-parallel rank; with data_parallel_size 1 the config falls back to $VLLM_DP_SIZE (unset).
ranked = LLM(MODEL, data_parallel_rank=1)  # expect: VLM401:21
external = LLM(MODEL, data_parallel_external_lb=True, data_parallel_rank=0)  # expect: VLM401:23
external_dp = EngineArgs(model=MODEL, data_parallel_size=2, data_parallel_external_lb=True, data_parallel_rank=0)


def spmd_rank() -> LLM:
    """Offline SPMD data parallelism: the size comes from the environment."""
    os.environ["VLLM_DP_SIZE"] = "2"
    return LLM(MODEL, data_parallel_rank=1)


# More local data-parallel ranks than ranks in all.
local_dp = LLM(MODEL, data_parallel_size_local=2)  # expect: VLM401:23
local_dp_ok = EngineArgs(model=MODEL, data_parallel_size=2, data_parallel_size_local=2)

# Decode context parallelism splits the tensor-parallel ranks.
dcp = LLM(MODEL, tensor_parallel_size=2, decode_context_parallel_size=4)  # expect: VLM401:18
# A model with latent attention (DeepSeek's MLA): grouped-query KV heads do not bound the size.
dcp_ok = LLM("deepseek-ai/DeepSeek-V2-Lite", tensor_parallel_size=4, decode_context_parallel_size=2)

# A dict-built config: a key of compilation_config.
budget = LLM(MODEL, compilation_config={"encoder_cudagraph_max_token_budget": 0})  # expect: VLM406
budget_ok = LLM(MODEL, compilation_config={"encoder_cudagraph_max_token_budget": 4096})

# Nsight profiles Ray workers: one GPU picks the "uni" executor, an explicit "mp" is not Ray.
nsight = LLM(MODEL, ray_workers_use_nsight=True)  # expect: VLM401
nsight_mp = LLM(MODEL, tensor_parallel_size=2, ray_workers_use_nsight=True, distributed_executor_backend="mp")  # expect: VLM401
nsight_ray = LLM(MODEL, ray_workers_use_nsight=True, distributed_executor_backend="ray")
# Two GPUs and no backend: vLLM picks Ray or multiprocessing by what it finds running.
nsight_tp = LLM(MODEL, tensor_parallel_size=2, ray_workers_use_nsight=True)

# Dual-batch overlap splits a batch in two: each threshold must reach the microbatch count.
dbo = LLM(MODEL, enable_dbo=True, dbo_decode_token_threshold=1)  # expect: VLM401
dbo_ok = LLM(MODEL, enable_dbo=True, dbo_decode_token_threshold=2)
dbo_off = LLM(MODEL, dbo_decode_token_threshold=1)

# Speculative decoding: EAGLE heads and draft models are checkpoints of their own; n-gram
# lookup needs none.
eagle = LLM(MODEL, speculative_config={"method": "eagle3", "num_speculative_tokens": 3})  # expect: VLM406
draft = LLM(MODEL, speculative_config={"method": "draft_model", "num_speculative_tokens": 2})  # expect: VLM406
eagle_head = LLM(MODEL, speculative_config={"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})
eagle_no_tokens = LLM(MODEL, speculative_config={"method": "eagle3"})
# No method and no model: vLLM takes it for a draft model, and there is none.
tokens_only = LLM(MODEL, speculative_config={"num_speculative_tokens": 2})  # expect: VLM406
draft_given = LLM(MODEL, speculative_config={"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 2})
ngram = LLM(MODEL, speculative_config={"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4})
# MTP drafts from the target's own layers: vLLM hands the target's config to the speculative one.
mtp = LLM("deepseek-ai/DeepSeek-V3", speculative_config={"method": "mtp", "num_speculative_tokens": 1})
# A speculators-format checkpoint as the model brings its own method and draft model (vLLM
# reads them from its config.json first): a model named as one, or from elsewhere, may be one.
speculators = LLM("RedHatAI/Llama-3.1-8B-Instruct-speculator.eagle3", speculative_config={"num_speculative_tokens": 3})
served = LLM(os.environ["MODEL_PATH"], speculative_config={"method": "eagle3", "num_speculative_tokens": 3})

# Unknown values mean silence.
world = int(os.environ.get("DP", "1"))
from_env = LLM(MODEL, data_parallel_size=world, ray_workers_use_nsight=bool(os.environ.get("NSIGHT")))
settings = {"checkpoint_prepare_on_startup": True}
settings.update(dict(os.environ))
from_dict = LLM(MODEL, **settings)

params = SamplingParams(temperature=0.7)


class LLMClient:
    """Not vLLM's LLM: a client with the same keyword names."""

    def __init__(self, model, **kwargs):
        self.model = model


def LLM_for_serving(model, **kwargs):  # noqa: N802
    return LLMClient(model, **kwargs)


client = LLM_for_serving(MODEL, data_parallel_size=4, checkpoint_prepare_on_startup=True)
