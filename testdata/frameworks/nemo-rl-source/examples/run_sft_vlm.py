"""Supervised fine-tuning of a vision-language model: the same loader, no generation."""
import argparse

from omegaconf import OmegaConf

from nemo_rl.algorithms.sft import MasterConfig, sft_train
from nemo_rl.utils.config import load_config, parse_hydra_overrides


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="examples/configs/sft.yaml")
    args, overrides = parser.parse_known_args()
    config = load_config(args.config)
    if overrides:
        config = parse_hydra_overrides(config, overrides)
    sft_train(MasterConfig(**OmegaConf.to_container(config, resolve=True)))


if __name__ == "__main__":
    main()
