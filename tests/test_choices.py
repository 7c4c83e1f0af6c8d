"""Values that differ between paths: every alternative is checked, and a finding needs them all."""

from __future__ import annotations

from vllm_lint.checker import check_facts, engine_alternatives
from vllm_lint.facts import ABSENT, UNKNOWN, Choice, EngineFacts, Known, Origin, Span
from vllm_lint.lint import analyze_python_source
from vllm_lint.versions import NEWEST_VERSION

ANCHOR = Span(9, 4, 9, 30)


def engine(**fields) -> EngineFacts:
    facts = EngineFacts(kind="LLM", anchor=ANCHOR)
    facts.fields.update(fields)
    return facts


def mode(value: str, line: int) -> Known:
    return Known(value, Origin(Span(line, 8, line, 40), "subscript"))


def codes(facts: EngineFacts) -> list[str]:
    return [f.code for f in check_facts([facts], [], NEWEST_VERSION)]


def test_a_finding_on_every_alternative_is_reported_once_at_the_construction():
    facts = engine(return_sampling_mask=Known(True), logprobs_mode=Choice((mode("raw_logprobs", 4), mode("raw_logits", 6))))
    [finding] = check_facts([facts], [], NEWEST_VERSION)
    assert finding.code == "VLM105"
    assert finding.span == ANCHOR
    assert finding.message.endswith("(on every path the code can take)")
    # The wrong values are written in two places: no single edit fixes both.
    assert finding.fix_action is None and finding.origin is None


def test_one_clean_alternative_means_silence():
    assert codes(engine(return_sampling_mask=Known(True), logprobs_mode=Choice((mode("raw_logprobs", 4), mode("processed_logprobs", 6))))) == []
    assert codes(engine(return_sampling_mask=Choice((Known(True), ABSENT)), logprobs_mode=mode("raw_logprobs", 4))) == []


def test_absent_is_an_alternative_like_any_value():
    facts = engine(return_sampling_mask=Known(True), logprobs_mode=Choice((mode("raw_logits", 4), ABSENT)))
    assert codes(facts) == ["VLM105"]


def test_too_many_combinations_turn_the_widest_choice_unknown():
    wide = Choice(tuple(mode(f"raw_{n}", n) for n in range(1, 9)))
    facts = engine(
        return_sampling_mask=Known(True),
        logprobs_mode=wide,
        **{f"setting_{n}": Choice((Known(n), Known(-n))) for n in range(6)},
    )
    alternatives = engine_alternatives(facts, budget=64)
    assert len(alternatives) == 64
    assert all(alt.fields["logprobs_mode"] is UNKNOWN for alt in alternatives)


def test_the_same_offending_keyword_on_every_path_keeps_its_fix():
    source = (
        "from vllm import LLM\n"
        "def build(cfg):\n"
        "    mode = 'raw_logprobs' if cfg.raw else 'raw_logits'\n"
        "    return LLM('m', return_sampling_mask=True, logprobs_mode=mode)\n"
    )
    [finding] = analyze_python_source(source, "build.py", NEWEST_VERSION)
    assert (finding.code, finding.span.line, finding.fix_action) == ("VLM105", 4, "set-processed-logprobs")
