"""Kubernetes containers written as Python dicts: an end-to-end test's inference service
template, a manifest renderer's deployment. The container runs its command followed by its
args; args alone on vLLM's server image follow the image's `vllm serve`."""
import json

VLLM_CPU_IMAGE = "quay.io/example/vllm-cpu:latest"
VLLM_IMAGE = "vllm/vllm-openai:v0.34.0"

REPLAY_SERVICE = {
    "apiVersion": "serving.kserve.io/v1alpha1",
    "kind": "LLMInferenceService",
    "spec": {
        "template": {
            "containers": [
                {
                    "name": "main",
                    "image": VLLM_CPU_IMAGE,
                    "command": ["vllm", "serve", "/mnt/models"],
                    "args": [
                        "--served-model-name",
                        "{{ .Spec.Model.Name }}",
                        "--port",
                        "8000",
                        "--return-sampling-mask",  # expect: VLM105
                    ],
                    "env": [{"name": "VLLM_CPU_KVCACHE_SPACE", "value": "1"}],
                    "resources": {"limits": {"cpu": "2", "memory": "7Gi"}},
                }
            ]
        }
    },
}


def rollout_deployment(name: str, tensor_parallel: int) -> dict:
    container = {
        "name": "rollout",
        "image": VLLM_IMAGE,
        "args": [
            "Qwen/Qwen3-8B",
            "--tensor-parallel-size", str(tensor_parallel),
            "--return-sampling-mask",
            "--logprobs-mode", "raw_logprobs",  # expect: VLM105
        ],
        "ports": [{"containerPort": 8000}],
    }
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
            "spec": {"template": {"spec": {"containers": [container]}}}}


def replay_ready(name: str) -> dict:
    return {
        "name": name,
        "image": VLLM_IMAGE,
        "args": ["Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"],
    }


# Look-alikes: another server's container, args on an image that is not vLLM's server, and a
# record of a command that is no container.
SGLANG_CONTAINER = {
    "name": "sglang",
    "image": "lmsysorg/sglang:latest",
    "command": ["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B"],
    "args": ["--return-sampling-mask"],
}
SIDECAR = {"name": "proxy", "image": "envoyproxy/envoy:v1.30", "args": ["--return-sampling-mask"]}
RUN_RECORD = {
    "runner": "vLLM",
    "command": ["vllm", "serve", "Qwen/Qwen3-8B", "--return-sampling-mask"],
    "health_url": "http://127.0.0.1:8000/health",
    "image": "vllm/vllm-openai:v0.34.0",
}
print(json.dumps([REPLAY_SERVICE, SGLANG_CONTAINER, SIDECAR, RUN_RECORD]))
