"""Benchmarks against a server started once per configuration: every arm of the fixture's
parametrisation is its own server, so a mistake in one configuration is reported for it."""
import json
import subprocess
import sys

import pytest
import requests

from .server_configs import SERVER_CONFIGS

PORT = 8765


def server_command(config: dict, port: int) -> list[str]:
    cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--port", str(port)]
    for key, value in config.items():
        flag = f"--{key.replace('_', '-')}"
        if isinstance(value, bool):
            cmd.append(flag if value else f"--no-{key.replace('_', '-')}")  # expect: VLM105
        elif isinstance(value, dict):
            cmd.extend([flag, json.dumps(value)])
        elif hasattr(value, "model_dump"):
            cmd.extend([flag, json.dumps(value.model_dump(mode="json"))])
        else:
            cmd.extend([flag, str(value)])
    return cmd


@pytest.fixture(scope="module", params=list(SERVER_CONFIGS.keys()))
def vllm_server(request):
    config = SERVER_CONFIGS[request.param]
    process = subprocess.Popen(server_command(config, PORT))
    yield request.param
    process.terminate()
    process.wait()


def test_completion(vllm_server):
    response = requests.post(f"http://localhost:{PORT}/v1/completions", json={"prompt": "Hello", "max_tokens": 8})
    assert response.status_code == 200
