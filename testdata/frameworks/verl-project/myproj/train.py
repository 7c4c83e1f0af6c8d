"""The project's PPO entry point: verl's trainer config with its own reward and dataset hooks."""
import hydra


@hydra.main(config_path="pkg://verl/trainer/config", config_name="ppo_trainer", version_base=None)
def main(config) -> None:
    from verl.trainer.main_ppo import run_ppo

    run_ppo(config)


if __name__ == "__main__":
    main()
