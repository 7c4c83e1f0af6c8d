"""Runs the evaluation suite over another package's configs: a config named like the
trainer's, in a package that is neither in the project nor installed."""
import hydra


@hydra.main(config_path="pkg://evalkit.conf", config_name="grpo_trainer", version_base=None)
def main(config) -> None:
    from evalkit import run_suite

    run_suite(config)


if __name__ == "__main__":
    main()
