# target-version: 0.33
"""The module writes its own command line before forwarding it: the forwarded
arguments are then the code's, not the caller's, and are not read as empty."""

import subprocess
import sys

if len(sys.argv) < 2:
    sys.argv.append("--logprobs-mode=processed_logprobs")

subprocess.run(["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask", *sys.argv[1:]], check=True)
