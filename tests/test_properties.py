"""Random inputs never crash the analysis or the command-line front end (hypothesis).

* random Python programs from Python's grammar (hypothesmith), and random
  programs built from the shapes the resolver follows (vLLM constructors,
  dicts, ``**`` splats, ``os.environ``, branches, loops, functions, requests):
  the analysis raises nothing, and every finding points into the file;
* random ``vllm serve`` argv, shell scripts, Dockerfiles and YAML: the
  command-line front end returns findings or one diagnostic, never raises.

The fixer's properties are in ``test_fix_properties.py``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vllm_lint.lint import lint_file, lint_python_bytes
from vllm_lint.python import analyze_tree
from vllm_lint.versions import KNOWN_RELEASES, Version

VERSIONS = [Version(*release) for release in KNOWN_RELEASES]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
HAS_COMMANDLINE = importlib.util.find_spec("vllm_lint.commandline") is not None
needs_commandline = pytest.mark.skipif(not HAS_COMMANDLINE, reason="the command-line front end is not built yet")


def check_analysis(source: str, version: Version) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    try:
        findings = analyze_tree(tree, version)
    except (RecursionError, MemoryError):
        return  # reported as "too deeply nested to analyse" by the callers
    lines = source.count("\n") + 1
    for finding in findings:
        assert 1 <= finding.span.line <= lines, (finding.span, finding.text)
    # The whole file path (prefilter, decoding, noqa) as well.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        result = lint_python_bytes("generated.py", source.encode("utf-8", "surrogatepass"), lambda _p: (version, "test"))
    assert result.error is None or result.error.reason


# ------------------------------------------------------------ grammar-random

def _grammar_programs():
    if importlib.util.find_spec("hypothesmith") is None:
        return st.just("")
    import hypothesmith

    return hypothesmith.from_grammar()


@pytest.mark.skipif(importlib.util.find_spec("hypothesmith") is None, reason="hypothesmith is not installed")
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    source=_grammar_programs(),
    prefix=st.sampled_from(["", "from vllm import LLM, SamplingParams\n"]),
    version=st.sampled_from(VERSIONS),
)
def test_random_python_programs_never_crash_the_analysis(source, prefix, version):
    check_analysis(prefix + source, version)


# ------------------------------------------------------------- shape-random

NAMES = ["a", "b", "cfg", "kw", "d", "params", "llm", "engine", "args", "env"]
SETTINGS = [
    "model",
    "return_sampling_mask",
    "logprobs_mode",
    "speculative_config",
    "spec_method",
    "spec_model",
    "logits_processors",
    "hf_overrides",
    "enable_batch_sharded_sampling",
    "enable_trace_replay",
    "tensor_parallel_size",
    "enable_return_sampling_mask",
    "return_sampling_mask_logprobs",
    "method",
    "enable_adaptive_verification",
    "canvas_length",
    "temperature",
    "top_k",
    "trace_decode_token_ids",
]
CONSTRUCTORS = [
    "LLM",
    "EngineArgs",
    "AsyncEngineArgs",
    "SamplingParams",
    "vllm.LLM",
    "LLMEngine.from_engine_args",
    "AsyncLLMEngine.from_engine_args",
    "VllmConfig",
    "ModelConfig",
    "dict",
    "unknown",
]


def literal() -> st.SearchStrategy[str]:
    scalars = st.one_of(
        st.sampled_from(["True", "False", "None", "0", "1", "-1", "0.0", "1.5", "2", "'processed_logprobs'", "'raw_logprobs'", "'0'", "'1'", "''", "'dspark'", "'eagle3'", "'suffix'"]),
        st.integers(-3, 300).map(str),
        st.text(max_size=8).map(repr),
        st.sampled_from(NAMES),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
            st.lists(st.tuples(st.sampled_from(SETTINGS), inner), max_size=3).map(
                lambda pairs: "{" + ", ".join(f"{k!r}: {v}" for k, v in pairs) + "}"
            ),
            st.tuples(st.sampled_from(CONSTRUCTORS), st.lists(st.tuples(st.sampled_from(SETTINGS), inner), max_size=3)).map(
                lambda c: f"{c[0]}(" + ", ".join(f"{k}={v}" for k, v in c[1]) + ")"
            ),
            st.tuples(inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[0]})"),
            st.tuples(inner, inner).map(lambda t: f"{{**{t[0]}, **{t[1]}}}"),
            st.tuples(inner, inner).map(lambda t: f"({t[0]} or {t[1]})"),
            inner.map(lambda v: f"not {v}"),
            inner.map(lambda v: f"[x for x in {v}]"),
            inner.map(lambda v: f"(lambda: {v})()"),
            inner.map(lambda v: f"{v}.copy()"),
        ),
        max_leaves=8,
    )


def call(value: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    argument = st.one_of(
        st.tuples(st.sampled_from(SETTINGS), value).map(lambda kv: f"{kv[0]}={kv[1]}"),
        value.map(lambda v: f"**{v}"),
        value.map(lambda v: f"*{v}"),
        value,
    )
    return st.tuples(st.sampled_from(CONSTRUCTORS), st.lists(argument, max_size=5)).map(
        lambda c: f"{c[0]}(" + ", ".join(sorted(c[1], key=lambda a: ("=" in a or a.startswith("**"), a.startswith("**")))) + ")"
    )


def statements(depth: int = 0) -> st.SearchStrategy[list[str]]:
    value = literal()
    simple = st.one_of(
        st.tuples(st.sampled_from(NAMES), value).map(lambda t: f"{t[0]} = {t[1]}"),
        st.tuples(st.sampled_from(NAMES), call(value)).map(lambda t: f"{t[0]} = {t[1]}"),
        st.tuples(st.sampled_from(NAMES), st.sampled_from(SETTINGS), value).map(lambda t: f"{t[0]}[{t[1]!r}] = {t[2]}"),
        st.tuples(st.sampled_from(NAMES), st.sampled_from(SETTINGS), value).map(lambda t: f"{t[0]}.{t[1]} = {t[2]}"),
        st.tuples(st.sampled_from(NAMES), value).map(lambda t: f"{t[0]}.update({t[1]})"),
        st.tuples(st.sampled_from(NAMES), value).map(lambda t: f"{t[0]}.append({t[1]})"),
        st.tuples(st.sampled_from(NAMES), value).map(lambda t: f"{t[0]} |= {t[1]}"),
        st.tuples(st.sampled_from(NAMES), st.sampled_from(SETTINGS)).map(lambda t: f"del {t[0]}[{t[1]!r}]"),
        st.sampled_from(["'0'", "'1'", "'x'", "a"]).map(lambda v: f"os.environ['VLLM_USE_V2_MODEL_RUNNER'] = {v}"),
        st.just("os.environ.pop('VLLM_USE_V2_MODEL_RUNNER', None)"),
        st.just("os.environ.update(env)"),
        st.tuples(st.sampled_from(NAMES), call(value)).map(lambda t: f"{t[0]}.generate(['p'], {t[1]})"),
        st.tuples(st.sampled_from(NAMES), value).map(lambda t: f"{t[0]}.generate(['p'], sampling_params={t[1]})"),
        call(value),
        st.sampled_from(NAMES).map(lambda n: f"global {n}"),
        st.just("pass"),
        st.just("return"),
    )
    if depth >= 2:
        return st.lists(simple, min_size=1, max_size=4)
    inner = st.deferred(lambda: statements(depth + 1))

    def block(lines: list[str]) -> str:
        return "\n".join("    " + line for text in lines for line in text.split("\n"))

    compound = st.one_of(
        st.tuples(value, inner, inner).map(lambda t: f"if {t[0]}:\n{block(t[1])}\nelse:\n{block(t[2])}"),
        st.tuples(st.sampled_from(NAMES), value, inner).map(lambda t: f"for {t[0]} in {t[1]}:\n{block(t[2])}"),
        st.tuples(value, inner).map(lambda t: f"while {t[0]}:\n{block(t[1])}\n    break"),
        st.tuples(st.sampled_from(NAMES), inner).map(lambda t: f"def {t[0]}(self, *args, **kwargs):\n{block(t[1])}"),
        st.tuples(st.sampled_from(NAMES), inner).map(lambda t: f"class {t[0].title()}:\n{block(t[1])}"),
        st.tuples(inner, inner).map(lambda t: f"try:\n{block(t[0])}\nexcept ImportError:\n{block(t[1])}"),
        st.tuples(value, inner).map(lambda t: f"with {t[0]} as ctx:\n{block(t[1])}"),
    )
    return st.lists(st.one_of(simple, compound), min_size=1, max_size=6)


HEADER = "import os\nimport vllm\nfrom vllm import LLM, SamplingParams, EngineArgs, AsyncEngineArgs\n"


@FAST
@given(body=statements(), version=st.sampled_from(VERSIONS))
def test_random_vllm_shaped_programs_never_crash_the_analysis(body, version):
    source = HEADER + "\n".join(body) + "\n"
    # ``return``/``global`` outside a function are syntax errors: check_analysis skips those.
    check_analysis(source, version)


# ------------------------------------------------------- command-line front end

FLAGS = [
    "--return-sampling-mask",
    "--no-return-sampling-mask",
    "--return_sampling_mask",
    "--logprobs-mode",
    "--logprobs-mode=processed_logprobs",
    "--speculative-config",
    "-sc",
    "--speculative-config.method",
    "--speculative-config.enable_adaptive_verification",
    "--spec-method",
    "--logits-processors",
    "--hf-overrides",
    "--hf-overrides.canvas_length",
    "--enable-batch-sharded-sampling",
    "--disable-batch-sharded-sampling",
    "--enable-trace-replay",
    "--no-enable-trace-replay",
    "--tensor-parallel-size",
    "-tp",
    "--config",
    "--enable-return-sampling-mask",
    "--return-sampling-mask-logprobs",
    "--model",
    "--",
]
VALUES = [
    "processed_logprobs",
    "raw_logprobs",
    "2",
    "0",
    "true",
    "None",
    '{"method": "dspark", "enable_adaptive_verification": true}',
    '{"method": "eagle3"',
    "{}",
    "[]",
    '{"canvas_length": 256}',
    "pkg.mod:Cls",
    "config.yaml",
    "$VAR",
    "${VAR:-1}",
    "$(echo x)",
    "'quoted value'",
    '"double \\" quoted"',
    "a=b",
    "\\",
]
words = st.lists(st.one_of(st.sampled_from(FLAGS), st.sampled_from(VALUES), st.text(max_size=12)), max_size=14)


def shell_word(word: str) -> str:
    return word if word and all(c.isalnum() or c in "-_.=:/{}$\"'\\" for c in word) else json.dumps(word)


def lint_text(name: str, text: str, version: Version, tmp_path_factory) -> None:
    from vllm_lint.commandline import lint_command_file
    from vllm_lint.lint import file_kind

    data = text.encode("utf-8", "surrogatepass")
    kind = file_kind(name, data) or "shell"
    result = lint_command_file(name, data, kind, lambda _p: (version, "test"))
    for finding in result.findings:
        assert finding.span.line >= 1
    assert result.error is None or result.error.reason


@needs_commandline
@FAST
@given(argv=words, prefix=st.sampled_from(["vllm serve m", "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve", "python -m vllm.entrypoints.openai.api_server", "exec vllm serve m"]), version=st.sampled_from(VERSIONS))
def test_random_argv_never_crashes(argv, prefix, version, tmp_path_factory):
    line = prefix + " " + " ".join(shell_word(w) for w in argv)
    lint_text("serve.sh", line + "\n", version, tmp_path_factory)
    # The same words unquoted, continued over lines, in a Dockerfile and in YAML.
    lint_text("raw.sh", prefix + " " + " \\\n  ".join(argv) + "\n", version, tmp_path_factory)
    lint_text("Dockerfile", "FROM vllm/vllm-openai\nENTRYPOINT " + json.dumps(["vllm", "serve", "m", *argv]) + "\n", version, tmp_path_factory)
    lint_text("deploy.yaml", "containers:\n- name: vllm\n  command: " + json.dumps(["vllm", "serve", "m", *argv]) + "\n", version, tmp_path_factory)


@needs_commandline
@FAST
@given(text=st.lists(st.sampled_from(list("vllm serve {}[]\"'$\\:=-#\n\t |&;()<>`*") + FLAGS[:6]), max_size=60).map("".join), version=st.sampled_from(VERSIONS))
def test_random_shell_text_never_crashes(text, version, tmp_path_factory):
    lint_text("run.sh", "vllm serve m --return-sampling-mask " + text, version, tmp_path_factory)
    lint_text("Dockerfile", "FROM x\nCMD vllm serve --return-sampling-mask " + text, version, tmp_path_factory)


yaml_scalars = st.one_of(st.sampled_from(VALUES + FLAGS), st.booleans(), st.integers(-2, 5), st.none(), st.text(max_size=8))
yaml_values = st.recursive(
    yaml_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(SETTINGS + ["args", "command", "services", "containers", "spec", "image", "return-sampling-mask", "logprobs-mode"]), inner, max_size=4),
    ),
    max_leaves=12,
)


@needs_commandline
@FAST
@given(value=yaml_values, version=st.sampled_from(VERSIONS), raw=st.lists(st.sampled_from(list("abc:-[]{}&*!|>'\"#\n ") + ["--return-sampling-mask", "vllm"]), max_size=60).map("".join))
def test_random_yaml_never_crashes(value, version, raw, tmp_path_factory):
    import yaml

    text = "# vllm serve --return-sampling-mask\n" + yaml.safe_dump(value, default_flow_style=False)
    lint_text("config.yaml", text, version, tmp_path_factory)
    lint_text("compose.yaml", "services:\n  vllm:\n    command: vllm serve --return-sampling-mask\n" + raw, version, tmp_path_factory)


@needs_commandline
@settings(max_examples=30, deadline=None)
@given(text=st.text(max_size=300), name=st.sampled_from(["run.sh", "Dockerfile", "values.yaml", "launch"]))
def test_random_files_through_lint_file(text, name, tmp_path_factory):
    folder = tmp_path_factory.mktemp("random")
    path = folder / name
    header = "#!/bin/sh\n" if name == "launch" else ""
    path.write_text(header + "vllm serve --return-sampling-mask " + text, encoding="utf-8", errors="surrogatepass")
    result = lint_file(str(path), lambda _p: (VERSIONS[-1], "test"))
    assert result.error is None or result.error.reason
