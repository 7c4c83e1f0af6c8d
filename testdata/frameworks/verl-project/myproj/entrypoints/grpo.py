"""The project's GRPO trainer.  Its configs ship as package data and Hydra finds them through the
package (pkg://), wherever the project is installed."""
import hydra


@hydra.main(config_path="pkg://myproj.conf", config_name="grpo_trainer", version_base=None)
def main(config) -> None:
    from verl.trainer.main_ppo import run_ppo

    run_ppo(config)


if __name__ == "__main__":
    main()
