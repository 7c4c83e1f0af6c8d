"""Distillation: its own config, composed over acme_ppo; only the rollout engine is shared."""
import hydra


@hydra.main(config_path="conf", config_name="acme_distill", version_base=None)
def main(config) -> None:
    from acme.distillation import distill

    distill(config)


if __name__ == "__main__":
    main()
