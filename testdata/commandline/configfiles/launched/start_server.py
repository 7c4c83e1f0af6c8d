"""Starts the generation server next to the trainer."""
import subprocess

server = subprocess.Popen(
    [
        "vllm",  # expect: VLM301 (its --config file has an option 0.34 lacks)
        "serve",
        "--config",
        "argv-args.yaml",
    ]
)
