"""Exports a checkpoint to Hugging Face format; its own arguments, no engine."""
import argparse


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt")
    parser.add_argument("--out")
    parser.parse_args()


if __name__ == "__main__":
    main()
