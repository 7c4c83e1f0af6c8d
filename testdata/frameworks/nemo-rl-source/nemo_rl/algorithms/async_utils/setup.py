"""Builds the cluster, the policy and its vLLM generation workers for asynchronous GRPO."""
from typing import Any, TypedDict

from nemo_rl.models.generation.vllm import VllmGeneration


class MasterConfig(TypedDict):
    policy: dict[str, Any]
    cluster: dict[str, Any]


def setup_async(master_config: MasterConfig, cluster: Any) -> Any:
    generation_config = master_config["policy"]["generation"]
    return VllmGeneration(cluster=cluster, config=generation_config)
