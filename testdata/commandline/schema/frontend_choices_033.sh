#!/bin/bash
# target-version: 0.33
# The server's own options typed as Literal in vLLM 0.33: argparse gets their choices.
vllm serve meta-llama/Llama-3.1-8B-Instruct --chat-template-content-format bogus  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --chat-template-content-format=json  # expect: VLM303
vllm serve meta-llama/Llama-3.1-8B-Instruct --chat-template-content-format string --chat-template ./template.jinja
vllm serve meta-llama/Llama-3.1-8B-Instruct --chat-template-content-format auto --uvicorn-log-level warning
vllm serve meta-llama/Llama-3.1-8B-Instruct --tool-strict-level function --fingerprint-mode none
vllm serve meta-llama/Llama-3.1-8B-Instruct --tool-strict-level strict  # expect: VLM303
# A single value, no custom action: there is no --no- form.
vllm serve meta-llama/Llama-3.1-8B-Instruct --no-chat-template-content-format  # expect: VLM301
# The value comes from elsewhere: unknown, silent.
FORMAT="${CHAT_FORMAT:-openai}"
vllm serve meta-llama/Llama-3.1-8B-Instruct --chat-template-content-format "$FORMAT"
# Not vLLM's server: another program's option of the same name.
python -m my_gateway.serve --chat-template-content-format bogus
