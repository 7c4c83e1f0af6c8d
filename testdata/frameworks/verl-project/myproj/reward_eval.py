"""Scores a dataset with the reward model; its own Hydra config, no rollout."""
import hydra


@hydra.main(config_path="config", config_name="reward_eval", version_base=None)
def main(config) -> None:
    print(config.reward.batch_size)


if __name__ == "__main__":
    main()
