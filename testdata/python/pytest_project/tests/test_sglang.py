"""The same sweep starting SGLang servers: not vLLM, nothing to check."""
import subprocess
import sys

import pytest

from .server_configs import SGLANG_CONFIGS


@pytest.fixture(params=list(SGLANG_CONFIGS))
def sglang_server(request):
    config = SGLANG_CONFIGS[request.param]
    cmd = [sys.executable, "-m", "sglang.launch_server", "--port", "30000"]
    for key, value in config.items():
        cmd.extend([f"--{key.replace('_', '-')}", str(value)])
    process = subprocess.Popen(cmd)
    yield process
    process.terminate()
