"""Tokenises a dataset: its own config, nothing of the trainer's."""
import hydra


@hydra.main(config_path="conf", config_name="tokenize", version_base=None)
def main(config) -> None:
    print(config.dataset)


if __name__ == "__main__":
    main()
