"""Asynchronous GRPO: rollouts and training overlap."""
from nemo_rl.algorithms.async_utils.setup import MasterConfig, setup_async
