"""Merges a checkpoint's shards; its own Hydra config, no rollout."""
import hydra


@hydra.main(config_path="conf", config_name="export", version_base=None)
def main(config) -> None:
    print(config.checkpoint_dir)


if __name__ == "__main__":
    main()
