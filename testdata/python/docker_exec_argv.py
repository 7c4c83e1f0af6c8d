# target-version: 0.33
"""Servers a launcher starts inside a running container: the container's image, which this
file does not name, decides the release, so only options no release has are reported."""
import subprocess


def start_policy_server(container: str, model: str, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [
            "docker", "exec", "-e", "VLLM_LOGGING_LEVEL=INFO", container,
            "vllm", "serve", model,
            "--port", str(port),
            "--use-v2-block-manager",
            "--gpu-memory-utilisation", "0.85",  # expect: VLM301
        ]
    )


def start_reward_server(container: str) -> None:
    subprocess.run(
        ["docker", "exec", "-d", container, "vllm", "serve", "/models/reward", "--return-sampling-mask"]  # expect: VLM105
    )


def tail_logs(container: str) -> None:
    subprocess.run(["docker", "exec", container, "tail", "-n", "100", "/var/log/vllm.log"], check=False)
