"""Asynchronous GRPO on a vision-language model."""
import argparse

from omegaconf import OmegaConf

from nemo_rl.algorithms.async_utils import (
    MasterConfig,
    setup_async,  # builds the generation workers
)
from nemo_rl.utils.config import load_config, parse_hydra_overrides


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="examples/configs/grpo_math_1B.yaml")
    args, overrides = parser.parse_known_args()
    config = load_config(args.config)
    if overrides:
        config = parse_hydra_overrides(config, overrides)
    config = MasterConfig(**OmegaConf.to_container(config, resolve=True))
    setup_async(config, cluster=None)


if __name__ == "__main__":
    main()
