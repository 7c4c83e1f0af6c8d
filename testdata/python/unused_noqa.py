from vllm import LLM

# A noqa comment the configuration no longer needs (VLM901, with every rule selected).
clean = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: VLM105  # expect: VLM901:94
# Used: the finding is silenced.
silenced = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)  # noqa: VLM105
# A multi-line call: the comment on any of its lines is used.
multi = LLM(
    "Qwen/Qwen3-4B",
    return_sampling_mask=True,  # noqa: VLM105
)
# No rule has the code.
unknown = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: VLM999  # expect: VLM901
# Other tools' codes and a bare noqa are theirs to judge.
other = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: E501
bare = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa
