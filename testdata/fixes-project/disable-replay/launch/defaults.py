"""Defaults of the serving engine."""

SERVE_KWARGS = {
    "model": "Qwen/Qwen3-4B",
    "return_sampling_mask": True,  # replay for the trainer
    "logprobs_mode": "raw_logprobs",
    "logits_processors": ["launch.processors:NoRepeat"],
}
