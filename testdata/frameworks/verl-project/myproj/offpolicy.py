"""The project's one-step-off-policy trainer: its own Hydra config, composed over verl's ppo_trainer."""
import hydra


@hydra.main(config_path="config", config_name="offpolicy_trainer", version_base=None)
def main(config) -> None:
    from verl.trainer.main_ppo import run_ppo

    from myproj.runners import OffPolicyTaskRunner

    run_ppo(config, task_runner_class=OffPolicyTaskRunner)


if __name__ == "__main__":
    main()
