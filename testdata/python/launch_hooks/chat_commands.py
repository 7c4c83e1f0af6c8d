"""A `__command__` method outside BentoML: a chat bot's command object, not a service's process."""
import subprocess


class RestartCommand:
    name = "restart"

    def __command__(self):
        return ["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask"]

    def run(self):
        return subprocess.run(["systemctl", "restart", "inference"], check=True)
