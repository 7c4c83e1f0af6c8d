"""All rules, by code.  One module per rule; each module documents itself."""

from __future__ import annotations

from vllm_lint.rules import (
    flag_unavailable,
    invalid_choice,
    non_upstream_flag,
    out_of_range,
    replay_batch_sharded_sampling,
    replay_diffusion_model,
    replay_logits_processors,
    replay_logprobs_mode,
    replay_request_temperature,
    replay_request_top_k,
    replay_requires_v2_runner,
    replay_speculative_decoding,
    startup_checkpoint,
    startup_engine_arguments,
    startup_llm_class,
    startup_model,
    startup_observability,
    startup_other_configs,
    startup_parallel,
    trace_replay_requires_v2_runner,
    trace_request_speculative_decoding,
    trace_request_without_trace_replay,
    unparsable_value,
    unused_noqa,
)
from vllm_lint.rules.base import Rule

ALL_RULES: tuple[Rule, ...] = tuple(
    sorted(
        (
            module.RULE
            for module in (
                replay_requires_v2_runner,
                replay_speculative_decoding,
                replay_diffusion_model,
                replay_logits_processors,
                replay_logprobs_mode,
                replay_batch_sharded_sampling,
                trace_replay_requires_v2_runner,
                replay_request_temperature,
                replay_request_top_k,
                trace_request_without_trace_replay,
                trace_request_speculative_decoding,
                flag_unavailable,
                non_upstream_flag,
                invalid_choice,
                out_of_range,
                unparsable_value,
                startup_parallel,
                startup_engine_arguments,
                startup_llm_class,
                startup_model,
                startup_observability,
                startup_other_configs,
                startup_checkpoint,
                unused_noqa,
            )
        ),
        key=lambda rule: rule.code,
    )
)
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}
RULES_BY_NAME = {rule.name: rule for rule in ALL_RULES}
# Rules a selector enables only by their own code or a prefix longer than "VLM".
OPT_IN_CODES = frozenset(rule.code for rule in ALL_RULES if rule.opt_in)


def lookup(code_or_name: str) -> Rule | None:
    key = code_or_name.strip()
    return RULES_BY_CODE.get(key.upper()) or RULES_BY_NAME.get(key.lower())


def explanation(finding) -> str | None:
    """vLLM's error introduced by what vLLM does, e.g. ``vLLM refuses to start: "..."``."""
    if finding.vllm_error is None:
        return None
    rule = RULES_BY_CODE.get(finding.code)
    outcome = rule.outcome if rule is not None else "vLLM raises"
    return f'{outcome}: "{finding.vllm_error}"'
