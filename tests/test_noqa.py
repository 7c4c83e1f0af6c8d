"""Suppression: file-level ``# vllm-lint: noqa`` directives in every kind of file, unused noqa
comments (VLM901, off by default), and ``--add-noqa``."""

from __future__ import annotations

import io

import pytest

from vllm_lint import cli

PYTHON = 'from vllm import LLM, SamplingParams\nllm = LLM("m", return_sampling_mask=True)\nllm.generate(["x"], SamplingParams(temperature=0))\n'
SHELL = "#!/bin/sh\nvllm serve m --return-sampling-mask --enable-batch-sharded-sampling\n"
YAML = (
    "services:\n  vllm:\n    image: vllm/vllm-openai:v0.34.0\n"
    "    command: [m, --return-sampling-mask, --enable-batch-sharded-sampling]\n"
)
DOCKERFILE = "FROM python:3.12-slim\nRUN vllm serve m --return-sampling-mask --enable-batch-sharded-sampling & sleep 5\n"
# name, text, the two codes reported, where a file-level directive may go (after the shebang)
KINDS = [
    ("engine.py", PYTHON, {"VLM105", "VLM201"}, 1),
    ("serve.sh", SHELL, {"VLM105", "VLM106"}, 1),
    ("compose.yaml", YAML, {"VLM105", "VLM106"}, 0),
    ("Dockerfile", DOCKERFILE, {"VLM105", "VLM106"}, 1),
]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.run_check(cli.build_parser().parse_args(["check", "--output-format", "concise", *argv]), out, err)
    return code, out.getvalue(), err.getvalue()


def codes(out: str) -> list[str]:
    return sorted(line.split(": ")[1].split()[0] for line in out.splitlines() if ": VLM" in line)


def with_line(text: str, index: int, line: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(lines[:index] + [line + "\n"] + lines[index:])


# ------------------------------------------------------------------ file-level directives


@pytest.mark.parametrize("name, text, found, where", KINDS, ids=[kind[0] for kind in KINDS])
def test_file_level_directive_in_every_kind_of_file(tmp_path, name, text, found, where):
    path = tmp_path / name
    path.write_text(text)
    assert set(codes(run(str(path))[1])) == found
    path.write_text(with_line(text, where, "# vllm-lint: noqa"))
    assert run(str(path))[:2] == (0, "All checks passed!\n")
    path.write_text(with_line(text, where, "# vllm-lint: noqa: VLM105"))
    assert set(codes(run(str(path))[1])) == found - {"VLM105"}
    path.write_text(with_line(text, where, "  #  VLLM-LINT:noqa: VLM1, VLM2"))  # spelling as ruff's; prefixes
    assert set(codes(run(str(path))[1])) == found - {"VLM105", "VLM106", "VLM201"}


def test_file_level_directive_must_be_a_comment_of_its_own():
    """Not at the end of a line of code, and not a line of a Python string."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "engine.py"
        path.write_text(PYTHON.replace("=True)\n", "=True)  # vllm-lint: noqa\n", 1))
        assert codes(run(str(path))[1]) == ["VLM105", "VLM201"]
        path.write_text('NOTE = """\n# vllm-lint: noqa\n"""\n' + PYTHON)
        assert codes(run(str(path))[1]) == ["VLM105", "VLM201"]


def test_dockerfile_exec_form_is_silenced_by_a_file_level_directive(tmp_path):
    """A comment after an exec-form instruction makes Docker run it as a shell command (and the
    linter, reading it as Docker does, sees no server); the file-level directive is the way."""
    path = tmp_path / "Dockerfile"
    exec_form = 'FROM python:3.12-slim\nCMD ["vllm", "serve", "m", "--return-sampling-mask"]\n'
    path.write_text(exec_form)
    assert codes(run(str(path))[1]) == ["VLM105"]
    path.write_text(exec_form.replace('"]\n', '"]  # noqa: VLM105\n'))
    code, out, _ = run("--extend-select", "VLM901", str(path))
    (line,) = [line for line in out.splitlines() if "VLM901" in line]
    assert "turns the exec form into a shell command" in line and "`# vllm-lint: noqa: VLM105`" in line
    path.write_text("# vllm-lint: noqa: VLM105\n" + exec_form)
    assert run("--extend-select", "VLM901", str(path))[0] == 0


def test_flake8_plugin_honours_the_file_level_directive():
    import ast

    from vllm_lint.integrations.flake8 import VllmLintPlugin

    def reported(source: str) -> list[str]:
        VllmLintPlugin.parse_options(type("Options", (), {"vllm_target_version": None, "disable_noqa": False})())
        plugin = VllmLintPlugin(ast.parse(source), source.splitlines(keepends=True), "engine.py")
        return sorted(message.split()[0] for _, _, message, _ in plugin.run())

    assert reported(PYTHON) == ["VLM105", "VLM201"]
    assert reported("# vllm-lint: noqa: VLM2\n" + PYTHON) == ["VLM105"]


# ------------------------------------------------------------------ unused noqa (VLM901)


UNUSED = (
    "from vllm import LLM\n"
    'used = LLM("m", return_sampling_mask=True)  # noqa: VLM105\n'
    'clean = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: VLM105\n'
    'kept = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: E501,VLM999 legacy\n'
    'other = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: E501\n'
    'bare = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa\n'
)


def test_unused_noqa_is_off_by_default_and_on_with_extend_select(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(UNUSED)
    assert run(str(path))[0] == 0
    code, out, _ = run("--extend-select", "VLM901", str(path))
    assert code == 1
    lines = [line.split(": ", 1)[1] for line in out.splitlines() if ": VLM901" in line]
    # Other tools' codes and a bare noqa are theirs to judge.
    assert lines == [
        "VLM901 [*] unused `noqa` directive (unused: `VLM105`); remove it",
        "VLM901 [*] unused `noqa` directive (unknown: `VLM999`); remove it",
    ]
    assert out.splitlines()[0].startswith(f"{path}:3:")
    # A code whose rule is not selected is not needed either; --select VLM does not enable VLM901.
    code, out, _ = run("--select", "VLM901", str(path))
    assert "(non-enabled: `VLM105`)" in out and codes(out).count("VLM901") == 3
    assert run("--select", "VLM", str(path))[0] == 0
    assert run("--extend-select", "VLM901", "--ignore", "VLM901", str(path))[0] == 0


def test_unused_noqa_in_files_without_any_replay_setting(tmp_path):
    """A noqa comment left after the configuration it silenced was removed."""
    (tmp_path / "engine.py").write_text('from vllm import LLM\nllm = LLM("m")  # noqa: VLM105\n')
    (tmp_path / "serve.sh").write_text("#!/bin/sh\nvllm serve m  # noqa: VLM105\n")
    (tmp_path / "Dockerfile").write_text("# vllm-lint: noqa: VLM106\nFROM python:3.12-slim\n")
    code, out, _ = run("--extend-select", "VLM901", str(tmp_path))
    assert code == 1
    assert sorted(line.split(":")[0].rsplit("/", 1)[-1] for line in out.splitlines() if "VLM901" in line) == [
        "Dockerfile",
        "engine.py",
        "serve.sh",
    ]


def test_unused_noqa_fix_removes_only_the_unused_codes(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(UNUSED)
    code, out, err = run("--extend-select", "VLM901", "--fix", str(path))
    assert code == 0, out + err
    assert path.read_text() == (
        "from vllm import LLM\n"
        'used = LLM("m", return_sampling_mask=True)  # noqa: VLM105\n'
        'clean = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
        'kept = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: E501 legacy\n'
        'other = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: E501\n'
        'bare = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa\n'
    )
    assert run("--extend-select", "VLM901", str(path))[0] == 0


def test_unused_noqa_fix_after_the_rules_fixes(tmp_path):
    """A fix that makes a noqa comment unnecessary leaves no stale comment behind."""
    path = tmp_path / "serve.sh"
    path.write_text("#!/bin/sh\nvllm serve m --return-sampling-mask --logprobs-mode processed_logprobs  # noqa: VLM105\n")
    code, out, err = run("--extend-select", "VLM901", "--fix", str(path))
    assert code == 0, out + err
    assert path.read_text() == "#!/bin/sh\nvllm serve m --return-sampling-mask --logprobs-mode processed_logprobs\n"


# ------------------------------------------------------------------ --add-noqa


@pytest.mark.parametrize("name, text, found, where", KINDS, ids=[kind[0] for kind in KINDS])
def test_add_noqa_silences_every_finding(tmp_path, name, text, found, where):
    path = tmp_path / name
    path.write_text(text)
    lines = {line.split(":")[1] for line in run(str(path))[1].splitlines() if ": VLM" in line}
    code, out, err = run("--add-noqa", str(path))
    assert code == 0
    assert err == ("Added 1 noqa directive.\n" if len(lines) == 1 else f"Added {len(lines)} noqa directives.\n")
    assert run(str(path))[:2] == (0, "All checks passed!\n")
    assert run("--extend-select", "VLM901", str(path))[0] == 0  # none of them is unused
    assert run("--add-noqa", str(path))[2] == "Added 0 noqa directives.\n"


def test_add_noqa_where_a_comment_can_go(tmp_path):
    """Merged into an existing noqa comment; after a comment; not inside a string; on the last
    line of a shell command continued with backslashes."""
    engine = tmp_path / "engine.py"
    engine.write_text(
        "from vllm import LLM\n"
        'a = LLM("m", return_sampling_mask=True)  # noqa: E501\n'
        'b = LLM("m", return_sampling_mask=True)  # the policy engine\n'
        'c = LLM("""a\n'
        'b""", return_sampling_mask=True)\n'
    )
    serve = tmp_path / "serve.sh"
    serve.write_text("#!/bin/sh\nvllm serve m \\\n  --return-sampling-mask \\\n  --port 8000\n")
    code, _, err = run("--add-noqa", str(tmp_path))
    assert (code, err) == (0, "Added 4 noqa directives.\n")
    assert engine.read_text() == (
        "from vllm import LLM\n"
        'a = LLM("m", return_sampling_mask=True)  # noqa: E501, VLM105\n'
        'b = LLM("m", return_sampling_mask=True)  # the policy engine  # noqa: VLM105\n'
        'c = LLM("""a\n'
        'b""", return_sampling_mask=True)  # noqa: VLM105\n'
    )
    assert serve.read_text() == "#!/bin/sh\nvllm serve m \\\n  --return-sampling-mask \\\n  --port 8000  # noqa: VLM105\n"
    assert run(str(tmp_path))[0] == 0


def test_add_noqa_never_breaks_a_dockerfile_exec_form(tmp_path):
    path = tmp_path / "Dockerfile"
    text = 'FROM python:3.12-slim\nCMD ["vllm", "serve", "m", "--return-sampling-mask"]\n'
    path.write_text(text)
    code, _, err = run("--add-noqa", str(path))
    assert path.read_text() == text
    assert "add `# vllm-lint: noqa: VLM105` on a line of its own" in err
    assert err.endswith("Added 0 noqa directives.\n")


def test_add_noqa_refuses_to_combine_with_fix_and_stdin(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(PYTHON)
    for extra in (["--fix"], ["--diff"], ["-"]):
        code, _, err = run("--add-noqa", *extra, str(path))
        assert code == 2 and "--add-noqa" in err
    assert path.read_text() == PYTHON
