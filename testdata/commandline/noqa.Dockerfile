# vllm-lint: noqa: VLM106
FROM python:3.12-slim
# Silenced for the whole file: the batch-sharded flag.
RUN vllm serve m --return-sampling-mask --enable-batch-sharded-sampling --logprobs-mode processed_logprobs & sleep 5
# A comment after an exec form makes it a shell command: Docker starts no server, the noqa silences nothing.
CMD ["vllm", "serve", "m", "--return-sampling-mask"]  # noqa: VLM105  # expect: VLM901:55
