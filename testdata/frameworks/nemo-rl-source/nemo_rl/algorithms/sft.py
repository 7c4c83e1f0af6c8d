"""Supervised fine-tuning: a policy and a data loader, no generation."""
from typing import Any, TypedDict


class MasterConfig(TypedDict):
    policy: dict[str, Any]
    sft: dict[str, Any]


def sft_train(master_config: MasterConfig) -> None:
    del master_config
