#!/bin/sh
exec vllm serve --config configs/serving.yaml
