"""Fully asynchronous training: generation and training overlap."""
import sys

import ray

from skyrl.train.config import SkyRLTrainConfig
from skyrl.train.entrypoints.main_base import BasePPOExp


class AsyncPPOExp(BasePPOExp):
    def get_trainer(self, *args, **kwargs):
        from skyrl.train.fully_async_trainer import FullyAsyncTrainer

        return FullyAsyncTrainer(*args, **kwargs)


@ray.remote(num_cpus=1)
def skyrl_entrypoint(cfg: SkyRLTrainConfig):
    AsyncPPOExp(cfg).run()


def main() -> None:
    cfg = SkyRLTrainConfig.from_cli_overrides(sys.argv[1:])
    ray.get(skyrl_entrypoint.remote(cfg))


if __name__ == "__main__":
    main()
