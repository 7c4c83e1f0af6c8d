"""Properties of the fixer over generated engine configurations (hypothesis).

Whatever the layout -- one line or one keyword per line, trailing commas,
comments between arguments, dicts spliced with ``**``, subscript assignments,
shared dicts -- the fixer never produces source that does not parse, never
changes a file without findings, and a second run changes nothing more.
"""

from __future__ import annotations

import ast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vllm_lint.fix.python import fix_source, lint_source
from vllm_lint.versions import Version

SETTINGS = [
    ("return_sampling_mask", ["True", "False", "1"]),
    ("enable_return_sampling_mask", ["True"]),
    ("return_sampling_mask_logprobs", ["True"]),
    ("logprobs_mode", ['"raw_logprobs"', '"processed_logprobs"', "None", "'processed_logits'", "(\n        'raw_logits'\n    )"]),
    ("logits_processors", ['["my_pkg.processors:NoRepeat"]', "[]"]),
    ("enable_batch_sharded_sampling", ["True", "False"]),
    (
        "speculative_config",
        [
            '{"method": "dspark", "num_speculative_tokens": 4, "enable_adaptive_verification": True}',
            '{"method": "eagle3", "num_speculative_tokens": 3}',
            'dict(method="ngram", enable_adaptive_verification=True)',
        ],
    ),
    ("enable_trace_replay", ["True"]),
    ("seed", ["0"]),
    ("tensor_parallel_size", ["2"]),
]
VERSIONS = ["0.27", "0.28", "0.30", "0.31", "0.32", "0.34"]
COMMENTS = ["", "  # tuned for the trainer", "  # noqa: VLM105"]

keywords = st.lists(
    st.sampled_from(range(len(SETTINGS))).flatmap(
        lambda i: st.tuples(st.just(SETTINGS[i][0]), st.sampled_from(SETTINGS[i][1]))
    ),
    max_size=6,
    unique_by=lambda kv: kv[0],
)


@st.composite
def call_text(draw, func: str, first: str, pairs: list[tuple[str, str]], separator: str = "=") -> str:
    """``func(first, k=v, ...)`` on one line or one argument per line."""
    items = ([first] if first else []) + [f"{k}{separator}{v}" if separator == "=" else f'"{k}": {v}' for k, v in pairs]
    layout = draw(st.sampled_from(["line", "lines", "lines-trailing", "hanging"]))
    if layout == "line" or not items:
        return f"{func}{', '.join(items)}{')' if func.endswith('(') else '}'}"
    close = ")" if func.endswith("(") else "}"
    if layout == "hanging":
        pad = " " * len(func)
        return func + f",\n{pad}".join(items) + close
    lines = []
    for index, item in enumerate(items):
        comma = "," if index < len(items) - 1 or layout == "lines-trailing" else ""
        comment = draw(st.sampled_from(COMMENTS[:2]))
        above = draw(st.sampled_from(["", "    # about the next setting\n"]))
        lines.append(f"{above}    {item}{comma}{comment}\n")
    return f"{func}\n{''.join(lines)}{close}"


@st.composite
def engine(draw, index: int) -> str:
    pairs = draw(keywords)
    form = draw(st.sampled_from(["call", "dict", "dict-call", "subscripts", "engine-args", "shared"]))
    name = f"engine_{index}"
    noqa = draw(st.sampled_from(COMMENTS))
    if form == "call":
        return f"{name} = " + draw(call_text("LLM(", "MODEL", pairs)) + noqa + "\n"
    if form == "dict":
        literal = draw(call_text("{", '"model": MODEL', pairs, separator=":"))
        return f"kwargs_{index} = {literal}\n{name} = LLM(**kwargs_{index})\n"
    if form == "dict-call":
        return f"kwargs_{index} = " + draw(call_text("dict(", "model=MODEL", pairs)) + f"\n{name} = LLM(**kwargs_{index})\n"
    if form == "subscripts":
        body = "".join(f'kwargs_{index}["{k}"] = {v}\n' for k, v in pairs)
        return f'kwargs_{index} = {{"model": MODEL}}\n{body}{name} = LLM(**kwargs_{index})\n'
    if form == "engine-args":
        args = draw(call_text("EngineArgs(", "MODEL", pairs))
        return f"args_{index} = {args}\n{name} = LLMEngine.from_engine_args(args_{index})\n"
    literal = draw(call_text("{", '"model": MODEL', pairs, separator=":"))
    return f"shared_{index} = {literal}\n{name} = LLM(**shared_{index})\nother_{index} = LLM(**shared_{index})\n"


@st.composite
def module(draw) -> str:
    count = draw(st.integers(min_value=1, max_value=3))
    engines = [draw(engine(i)) for i in range(count)]
    header = "from vllm import LLM, EngineArgs, LLMEngine\n\nMODEL = \"Qwen/Qwen3-4B\"\n"
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return (header + "\n".join(engines)).replace("\n", newline)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    source=module(),
    version=st.sampled_from(VERSIONS),
    unsafe=st.booleans(),
    mode=st.sampled_from(["keep-replay", "disable-replay"]),
)
def test_fixer_output_parses_and_is_stable(source, version, unsafe, mode):
    target = Version.parse(version)
    ast.parse(source)  # the generator makes valid Python
    outcome = fix_source(source, "generated.py", target, unsafe=unsafe, mode=mode)
    assert outcome.error is None, outcome.error
    ast.parse(outcome.source)
    if not lint_source(source, "generated.py", target):
        assert outcome.source == source
    if "\r\n" in source:
        assert outcome.source.count("\r\n") == outcome.source.count("\n")
    again = fix_source(outcome.source, "generated.py", target, unsafe=unsafe, mode=mode)
    assert again.source == outcome.source


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("LLM(return_sampling_mask=True)vllm import\n #'\"")), max_size=120))
def test_fixer_never_changes_text_without_findings(text):
    """Arbitrary text: anything that does not parse or has no finding is returned as it is."""
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return
    target = Version.parse("0.34")
    outcome = fix_source(text, "text.py", target, unsafe=True)
    if not lint_source(text, "text.py", target):
        assert outcome.source == text
    ast.parse(outcome.source)
