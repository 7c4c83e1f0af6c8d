"""The trainer's entry point: its primary config, acme_ppo."""
import hydra


@hydra.main(config_path="conf", config_name="acme_ppo", version_base=None)
def main(config) -> None:
    from acme.loop import run_training

    run_training(config)


if __name__ == "__main__":
    main()
