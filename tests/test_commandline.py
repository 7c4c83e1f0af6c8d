"""The command-line front end: file kinds, parser semantics, robustness, fixes.

Fixtures with inline expectations live in testdata/commandline (test_fixtures.py);
before/after pairs for fixes in testdata/fixes-commandline.
"""

from __future__ import annotations

import pytest
from fixtures import TESTDATA, target_version

from vllm_lint.commandline import lint_command_file
from vllm_lint.commandline.kinds import command_file_kind
from vllm_lint.facts import ABSENT
from vllm_lint.lint import file_kind, lint_file
from vllm_lint.sources import MAX_ANALYSED_BYTES
from vllm_lint.versions import Version

V033 = Version(0, 33)


def lint_text(tmp_path, name: str, text: str, version: Version = V033):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return lint_file(str(path), lambda _path: (version, "test"))


def found(result) -> list[tuple[int, int, str]]:
    assert result.error is None, result.error
    return [(f.span.line, f.span.col + 1, f.code) for f in result.findings]


# ------------------------------------------------------------------ file kinds


@pytest.mark.parametrize(
    "name, kind",
    [
        ("serve.sh", "shell"),
        ("scripts/run.bash", "shell"),
        ("Dockerfile", "dockerfile"),
        ("docker/Dockerfile.replay", "dockerfile"),
        ("server.Dockerfile", "dockerfile"),
        ("Containerfile", "dockerfile"),
        ("Dockerfile.dockerignore", None),
        ("k8s/deployment.yaml", "yaml"),
        ("compose.yml", "yaml"),
        ("README.md", None),
        ("serve.py", "python"),
    ],
)
def test_kind_by_name(name, kind):
    assert file_kind(name, b"") == kind


@pytest.mark.parametrize(
    "head, kind",
    [
        (b"#!/bin/bash\nvllm serve m\n", "shell"),
        (b"#!/usr/bin/env bash\n", "shell"),
        (b"#!/usr/bin/env -S bash -eu\n", "shell"),
        (b"#!/bin/sh -e\n", "shell"),
        (b"#!/usr/bin/env python3\n", None),
        (b"#!/usr/bin/env zsh\n", None),
        (b"vllm serve m\n", None),
    ],
)
def test_kind_of_extensionless_file_by_shebang(tmp_path, head, kind):
    path = tmp_path / "start-server"
    path.write_bytes(head)
    assert command_file_kind(str(path), head) == kind
    assert command_file_kind(str(path)) == kind  # read from disk, first bytes only


def test_extension_files_are_not_opened(tmp_path):
    assert command_file_kind(str(tmp_path / "does-not-exist.sh")) == "shell"
    assert command_file_kind(str(tmp_path / "does-not-exist")) is None


def test_check_discovers_command_files(tmp_path):
    from vllm_lint.cli import main

    (tmp_path / "serve.sh").write_text("vllm serve m --return-sampling-mask\n")
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai\nRUN vllm serve m --return-sampling-mask\n")
    (tmp_path / "deploy.yaml").write_text("image: vllm/vllm-openai\nargs: [--return-sampling-mask]\n")
    (tmp_path / "notes.txt").write_text("vllm serve m --return-sampling-mask\n")
    import contextlib
    from io import StringIO

    out = StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", "--target-version", "0.33", "--output-format", "concise", str(tmp_path)])
    text = out.getvalue()
    assert code == 1
    assert "serve.sh:1:14: VLM105" in text
    assert "Dockerfile:2:18: VLM105" in text
    assert "deploy.yaml:2:8: VLM105" in text
    assert "notes.txt" not in text


# ------------------------------------------------------------------ parser semantics


def facts_of(tmp_path, line: str, version: Version = V033):
    """The fields one shell command line sets."""
    from vllm_lint.commandline import Context, analyse
    from vllm_lint.launch.words import Source

    path = tmp_path / "cmd.sh"
    path.write_text(line + "\n")
    ctx = Context(Source(str(path), line + "\n"), version, str(path))
    analyse(ctx, "shell")
    assert len(ctx.records) == 1, ctx.records
    return ctx.records[0].facts


def value(facts, name):
    from vllm_lint.facts import Known

    fact = facts.get(name)
    if isinstance(fact, Known):
        inner = fact.value
        if hasattr(inner, "items") and hasattr(inner, "complete"):
            return {k: (v.value if isinstance(v, Known) else v) for k, v in inner.items.items()}
        return inner
    return fact


def test_dotted_options_replace_a_json_value(tmp_path):
    facts = facts_of(
        tmp_path,
        """vllm serve m --speculative-config.num_speculative_tokens 2 -sc '{"method": "eagle"}' --speculative-config.method=mtp""",
    )
    # vLLM appends the merged dotted options last, so they win over the JSON, whatever the order.
    assert value(facts, "speculative_config") == {"num_speculative_tokens": 2, "method": "mtp"}


def test_json_values(tmp_path):
    facts = facts_of(tmp_path, """vllm serve m --speculative-config None --hf-overrides '{"canvas_length": 8}' -tp 2 --pipeline_parallel_size=3""")
    assert value(facts, "speculative_config") is None
    assert value(facts, "hf_overrides") == {"canvas_length": 8}
    assert value(facts, "tensor_parallel_size") == 2
    assert value(facts, "pipeline_parallel_size") == 3
    assert value(facts, "model") == "m"


def test_last_one_wins_and_negations(tmp_path):
    assert value(facts_of(tmp_path, "vllm serve m --return-sampling-mask --no-return_sampling_mask"), "return_sampling_mask") is False
    assert value(facts_of(tmp_path, "vllm serve m --enable-trace-replay --disable-trace-replay"), "enable_trace_replay") is False
    old = facts_of(tmp_path, "vllm serve m --enable-trace-replay --disable-trace-replay", Version(0, 32))
    assert str(value(old, "enable_trace_replay")) == "UNKNOWN"


def test_unparseable_values_are_unknown(tmp_path):
    facts = facts_of(tmp_path, "vllm serve m --return-sampling-mask=true --speculative-config '{bad' -tp two --logprobs-mode")
    for name in ("return_sampling_mask", "speculative_config", "tensor_parallel_size", "logprobs_mode"):
        assert str(value(facts, name)) == "UNKNOWN", name


def test_prefix_of_an_option_is_unknown(tmp_path):
    facts = facts_of(tmp_path, "vllm serve m --return-sampling-mask --logprobs processed_logprobs")
    assert str(value(facts, "logprobs_mode")) == "UNKNOWN"


def test_logits_processors_take_every_following_word(tmp_path):
    facts = facts_of(tmp_path, "vllm serve m --logits-processors a:B c:D --port 1")
    assert value(facts, "logits_processors") == ["a:B", "c:D"]


def test_open_expansion_makes_earlier_and_unwritten_settings_unknown(tmp_path):
    facts = facts_of(tmp_path, "vllm serve m --logprobs-mode raw_logprobs $EXTRA --return-sampling-mask")
    assert value(facts, "return_sampling_mask") is True
    assert str(value(facts, "logprobs_mode")) == "UNKNOWN"
    assert str(value(facts, "enable_batch_sharded_sampling")) == "UNKNOWN"
    assert facts.present("logprobs_mode")


def test_model_option_is_moved_to_the_front(tmp_path):
    assert value(facts_of(tmp_path, "vllm serve -tp 2 --model google/diffusiongemma-x --port 1"), "model") == "google/diffusiongemma-x"
    assert value(facts_of(tmp_path, "vllm serve --model=a/b"), "model") == "a/b"


def test_env_wrappers(tmp_path):
    assert facts_of(tmp_path, "env -i PATH=/bin VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m").env["VLLM_USE_V2_MODEL_RUNNER"] == "0"
    facts = facts_of(tmp_path, "set -a; VLLM_USE_V2_MODEL_RUNNER=0; set +a; vllm serve m")
    assert facts.env["VLLM_USE_V2_MODEL_RUNNER"] == "0"
    # Assigned but not exported: it may or may not reach the server.
    facts = facts_of(tmp_path, "VLLM_USE_V2_MODEL_RUNNER=0; vllm serve m")
    assert str(facts.get_env("VLLM_USE_V2_MODEL_RUNNER")) == "UNKNOWN"
    facts = facts_of(tmp_path, "source ./env.sh\nvllm serve m")
    assert facts.env_open


@pytest.mark.parametrize(
    "script, expected",
    [
        ("export X=0\nvllm serve m", "0"),
        ("export X=0\nif test -f a; then export X=1; fi\nvllm serve m", "UNKNOWN"),
        ("export X=0\nif test -f a; then export X=1; else export X=1; fi\nvllm serve m", "1"),
        ("export X=0\n(export X=1)\nvllm serve m", "0"),
        ("export X=0\nexport X=1 | cat\nvllm serve m", "0"),
        ("export X=0\ntest -f a && export X=1\nvllm serve m", "UNKNOWN"),
        ("export X=0\nfor f in a b; do export X=1; done\nvllm serve m", "UNKNOWN"),
        ("export X=0\ncase $1 in a) export X=1 ;; *) ;; esac\nvllm serve m", "UNKNOWN"),
        ("export X=0\nf() { export X=1; }\nvllm serve m", "0"),
        ("export X=0\nf() { export X=1; }\nf\nvllm serve m", "UNKNOWN"),
        ("X=${X:-0}\nexport X\nvllm serve m", "UNKNOWN"),
        ("unset X\nvllm serve m", "ABSENT"),
    ],
)
def test_shell_environment_flow(tmp_path, script, expected):
    facts = facts_of(tmp_path, script)
    assert str(facts.get_env("X")) == expected


def test_variables_the_script_sets_are_expanded(tmp_path):
    facts = facts_of(tmp_path, 'M=google/diffusiongemma-x\nFLAGS="--return-sampling-mask -tp 2"\nvllm serve "$M" $FLAGS')
    assert value(facts, "model") == "google/diffusiongemma-x"
    assert value(facts, "return_sampling_mask") is True
    assert value(facts, "tensor_parallel_size") == 2


# ------------------------------------------------------------------ Dockerfiles (exec form has no comments)


def test_dockerfile_exec_form(tmp_path):
    text = (
        "FROM vllm/vllm-openai:v0.33.0\n"
        "ENV VLLM_USE_V2_MODEL_RUNNER=0\n"
        'CMD ["--model", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]\n'
    )
    assert found(lint_text(tmp_path, "Dockerfile", text)) == [(3, 34, "VLM101")]


def test_dockerfile_entrypoint_and_cmd_compose(tmp_path):
    text = (
        "FROM nvidia/cuda:12.8.0-runtime-ubuntu24.04 AS base\n"
        'ENTRYPOINT ["vllm", "serve"]\n'
        'CMD ["Qwen/Qwen3-8B", "--return-sampling-mask", \\\n'
        '     "--enable-batch-sharded-sampling"]\n'
        "FROM base AS app\n"
        "# A new ENTRYPOINT drops the CMD it inherited.\n"
        'ENTRYPOINT ["python", "app.py"]\n'
    )
    assert found(lint_text(tmp_path, "Dockerfile", text)) == [(3, 23, "VLM105"), (4, 6, "VLM106")]


def test_dockerfile_sh_c_in_exec_form(tmp_path):
    text = 'FROM vllm/vllm-openai\nENTRYPOINT ["/bin/sh", "-c", "exec vllm serve m --return-sampling-mask"]\n'
    assert found(lint_text(tmp_path, "Dockerfile", text)) == [(2, 49, "VLM105")]


def test_dockerfile_escape_directive_and_config(tmp_path):
    text = (
        "# escape=`\n"
        "FROM vllm/vllm-openai\n"
        "RUN vllm serve m `\n"
        "    --return-sampling-mask\n"
        'CMD ["--model", "m", "--config", "/app/replay.yaml", "--return-sampling-mask"]\n'
    )
    # The config file is a path inside the image: its options are unknown.
    assert found(lint_text(tmp_path, "Dockerfile", text)) == [(4, 5, "VLM105")]


# ------------------------------------------------------------------ robustness: one diagnostic, no traceback


@pytest.mark.parametrize(
    "name, data, reason",
    [
        ("broken.sh", b"vllm serve m --return-sampling-mask 'unterminated\n", "unterminated single quote"),
        ("broken2.sh", b'vllm serve m --return-sampling-mask "$(date\n', "unterminated"),
        ("binary.sh", b"\x7fELF\x00\x01vllm --return-sampling-mask", "binary"),
        ("bad.yaml", b"args: [--return-sampling-mask\nkey: : :\n", "invalid YAML"),
        ("tabs.yaml", b"a:\n\t- --return-sampling-mask\n", "invalid YAML"),
        ("latin1.sh", b"# caf\xe9\nvllm serve m --return-sampling-mask\n", "invalid utf-8"),
    ],
)
def test_unreadable_files_give_one_diagnostic(tmp_path, name, data, reason):
    path = tmp_path / name
    path.write_bytes(data)
    result = lint_file(str(path), lambda _path: (V033, "test"))
    assert result.error is not None and reason in result.error.reason
    assert not result.findings


def test_error_position_of_unterminated_quote(tmp_path):
    path = tmp_path / "broken.sh"
    path.write_text("#!/bin/sh\nvllm serve m \\\n  --return-sampling-mask 'oops\n")
    result = lint_file(str(path), lambda _path: (V033, "test"))
    assert (result.error.line, result.error.col) == (3, 25)


def test_huge_file(tmp_path):
    path = tmp_path / "huge.sh"
    line = b"echo --return-sampling-mask vllm\n"
    path.write_bytes(line * (MAX_ANALYSED_BYTES // len(line) + 1))
    result = lint_file(str(path), lambda _path: (V033, "test"))
    assert result.error is not None and "too large" in result.error.reason


def test_large_file_is_linted_quickly(tmp_path):
    import time

    path = tmp_path / "big.sh"
    body = "echo step $i --flag 'quoted value' \"$HOME\" | tee -a log\n" * 10000
    path.write_text(body + "vllm serve m --return-sampling-mask\n")
    start = time.perf_counter()
    result = lint_file(str(path), lambda _path: (V033, "test"))
    assert time.perf_counter() - start < 10
    assert found(result) == [(10001, 14, "VLM105")]


def test_files_without_launcher_or_server_or_replay_flags_are_not_parsed(tmp_path):
    for name, text in [
        ("a.sh", "echo 'unterminated --return-sampling-mask\n"),  # no launcher word
        ("b.sh", "vllm bench m 'unterminated\n"),  # no replay flag, no server launch
        ("c.yaml", "a: [vllm\n"),  # no replay flag
    ]:
        result = lint_text(tmp_path, name, text)
        assert result.error is None and not result.findings


def test_multi_document_yaml_and_bad_embedded_script(tmp_path):
    text = (
        "image: vllm/vllm-openai\nargs: [--return-sampling-mask]\n---\n"
        "image: x\ncommand: [sh, -c, \"vllm serve m --return-sampling-mask 'oops\"]\n---\n"
        "image: vllm/vllm-openai\nargs: [--return-sampling-mask, --logprobs-mode, processed_logprobs, --logits-processors, a:B]\n"
    )
    assert found(lint_text(tmp_path, "multi.yaml", text)) == [(2, 8, "VLM105"), (8, 69, "VLM104")]


def test_direct_call_never_raises_on_garbage(tmp_path):
    import random

    rng = random.Random(7)
    pieces = ["vllm", "serve", "--return-sampling-mask", "'", '"', "$(", "`", "${", "\\", "\n", " ", "|", "&&", ";", "(", ")", "{", "}", "<<", "EOF", "#", "=", "$X", "-sc", "{", "["]
    for kind in ("shell", "dockerfile", "yaml"):
        for _ in range(300):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40)))
            result = lint_command_file(str(tmp_path / "x"), text.encode(), kind, lambda _path: (V033, "test"))
            assert result is not None


# ------------------------------------------------------------------ fixes: before/after pairs

FIX_PAIRS = sorted(p for p in (TESTDATA / "fixes-commandline").iterdir() if p.is_file() and not p.name.endswith(".fixed"))


def apply(text: str, edits) -> str:
    """A tiny text-edit applier (1-based rows and columns)."""
    starts = [0]
    for index, ch in enumerate(text):
        if ch == "\n":
            starts.append(index + 1)
    ranges = sorted((starts[e.start[0] - 1] + e.start[1] - 1, starts[e.end[0] - 1] + e.end[1] - 1, e.content) for e in edits)
    out, position = [], 0
    for start, end, content in ranges:
        assert start >= position, "overlapping edits"
        out.append(text[position:start])
        out.append(content)
        position = end
    out.append(text[position:])
    return "".join(out)


def fix_all(path, text: str, version: Version) -> str:
    for _ in range(8):
        result = lint_command_file(str(path), text.encode(), command_file_kind(str(path)), lambda _p: (version, "test"))
        assert result.error is None, result.error
        chosen, taken = [], []
        for finding in result.findings:
            if finding.fix is None:
                continue
            spans = [(e.start, e.end) for e in finding.fix.edits]
            if any(s < te and ts < e or s == ts for s, e in spans for ts, te in taken):
                continue
            chosen.append(finding)
            taken.extend(spans)
        if not chosen:
            return text
        text = apply(text, [edit for finding in chosen for edit in finding.fix.edits])
    raise AssertionError("fixes did not converge")


@pytest.mark.parametrize("path", FIX_PAIRS, ids=[p.name for p in FIX_PAIRS])
def test_fix_pair(path):
    text = path.read_text(encoding="utf-8")
    pinned = target_version(text)
    version = Version.parse(pinned) if pinned else V033
    expected = path.with_name(path.name + ".fixed").read_text(encoding="utf-8")
    fixed = fix_all(path, text, version)
    assert fixed == expected
    # The fixed file has nothing left that a fix would change.
    assert fix_all(path, fixed, version) == fixed


def test_fix_keeps_crlf_line_endings(tmp_path):
    path = tmp_path / "serve.sh"
    text = "vllm serve m \\\r\n  --return-sampling-mask \\\r\n  --port 1\r\n"
    fixed = fix_all(path, text, V033)
    assert fixed == "vllm serve m \\\r\n  --return-sampling-mask \\\r\n  --logprobs-mode processed_logprobs \\\r\n  --port 1\r\n"


def test_no_fix_for_words_from_variables_or_other_files(tmp_path):
    path = tmp_path / "serve.sh"
    (tmp_path / "cfg.yaml").write_text("enable-batch-sharded-sampling: true\n")
    text = 'FLAGS="--return-sampling-mask --enable-batch-sharded-sampling"\nvllm serve m --logprobs-mode processed_logprobs $FLAGS\nvllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --config cfg.yaml\n'
    path.write_text(text)
    result = lint_file(str(path), lambda _path: (V033, "test"))
    assert [(f.span.line, f.code) for f in result.findings] == [(2, "VLM106"), (3, "VLM106")]
    assert all(f.fix is None for f in result.findings)
    assert "(set in" in result.findings[1].message


def test_disable_replay_alternative_removes_the_mask(tmp_path):
    text = "vllm serve m \\\n  --return-sampling-mask \\\n  --enable-batch-sharded-sampling\n"
    result = lint_text(tmp_path, "serve.sh", text)
    assert [f.code for f in result.findings] == ["VLM105", "VLM106"]
    for finding in result.findings:
        fix = finding.disable_replay_fix
        assert fix.applicability == "unsafe"
        assert apply(text, fix.edits) == "vllm serve m \\\n  --enable-batch-sharded-sampling\n"


def test_noqa_on_the_last_line_of_a_continued_command(tmp_path):
    # Lines ending with a backslash cannot carry a comment: the command's last line speaks for it.
    text = "vllm serve m \\\n  --return-sampling-mask \\\n  --port 1  # noqa: VLM105\nvllm serve m --return-sampling-mask\n"
    assert found(lint_text(tmp_path, "serve.sh", text)) == [(4, 14, "VLM105")]


def test_python_argv_findings_point_at_the_list_string(tmp_path):
    text = 'import subprocess\nsubprocess.run(["vllm", "serve", "m", "--return-sampling-mask"])\n'
    result = lint_text(tmp_path, "launch.py", text)
    assert [(f.span.line, f.span.col, f.code) for f in result.findings] == [(2, 38, "VLM105")]
    assert result.findings[0].span.end_line is None  # not a call to add a keyword to: the list is edited


ARRAY_LAUNCH = """\
SERVER_ARGS=(
    --port 8000  # the router's port
    --return-sampling-mask
)
SERVER_ARGS+=(--logprobs-mode raw_logprobs)
vllm serve Qwen/Qwen3-8B "${SERVER_ARGS[@]}"
"""


def test_an_array_the_script_assigns_expands_to_its_elements(tmp_path):
    # Findings point into the array literal, where the value is written, and the fix edits it there.
    assert found(lint_text(tmp_path, "serve.sh", ARRAY_LAUNCH)) == [(5, 15, "VLM105")]
    facts = facts_of(tmp_path, ARRAY_LAUNCH.replace("raw_logprobs", "processed_logprobs"))
    assert not facts.open and value(facts, "return_sampling_mask") is True and value(facts, "logprobs_mode") == "processed_logprobs"


def test_an_array_of_words_the_script_decides_is_read_like_the_words_themselves(tmp_path):
    unquoted = "ARGS=(--return-sampling-mask --logprobs-mode raw_logprobs)\nvllm serve m ${ARGS[@]}\n"
    assert found(lint_text(tmp_path, "serve.sh", unquoted)) == [(1, 30, "VLM105")]
    # $ARGS alone is the first element; an array declared with declare -a is the same array.
    assert value(facts_of(tmp_path, 'declare -a M=(Qwen/Qwen3-8B x)\nvllm serve "$M" --return-sampling-mask'), "model") == "Qwen/Qwen3-8B"
    # The script's own arguments kept in an array pass through as "$@" itself does.
    passing = facts_of(tmp_path, 'ARGS=(--port 1 "$@")\nvllm serve m --return-sampling-mask "${ARGS[@]}"')
    assert not passing.open and [a.channel for a in passing.assumed] == ['the arguments passed through at "$@", line 1,']
    # Elements that split or glob further are not known as words.
    assert facts_of(tmp_path, 'ARGS=("--port 1")\nvllm serve m --return-sampling-mask ${ARGS[@]}').open


@pytest.mark.parametrize(
    "line",
    [
        # An array one branch extends: its elements are not known.
        'ARGS=(--port 1)\nif [ -n "$X" ]; then ARGS+=(--logprobs-mode processed_logprobs); fi\nvllm serve m --return-sampling-mask "${ARGS[@]}"',
        'ARGS=(--port 1)\nARGS[1]=--logprobs-mode\nvllm serve m --return-sampling-mask "${ARGS[@]}"',  # an element set
        "vllm serve m --return-sampling-mask $EXTRA",
        "vllm serve m --return-sampling-mask $PORT",  # where a flag stands: any number of words
        "vllm serve m --return-sampling-mask `extra-flags`",
        'serve() { vllm serve m --return-sampling-mask "$@"; }',  # no call: a script that sources it decides
        # A call passing a variable the file does not set: any number of words.
        'serve() { vllm serve m --return-sampling-mask "$@"; }\nserve $EXTRA_ARGS',
        # Shifted past an expansion of unknown length: which words remain is not known.
        'serve() { shift 2; vllm serve m --return-sampling-mask "$@"; }\nserve $EXTRA_ARGS --logprobs-mode processed_logprobs',
    ],
)
def test_expansions_to_several_words_silence_unwritten_settings(tmp_path, line):
    facts = facts_of(tmp_path, line)
    assert facts.open and str(value(facts, "logprobs_mode")) == "UNKNOWN"


def records_of(tmp_path, text: str):
    """Every launch a script's commands make, in the order they run."""
    from vllm_lint.commandline import Context, analyse
    from vllm_lint.launch.words import Source

    path = tmp_path / "calls.sh"
    path.write_text(text, encoding="utf-8")
    ctx = Context(Source(str(path), text), V033, str(path))
    analyse(ctx, "shell")
    return ctx.records


def test_a_function_call_binds_its_words_to_the_positional_parameters(tmp_path):
    records = records_of(
        tmp_path,
        "start() {\n"
        "    kind=$1\n"
        '    model=$2\n'
        "    shift 2\n"
        '    vllm serve "$model" --port ${PORT:-8000} --return-sampling-mask "$@" &\n'
        "}\n"
        'start vllm "Qwen/Qwen3-8B" --max-model-len 8192\n'
        "start vllm org/other --logprobs-mode processed_logprobs\n",
    )
    first, second = (record.facts for record in records)
    assert value(first, "model") == "Qwen/Qwen3-8B"
    assert not first.open and first.get("logprobs_mode") is ABSENT and not first.assumed
    assert value(second, "model") == "org/other" and value(second, "logprobs_mode") == "processed_logprobs"
    # A flag the call passes is where the call writes it; the body's own flags are in the body.
    assert second.fields["logprobs_mode"].origin.span.line == 8
    assert first.fields["return_sampling_mask"].origin.span.line == 5


@pytest.mark.parametrize(
    "text, model, mode",
    [
        ('serve() { vllm serve "${1:-Qwen/Qwen3-8B}" --logprobs-mode "${2:-raw_logprobs}" --return-sampling-mask; }\nserve\n', "Qwen/Qwen3-8B", "raw_logprobs"),
        ('serve() { vllm serve "${1:-Qwen/Qwen3-8B}" --logprobs-mode "${2:-raw_logprobs}" --return-sampling-mask; }\nserve org/m processed_logprobs\n', "org/m", "processed_logprobs"),
        ('serve() { local m="$1"; vllm serve $m --return-sampling-mask --logprobs-mode "$#"; }\nserve org/m a\n', "org/m", "2"),
        ('serve() { set -- org/set "$@"; vllm serve "$1" --logprobs-mode "$3" --return-sampling-mask; }\nserve x processed_logits\n', "org/set", "processed_logits"),
        ('serve() { vllm serve "${@:2:1}" --return-sampling-mask; }\nserve x org/m\n', "UNKNOWN", None),
        # Called from another function with that one's parameters.
        ('serve() { vllm serve "$1" --logprobs-mode "$2" --return-sampling-mask; }\nmain() { serve "$2" raw_logits; }\nmain x org/m\n', "org/m", "raw_logits"),
    ],
)
def test_defaults_and_counts_of_bound_parameters(tmp_path, text, model, mode):
    (record,) = records_of(tmp_path, text)
    assert str(value(record.facts, "model")) == str(model)
    if mode is not None:
        assert value(record.facts, "logprobs_mode") == mode


@pytest.mark.parametrize(
    "branch, launches",
    [
        ('if [ "$1" = vllm ]; then vllm serve m --return-sampling-mask; fi', 1),
        ('if [ "$1" != vllm ]; then vllm serve m --return-sampling-mask; fi', 0),
        ('if [[ $1 == sg* ]]; then vllm serve m --return-sampling-mask; fi', 0),
        ('if [[ $1 == "vll*" ]]; then vllm serve m --return-sampling-mask; fi', 0),  # quoted: no pattern
        ('if [ "$1" = sglang ]; then :; elif [ "$1" = vllm ]; then vllm serve m --return-sampling-mask; fi', 1),
        ('if [ "$1" = vllm ]; then :; else vllm serve m --return-sampling-mask; fi', 0),
        ('if [ -n "$1" ]; then :; else vllm serve m --return-sampling-mask; fi', 0),
        ('if [ -z "$2" ]; then vllm serve m --return-sampling-mask; fi', 1),
        ('if [ -n "$EXTRA" ]; then :; else vllm serve m --return-sampling-mask; fi', 1),  # not decided
        ('if [ -f "$1" ]; then vllm serve m --return-sampling-mask; fi', 1),  # not read: both
        ('if [ "$MODE" = vllm ]; then vllm serve m --return-sampling-mask; fi', 1),  # unknown: both
        ('case "$1" in sglang) ;; vllm) vllm serve m --return-sampling-mask ;; esac', 1),
        ('case "$1" in sglang) vllm serve m --return-sampling-mask ;; esac', 0),
        ('case "$1" in v*) ;; *) vllm serve m --return-sampling-mask ;; esac', 0),
        ('case "$1" in sglang) ;& vllm) ;; *) vllm serve m --return-sampling-mask ;; esac', 1),  # falls through
    ],
)
def test_in_a_call_a_test_of_known_words_picks_the_branch(tmp_path, branch, launches):
    assert len(records_of(tmp_path, "serve() {\n    " + branch + "\n}\nserve vllm\n")) == launches


def test_a_branch_on_a_test_no_one_can_decide_does_not_get_the_calls_words(tmp_path):
    text = (
        "serve() {\n"
        "    backend=$1; shift\n"
        '    if [[ "$backend" =~ ^vllm ]]; then\n'
        '        vllm serve org/m --return-sampling-mask "$@"\n'
        "    else\n"
        '        python -m sglang.launch_server --model-path org/m "$@"\n'
        "    fi\n"
        '    vllm serve org/n --return-sampling-mask "$@"\n'
        "}\n"
        "serve vllm --logprobs-mode processed_logprobs\n"
        "serve sglang --mem-fraction-static 0.7\n"
    )
    records = records_of(tmp_path, text)
    inside = [record.facts for record in records if record.facts.anchor.line == 4]
    after = [record.facts for record in records if record.facts.anchor.line == 8]
    # The sglang call's words may not reach line 4: its flags are not read there.
    assert len(inside) == 2 and all(facts.open for facts in inside)
    # After the if, the words are the call's again.
    assert [value(facts, "logprobs_mode") for facts in after][0] == "processed_logprobs"
    assert not after[1].open


def test_a_branch_a_call_does_not_take_leaves_its_assignments_out(tmp_path):
    (record,) = records_of(
        tmp_path,
        'LEN=""\n'
        "serve() {\n"
        "    local args=(--port $2 --return-sampling-mask)\n"
        '    if [ -n "$LEN" ]; then\n'
        "        args+=(--logprobs-mode processed_logprobs)\n"
        "    fi\n"
        '    vllm serve "$1" "${args[@]}"\n'
        "}\n"
        "serve org/m 8001\n",
    )
    facts = record.facts
    assert not facts.open and value(facts, "model") == "org/m" and facts.get("logprobs_mode") is ABSENT


def test_a_call_passing_the_scripts_arguments_keeps_them_a_pass_through(tmp_path):
    (record,) = records_of(tmp_path, 'serve() { shift; vllm serve m --return-sampling-mask "$@"; }\nserve "$@"\n')
    facts = record.facts
    assert not facts.open and facts.get("logprobs_mode") is ABSENT
    (assumption,) = facts.assumed
    assert assumption.channel == 'the arguments passed through at "$@", line 1,'


def test_findings_on_the_body_are_reported_once_and_values_at_the_call(tmp_path):
    text = (
        "serve() {\n"
        '    vllm serve "$1" --return-sampling-mask "${@:2}"\n'
        "}\n"
        "serve org/a --port 8001\n"
        "serve org/b --port 8002\n"
        "serve org/c --logprobs-mode raw_logprobs\n"
    )
    result = lint_text(tmp_path, "calls.sh", text)
    assert found(result) == [(2, 21, "VLM105"), (6, 13, "VLM105")]


def test_calls_within_calls_stay_bounded(tmp_path):
    import time

    # Each call calls itself twice: unbounded, 2**n readings.
    text = 'grow() { grow "$@" x; grow "$@" y; vllm serve "$1" --return-sampling-mask; }\ngrow org/m\n'
    began = time.perf_counter()
    records = records_of(tmp_path, text)
    assert time.perf_counter() - began < 20
    assert records and all(value(record.facts, "return_sampling_mask") is True for record in records)
    assert any(value(record.facts, "model") == "org/m" for record in records)


def test_a_function_only_another_program_runs_is_read_as_written(tmp_path):
    # "serve" is a word of another command, never called: its body is read with $1 unknown.
    (record,) = records_of(tmp_path, 'serve() { vllm serve "$1" --return-sampling-mask; }\necho serve org/m\n')
    assert str(value(record.facts, "model")) == "UNKNOWN"


@pytest.mark.parametrize(
    "line, at",
    [
        ('vllm serve m --return-sampling-mask "$@"', '"$@"'),
        ("vllm serve m --return-sampling-mask $@", "$@"),
        ("vllm serve m --return-sampling-mask $*", "$*"),
        ('vllm serve m --return-sampling-mask "${@:2}"', '"${@:2}"'),
        ('main() { vllm serve m --return-sampling-mask "$@"; }\nmain "$@"', '"$@"'),
    ],
)
def test_the_scripts_own_arguments_are_read_as_empty_and_named(tmp_path, line, at):
    facts = facts_of(tmp_path, line)
    assert not facts.open and value(facts, "return_sampling_mask") is True and facts.get("logprobs_mode") is ABSENT
    (assumption,) = facts.assumed
    assert assumption.channel == f"the arguments passed through at {at}, line 1,"


def test_a_pass_through_finding_names_what_it_assumes(tmp_path):
    result = lint_text(tmp_path, "serve.sh", 'vllm serve m --logprobs-mode raw_logprobs --return-sampling-mask "$@"\n')
    (finding,) = result.findings
    assert finding.message.endswith('(unless the arguments passed through at "$@", line 1, set --logprobs-mode)')
    # Written after it: the arguments cannot change it, and nothing is assumed.
    result = lint_text(tmp_path, "after.sh", 'vllm serve m "$@" --return-sampling-mask --logprobs-mode raw_logprobs\n')
    (finding,) = result.findings
    assert "unless" not in finding.message


def test_the_strict_reading_brings_back_unknown_channels(tmp_path):
    from vllm_lint.config import Target

    strict = Target(V033, "test", pass_through="anything")
    for line in ('vllm serve m --return-sampling-mask "$@"', "vllm serve ${MODEL} --port $PORT --return-sampling-mask"):
        path = tmp_path / "strict.sh"
        path.write_text(line + "\n", encoding="utf-8")
        assert lint_file(str(path), lambda _path: strict).findings == []
        assert [f.code for f in lint_file(str(path), lambda _path: (V033, "test")).findings] == ["VLM105"]


# ------------------------------------------------------------------ vllm serve's full option table


def test_option_table_agrees_with_the_rules_flags():
    """The generated table (every option of every release) and flags.py's hand-kept one agree."""
    from vllm_lint.launch.flags import BOOL, FLAGS, LIST, VALUE
    from vllm_lint.launch.options import serve_options
    from vllm_lint.versions import KNOWN_RELEASES

    expected_kind = {BOOL: "bool", VALUE: "one", LIST: "many"}
    for release in KNOWN_RELEASES[1:]:
        table = serve_options(Version(*release))
        assert table is not None and "--port" in table, release
        for flag in FLAGS:
            for option in ("--" + flag.field.replace("_", "-"), *flag.short):
                kind = table.get(option)
                if kind is not None:
                    assert kind == expected_kind[flag.kind], (release, option, kind)
                elif flag.since is None or release >= flag.since:
                    assert flag.field in ("enable_return_sampling_mask", "return_sampling_mask_logprobs"), (release, option)
    assert serve_options(Version(0, 27)) is None  # no table: a quoted value stays unknown there


@pytest.mark.parametrize(
    "line, known",
    [
        ('vllm serve m --port "$PORT" --return-sampling-mask', True),
        ('vllm serve m -q "$QUANT" --return-sampling-mask', True),
        ('vllm serve m --enforce-eager "$X" --return-sampling-mask', False),  # a flag's name may stand there
        ("vllm serve m --port $PORT --return-sampling-mask", True),  # unquoted: plainly one value too
        ("vllm serve m --port=$PORT --return-sampling-mask", True),
        ("vllm serve $MODEL --return-sampling-mask", True),  # the model
        ("vllm serve $(cat model.txt) --return-sampling-mask", True),
        ("PORT=$((30000 + RANK))\nvllm serve m --port ${PORT} --return-sampling-mask", True),
        ("vllm serve m --port $PORT_ARGS --return-sampling-mask", False),  # a name that says it is a list
        # An option that takes several values (nargs='+'): the variable is more of them.
        ("vllm serve m --served-model-name $N --return-sampling-mask", True),
        ('vllm serve m --served-model-name "$N" --return-sampling-mask', True),
        ("vllm serve m --served-model-name policy ${ALIASES} --return-sampling-mask", True),
        ('vllm serve m --no-such-option "$X" --return-sampling-mask', False),
        ('vllm serve m --served-model-name "${EXTRA[@]}" --return-sampling-mask', False),  # an array: any words
    ],
)
def test_quoted_variable_as_a_value(tmp_path, line, known):
    facts = facts_of(tmp_path, line)
    logprobs_mode = facts.get("logprobs_mode")
    assert (str(logprobs_mode) != "UNKNOWN") == known
    assert value(facts, "return_sampling_mask") is True


@pytest.mark.parametrize(
    "script, expected, env_open",
    [
        ("export X=0\nsudo vllm serve m", "UNKNOWN", True),  # fresh environment: the sudoers policy decides
        ("export X=0\nsudo -E vllm serve m", "0", False),
        ("export X=0\nsudo --preserve-env=X -u svc vllm serve m", "0", True),
        ("export X=0\nsudo --preserve-env=Y vllm serve m", "UNKNOWN", True),
        ("sudo X=1 -u svc vllm serve m", None, None),  # X=1 before the options is not an assignment
        ("export X=0\nsudo -u svc X=1 vllm serve m", "1", True),
    ],
)
def test_sudo_environment(tmp_path, script, expected, env_open):
    from vllm_lint.commandline import Context, analyse
    from vllm_lint.launch.words import Source

    ctx = Context(Source("cmd.sh", script + "\n"), V033, str(tmp_path / "cmd.sh"))
    analyse(ctx, "shell")
    if expected is None:
        assert ctx.records == []
        return
    (record,) = ctx.records
    assert str(record.facts.get_env("X")) == expected
    assert record.facts.env_open is env_open


def test_config_file_named_by_a_command_line_is_not_read_as_a_whole(tmp_path):
    from vllm_lint.launch import project

    (tmp_path / "setup.cfg").write_text("")
    (tmp_path / "configs").mkdir()
    config = tmp_path / "configs" / "replay-serve.yaml"
    config.write_text("return-sampling-mask: true\nmax-model-len: 8192\n")
    project._references.clear()
    assert found(lint_file(str(config), lambda _p: (V033, "test"))) == [(1, 1, "VLM105")]
    (tmp_path / "start.py").write_text('CMD = ["vllm", "serve", "m", "--config", "configs/replay-serve.yaml", "--logprobs-mode", "processed_logprobs"]\n')
    project._references.clear()
    assert found(lint_file(str(config), lambda _p: (V033, "test"))) == []
    # A project too large to read: any file may name it.
    project._references.clear()
    (tmp_path / "start.py").unlink()
    original = project.MAX_SCANNED_FILES
    project.MAX_SCANNED_FILES = 0
    try:
        assert found(lint_file(str(config), lambda _p: (V033, "test"))) == []
    finally:
        project.MAX_SCANNED_FILES = original
        project._references.clear()


# ------------------------------------------------------------------ vLLM --config files


@pytest.mark.parametrize(
    "text, expected",
    [
        ("tensor-parallel-size: 2\nmax-model-len: 8192\n", True),
        ("tensor_parallel_size: 2\nmax_model_len: 8192\nmax-num-sequences: 8\nport: 1\nhost: x\n", True),  # one typo in five
        ("model: Qwen/Qwen3-8B\nport: 8000\nhost: 0.0.0.0\n", False),  # names other programs share
        ("max-model-len: 8192\n", False),  # one key
        ("model-path: m\ntp-size: 2\nmem-fraction-static: 0.8\nkv-cache-dtype: fp8\nport: 1\n", False),  # SGLang
        ("gpu_memory_utilization: 0.6\nmax_model_len: 8192\nrollout_n: 8\nresponse_length: 1\n", False),  # a trainer's
        ("replicaCount: 1\nimage:\n  repository: vllm/vllm-openai\nmodel: m\n", False),  # Helm values
    ],
)
def test_the_bytes_of_a_config_file_say_whether_it_may_be_one(text, expected):
    from vllm_lint.launch.configfile import may_be_config_bytes

    assert may_be_config_bytes(text.encode()) is expected


def test_a_config_file_is_the_launchs_when_a_vllm_launch_names_it(tmp_path):
    from vllm_lint.launch.project import config_launches

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "args.yaml").write_text("max-num-seqs: 8\nmodel: m\n")
    (tmp_path / "other.yaml").write_text("max-num-seqs: 8\nmodel: m\n")
    (tmp_path / "serve.sh").write_text("docker run vllm/vllm-openai:v0.31.0 \\\n  --config /cfg/args.yaml\n")
    (tmp_path / "train.sh").write_text("# uses vllm for rollouts\npython train.py --config other.yaml\n")
    assert config_launches(str(tmp_path / "args.yaml")) == ([str(tmp_path / "serve.sh")], "0.31")
    assert config_launches(str(tmp_path / "other.yaml")) == ([], None)


@pytest.mark.parametrize(
    "image, release",
    [
        ("vllm/vllm-openai:v0.31.0", "0.31"),
        ("registry.example.com/platform/vllm-openai:v0.10.2-kvcache-v0.5.0", "0.10"),  # the leading version
        ("registry.example.com/platform/vllm-openai:kvcache-v0.8.5-20250520", "0.8"),  # one version word
        ("registry.example.com/platform/vllm-openai-kvcache:v0.12.0-20251101", "0.12"),
        ("registry.example.com/platform/vllm-openai:kv-v0.8.5-lm-v0.3.1", None),  # two: which is vLLM's?
        ("registry.example.com/platform/vllm-openai:2025-05-05-v1", None),
        ("vllm/vllm-openai:latest", None),
        ("vllm/vllm-omni:v0.20.0", None),  # another program's release
        ("ghcr.io/example/chat-api:v0.31.0", None),
    ],
)
def test_the_release_an_image_names(image, release):
    from vllm_lint.launch.launchers import image_release

    found = image_release(image)
    assert (None if found is None else f"{found.major}.{found.minor}") == release


def test_columns_after_non_ascii_text_count_characters_in_every_output(tmp_path):
    """Spans carry UTF-8 byte columns, as the Python front end's do; output shows characters."""
    import io

    from vllm_lint import cli

    line = 'echo "héllo🙂"; vllm serve "Qwen/Qwen3-4B🙂" --return-sampling-mask --logprobs-mode raw_logprobs\n'
    result = lint_text(tmp_path, "serve.sh", line)
    flag = line.index("--logprobs-mode")
    assert found(result) == [(1, len(line[:flag].encode()) + 1, "VLM105")]
    out = io.StringIO()
    cli.run_check(cli.build_parser().parse_args(["check", "--output-format", "concise", "--target-version", "0.33", str(tmp_path / "serve.sh")]), out)
    assert f"serve.sh:1:{flag + 1}: VLM105" in out.getvalue()
    manifest = lint_text(
        tmp_path,
        "deploy.yaml",
        "containers:\n  - image: vllm/vllm-openai:v0.33.0\n    args: [\"--model\", \"Qwen/é🙂\", \"--return-sampling-mask\"]\n",
    )
    text = (tmp_path / "deploy.yaml").read_text(encoding="utf-8").splitlines()[2]
    mask = text.index('"--return-sampling-mask"')
    assert [(f.span.line, f.span.col, f.code) for f in manifest.findings] == [(3, len(text[:mask].encode()), "VLM105")]


@pytest.mark.parametrize(
    "text, inside",
    [
        ("data:\n  t: |\n    {{- x }}\n    y\nkind: A\n", {2: 2, 3: 2}),
        ("args:\n  - >-\n    vllm serve m\n\n    --a\n  - b\n", {2: 2, 3: 2, 4: 2}),
        ("- name: c\n  command: |2-\n     x\n", {2: 2, 3: 2}),  # the blank line at the end too
        ('a: "x |"\nb: echo |\nc: d\n', {}),  # quoted and plain scalars ending in `|`
        ("s: |\n  x\n{{- end }}\n  y\nt: z\n", {1: 0, 2: 0, 3: 0}),  # a control line of the template
        ("# k: |\n  x\n", {}),
    ],
)
def test_block_scalar_lines(text, inside):
    from vllm_lint.launch.yamlsrc import block_scalar_lines

    assert block_scalar_lines(text.split("\n")) == inside


def test_template_text_in_a_block_scalar_keeps_the_yaml_structure(tmp_path):
    # The block's first line is a template expression: blanking it would make it a leading
    # blank line indented deeper than the text and break the block.
    text = (
        "kind: ConfigMap\ndata:\n  chat.jinja: |\n    {{- bos_token }}\n    {%- for m in messages %}\n"
        "        {{- 'Answer as {\"name\": n}. ' }}\n    {%- endfor %}\n---\n"
        "kind: Pod\nspec:\n  containers:\n    - image: vllm/vllm-openai:v0.33.0\n      args: [m, --max-num-sequences, '8']\n"
    )
    assert found(lint_text(tmp_path, "chat.yaml", text)) == [(13, 17, "VLM301")]


def test_a_helm_script_in_a_block_scalar_is_read_around_its_templates(tmp_path):
    # The chart's expressions are unknown text; the flags written around them are the script's.
    text = (
        "spec:\n  containers:\n    - image: vllm/vllm-openai:v0.33.0\n      command: [sh, -c]\n      args:\n"
        "        - |\n          {{- if .Values.debug }}\n          export VLLM_LOGGING_LEVEL=DEBUG\n          {{- end }}\n"
        "          vllm serve {{ .Values.model }} --max-num-sequences 8\n"
        "    - image: vllm/vllm-openai:v0.33.0\n      command: [sh, -c]\n      args:\n"
        "        - |\n          vllm serve m --max-num-sequences 8\n"
    )
    assert found(lint_text(tmp_path, "templates/deployment.yaml", text)) == [(10, 42, "VLM301"), (15, 24, "VLM301")]


def test_a_template_expression_in_a_script_is_one_unknown_value_or_any_options(tmp_path):
    def lint_script(script):
        text = "spec:\n  containers:\n    - image: vllm/vllm-openai:v0.34.0\n      command: [sh, -c]\n      args:\n        - |\n" + "".join(
            "          " + line + "\n" for line in script
        )
        return found(lint_text(tmp_path, "templates/deployment.yaml", text))

    flags = "--return-sampling-mask"
    assert lint_script([f"vllm serve {{{{ .Values.model }}}} --port {{{{ .Values.port }}}} {flags}"]) == [(7, 68, "VLM105")]
    # Where an option's name stands, any options: the logprobs mode may be among them.
    assert lint_script([f"vllm serve m {flags} {{{{ .Values.extraArgs }}}}"]) == []
    # Quoted, it is part of one word: a JSON value with a templated field is unknown, not invalid.
    assert lint_script(["vllm serve m --kv-transfer-config '{\"kv_connector\": \"{{ .Values.connector }}\"}' --max-model-len \"{{ .Values.len }}\""]) == []
    assert lint_script(["vllm serve m --max-model-len ${LEN:-{{ .Values.len }}}"]) == []


def test_a_sh_c_script_in_a_folded_block_is_read_where_written(tmp_path):
    text = (
        "spec:\n  containers:\n    - image: vllm/vllm-openai:v0.31.0\n      command:\n        - /bin/sh\n        - -c\n"
        "        - >-\n          pip install hf_transfer &&\n          vllm serve Qwen/Qwen3-8B\n"
        "          --num-scheduler-steps 8\n          --port 8000\n"
    )
    assert found(lint_text(tmp_path, "deploy.yaml", text, Version(0, 34))) == [(10, 11, "VLM301")]


def test_a_kubeai_model_without_an_image_reports_only_what_no_release_accepts(tmp_path):
    # The operator's image runs it: its release is not the file's to say, whatever the target.
    text = (
        "apiVersion: kubeai.org/v1\nkind: Model\nmetadata:\n  name: m\nspec:\n  url: s3://bucket/m\n  engine: VLLM\n"
        "  adapters:\n    - name: a\n      url: hf://org/a\n  args:\n    - --num-scheduler-steps=8\n    - --max-num-sequences=8\n"
    )
    for version in (Version(0, 9), Version(0, 34)):
        result = lint_text(tmp_path, "model.yaml", text, version)
        assert found(result) == [(13, 7, "VLM301")]
        assert "any known vLLM release" in result.findings[0].message
    with_image = text.replace("  engine: VLLM\n", "  engine: VLLM\n  image: vllm/vllm-openai:v0.31.0\n")
    assert [f.span.line for f in lint_text(tmp_path, "model.yaml", with_image).findings] == [13, 14]


def test_a_script_key_of_a_container_is_the_containers(tmp_path):
    # `command` of a container is its exec-form entrypoint, not a script of its own.
    text = "spec:\n  containers:\n    - image: vllm/vllm-openai:v0.34.0\n      command: [vllm, serve, m, --num-scheduler-steps, '8']\n"
    result = lint_text(tmp_path, "pod.yaml", text, Version(0, 34))
    assert [f.span.line for f in result.findings] == [4]


@pytest.mark.parametrize(
    "image, lines",
    [
        ("vllm/vllm-openai:v0.34.0", [7]),  # the tag names the release
        ("vllm/vllm-openai:latest", [7]),  # the newest
        ("vllm/vllm-openai", [7]),
        ("rocm/vllm-dev:open-mi300-08052025", []),  # a dated dev build: which release, the file does not say
        ("registry.example.com/serving/llm-server:2.3", []),
        ("'${SERVING_IMAGE}'", []),  # set elsewhere
    ],
)
def test_a_command_in_an_image_that_names_no_release_is_checked_against_every_release(tmp_path, image, lines):
    # --num-scheduler-steps left vLLM in 0.11: an image that may hold an older vLLM accepts it.
    text = (
        "type: service\nname: qwen\n"
        f"image: {image}\n"
        "commands:\n"
        "  - |\n"
        "    vllm serve Qwen/Qwen3-8B \\\n"
        "      --num-scheduler-steps 8\n"
        "port: 8000\n"
    )
    result = lint_text(tmp_path, "service.dstack.yml", text, Version(0, 34))
    assert result.error is None
    assert [f.span.line for f in result.findings] == lines


def test_a_flat_file_is_a_vllm_config_only_when_nothing_says_it_is_another_programs(tmp_path):
    project = tmp_path / "fleet"
    (project / "conf").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'fleet'\n")
    settings = "max-model-len: 8192\ngpu-memory-utilization: 0.9\nnum-scheduler-steps: 8\n"
    (project / "conf" / "serving.yaml").write_text(settings)
    (project / "conf" / "worker.yaml").write_text(settings + "vllm-release: 0.31.0\n")
    version = lambda _path: (Version(0, 34), "test")  # noqa: E731
    assert [f.span.line for f in lint_file(str(project / "conf" / "serving.yaml"), version).findings] == [3]
    assert lint_file(str(project / "conf" / "worker.yaml"), version).findings == []  # a key no release has
    # A program of the project opens it: its own settings.
    (project / "agent.py").write_text("import yaml\nparams = yaml.safe_load(open('conf/serving.yaml'))\n")
    from vllm_lint.launch import project as project_module

    project_module._references.clear()
    assert lint_file(str(project / "conf" / "serving.yaml"), version).findings == []
    project_module._references.clear()
    # (A file a vLLM launch passes is a vLLM config whatever else names it: configfiles/launched/argv-args.yaml.)


# ------------------------------------------------------------------ standalone --config files


SERVE_YAML = "model: Qwen/Qwen3-8B\nreturn-sampling-mask: true\nlogprobs-mode: raw_logprobs\ntensor-parallel-size: 2\n"


def test_a_standalone_config_file_names_the_command_line_it_assumes(tmp_path):
    (tmp_path / ".git").mkdir()
    result = lint_text(tmp_path, "serve.yaml", SERVE_YAML)
    assert found(result) == [(3, 1, "VLM105")]
    assert result.findings[0].message.endswith("(unless the command line that reads this file sets --logprobs-mode)")
    # Named by a script of the project: that command line may add --logprobs-mode.
    (tmp_path / "serve.sh").write_text("vllm serve --config serve.yaml --logprobs-mode processed_logprobs\n", encoding="utf-8")
    from vllm_lint.launch import project

    project._references.clear()
    assert found(lint_text(tmp_path, "serve.yaml", SERVE_YAML)) == []


def test_a_standalone_config_file_read_strictly_says_nothing(tmp_path):
    from vllm_lint.config import Target

    (tmp_path / ".git").mkdir()
    path = tmp_path / "serve.yaml"
    path.write_text(SERVE_YAML, encoding="utf-8")
    assert lint_file(str(path), lambda _path: Target(V033, "test", pass_through="anything")).findings == []


def test_assume_pass_through_is_read_from_the_project(tmp_path):
    from vllm_lint.config import ConfigError, VersionResolver, load_settings

    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nassume-pass-through = "anything"\n', encoding="utf-8")
    settings = load_settings(tmp_path)
    assert settings.assume_pass_through == "anything"
    resolver = VersionResolver(V033, "test", settings.assume_pass_through)
    script = tmp_path / "serve.sh"
    script.write_text('vllm serve m --return-sampling-mask "$@"\n', encoding="utf-8")
    assert lint_file(str(script), resolver.for_path).findings == []
    (tmp_path / "pyproject.toml").write_text('[tool.vllm-lint]\nassume-pass-through = "everything"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match='assume-pass-through must be "nothing" or "anything"'):
        load_settings(tmp_path)


def _check(tmp_path, *args: str) -> str:
    import subprocess
    import sys

    completed = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", "--output-format", "concise", "--target-version", "0.33", *args],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed.stdout


@pytest.mark.parametrize("written", ["raw_logprobs", '"raw_logprobs"  # for the trainer', "&mode raw_logprobs"])
def test_a_replay_value_in_a_launched_config_file_is_reported_and_fixed_at_its_key(tmp_path, written):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "rollout"\n')
    config = f"return-sampling-mask: true\nlogprobs-mode: {written}\nmax-model-len: 8192\n"
    (tmp_path / "serving.yaml").write_text(config)
    (tmp_path / "run.sh").write_text("vllm serve Qwen/Qwen3-8B --config serving.yaml --port 8000\n")
    both = _check(tmp_path, ".")
    assert "serving.yaml:2:1: VLM105 [*] " in both and "run.sh" not in both and "Found 1 error" in both
    # The launch alone says where the value is set, and has no fix of its own.
    alone = _check(tmp_path, "run.sh")
    assert "run.sh:1:1: VLM105 " in alone and "(set in serving.yaml, line 2)" in alone and "[*]" not in alone
    fixed = _check(tmp_path, "--fix", ".")
    assert "Found 1 error (1 fixed, 0 remaining)" in fixed
    assert (tmp_path / "serving.yaml").read_text() == config.replace("raw_logprobs", "processed_logprobs")
    assert (tmp_path / "run.sh").read_text() == "vllm serve Qwen/Qwen3-8B --config serving.yaml --port 8000\n"
    assert "All checks passed" in _check(tmp_path, ".")


def test_a_single_dash_host_is_reported_with_the_error_argparse_gives():
    from vllm_lint.lint import lint_file
    from vllm_lint.versions import Version

    path = TESTDATA / "commandline" / "single-dash-host.sh"
    [finding] = lint_file(str(path), lambda _path: (Version(0, 19), "fixture")).findings
    assert finding.message == "-host is not an argument in vLLM 0.19; did you mean --host?"
    assert finding.vllm_error == "argument -h/--help: ignored explicit argument 'ost'"


# ------------------------------------------------------- command text in a variable


def test_a_command_text_set_in_branches_is_read_once_per_arm(tmp_path):
    script = (
        'MODEL=$(cat /cfg/model)\n'
        'if [ "$ENGINE" = vllm ]; then\n'
        '    CMD="vllm serve \'${MODEL}\' --port 8000"\n'
        '    if [ "$REPLAY" = 1 ]; then\n'
        '        CMD="$CMD --return-sampling-mask"\n'
        '    fi\n'
        'else\n'
        '    CMD="python3 -m sglang.launch_server --model-path \'${MODEL}\' --return-sampling-mask"\n'
        'fi\n'
        'nohup bash -c "cd /srv && ${CMD}" > log 2>&1 &\n'
    )
    assert found(lint_text(tmp_path, "serve.sh", script)) == [(5, 19, "VLM105")]


def test_a_decided_test_keeps_only_the_taken_arm_of_a_command_text(tmp_path):
    script = (
        'serve() {\n'
        '    local cmd="vllm serve $MODEL --port 8000"\n'
        '    if [ "$1" = replay ]; then\n'
        '        cmd="$cmd --return-sampling-mask"\n'
        '    fi\n'
        '    bash -c "$cmd"\n'
        '}\n'
        'serve plain\n'
    )
    assert found(lint_text(tmp_path, "serve.sh", script)) == []
    assert found(lint_text(tmp_path, "serve.sh", script.replace("serve plain", "serve replay"))) == [(4, 19, "VLM105")]


def test_a_command_text_changed_in_a_loop_is_unknown(tmp_path):
    script = (
        'CMD="vllm serve $MODEL --return-sampling-mask"\n'
        'for flag in $FLAGS; do\n'
        '    CMD="$CMD $flag"\n'
        'done\n'
        'bash -c "$CMD"\n'
    )
    assert found(lint_text(tmp_path, "serve.sh", script)) == []


def test_too_many_ways_to_set_a_command_text_make_it_unknown(tmp_path):
    lines = ['CMD="vllm serve $MODEL --return-sampling-mask"']
    flags = ["--seed 1", "--max-num-seqs 8", "--max-model-len 4096", "--block-size 16", "--gpu-memory-utilization 0.8"]
    for number, flag in enumerate(flags):  # 32 ways
        lines += [f'if [ -n "$F{number}" ]; then', f'    CMD="$CMD {flag}"', "fi"]
    lines.append('eval "$CMD"')
    assert found(lint_text(tmp_path, "serve.sh", "\n".join(lines) + "\n")) == []
    assert found(lint_text(tmp_path, "serve.sh", "\n".join(lines[:7] + lines[-1:]) + "\n")) == [(1, 24, "VLM105")]


def test_an_unquoted_command_text_is_read_only_when_splitting_reads_it_as_a_script(tmp_path):
    plain = 'CMD="vllm serve $MODEL --return-sampling-mask"\nexec $CMD\n'
    assert found(lint_text(tmp_path, "serve.sh", plain)) == [(1, 24, "VLM105")]
    quoted = "CMD=\"vllm serve '$MODEL' --return-sampling-mask\"\nexec $CMD\n"
    assert found(lint_text(tmp_path, "serve.sh", quoted)) == []
