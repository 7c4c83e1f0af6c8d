"""DAPO: the training config with the algorithm's own settings, built by make_config."""
import sys
from dataclasses import dataclass

from skyrl.train.config import AlgorithmConfig, make_config
from skyrl.train.entrypoints.main_base import BasePPOExp


@dataclass
class DAPOAlgorithmConfig(AlgorithmConfig):
    overlong_buffer_len: int = 4096


DAPOConfig = make_config(algorithm_cls=DAPOAlgorithmConfig)


def main() -> None:
    cfg = DAPOConfig.from_cli_overrides(sys.argv[1:])
    BasePPOExp(cfg).run()


if __name__ == "__main__":
    main()
