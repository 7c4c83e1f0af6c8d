"""VLM104: engine-level logits_processors are removed, wherever they are written."""
from vllm import LLM

MODEL = "Qwen/Qwen3-4B"

# In the middle of a multi-line call: the neighbours' comments stay.
policy = LLM(
    model=MODEL,  # the policy model
    return_sampling_mask=True,
    # custom processors for the policy
    logits_processors=["my_pkg.processors:NoRepeat"],  # no repeats
    # the mode replay needs
    logprobs_mode="processed_logprobs",
)

# Last argument with a trailing comma.
reference = LLM(
    MODEL,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    logits_processors=["my_pkg.processors:NoRepeat"],
)

# Last argument without a trailing comma, on one line.
critic = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs", logits_processors=["a:B"])


def from_literal():
    kwargs = {
        "model": MODEL,
        "logits_processors": ["my_pkg.processors:NoRepeat"],
        "return_sampling_mask": True,
        "logprobs_mode": "processed_logprobs",
    }
    return LLM(**kwargs)


def from_update():
    kwargs = {"model": MODEL, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    kwargs.update(logits_processors=["my_pkg.processors:NoRepeat"])
    return LLM(**kwargs)


def from_subscript():
    kwargs = {"model": MODEL, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    # processors from the experiment config
    kwargs["logits_processors"] = ["my_pkg.processors:NoRepeat"]  # removed with the line
    return LLM(**kwargs)


def only_statement_in_branch(debug):
    kwargs = {"model": MODEL, "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
    if True:
        kwargs["logits_processors"] = ["my_pkg.processors:NoRepeat"]
    return LLM(**kwargs)
