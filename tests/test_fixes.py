"""``vllm-lint check --fix``: before/after pairs, idempotence, files on disk, exit codes.

Every ``testdata/fixes/<mode>/name.py`` is fixed by the command line and must
then equal ``name.py.fixed`` byte for byte.  The folder names the switches:
``safe`` (``--fix``), ``unsafe`` (``--fix --unsafe-fixes``), ``disable-replay``
(``--fix --unsafe-fixes --fix-mode disable-replay``).  A fixture may pin the
vLLM release with ``# target-version: X`` at the top.

``VLLM_LINT_UPDATE_FIXES=1 pytest tests/test_fixes.py`` rewrites the
``.fixed`` files (review the diff before committing it).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from fixtures import TESTDATA, fixture_files, target_version
from vllm_lint import cli
from vllm_lint.fix.crossfile import display_path
from vllm_lint.fix.python import fix_source, lint_source
from vllm_lint.versions import NEWEST_VERSION, Version

FIXES = TESTDATA / "fixes"
MODES = {
    "safe": ["--fix"],
    "unsafe": ["--fix", "--unsafe-fixes"],
    "disable-replay": ["--fix", "--unsafe-fixes", "--fix-mode", "disable-replay"],
}
PAIRS = sorted(FIXES.glob("*/*.py"))
UPDATE = os.environ.get("VLLM_LINT_UPDATE_FIXES") == "1"


def version_of(text: str) -> str:
    return target_version(text) or ".".join(map(str, NEWEST_VERSION.release))


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    args = cli.build_parser().parse_args(argv)
    code = cli.run_check(args, out, err)
    return code, out.getvalue(), err.getvalue()


def fix_copy(source: Path, folder: Path, extra: list[str] | None = None) -> tuple[Path, int, str, str]:
    text = source.read_bytes().decode("utf-8", "replace")
    copy = folder / source.name
    shutil.copyfile(source, copy)
    flags = MODES[source.parent.name] if extra is None else extra
    code, out, err = run(["check", *flags, "--target-version", version_of(text), str(copy)])
    return copy, code, out, err


def test_every_mode_has_fixtures():
    assert {path.parent.name for path in PAIRS} == set(MODES)
    missing = [str(path) for path in PAIRS if not Path(f"{path}.fixed").exists() and not UPDATE]
    assert not missing, f"fixtures without a .fixed file: {missing}"


@pytest.mark.parametrize("path", PAIRS, ids=[str(p.relative_to(FIXES)) for p in PAIRS])
def test_fix_pair(path, tmp_path):
    copy, code, out, err = fix_copy(path, tmp_path)
    expected_path = Path(f"{path}.fixed")
    if UPDATE:
        shutil.copyfile(copy, expected_path)
    assert copy.read_bytes() == expected_path.read_bytes(), f"fixed file differs from {expected_path.name}:\n{out}{err}"
    assert "error:" not in err, err
    # The exit code says whether findings remain, and the summary counts them.
    remaining = lint_copy(copy)
    assert code == (1 if remaining else 0), out
    if copy.read_bytes() != path.read_bytes():
        assert f"  {copy}: " in out and f"{len(remaining)} remaining)." in out, out
    else:
        assert "Fixed " not in out and f"Found {len(remaining)} error" in out, out


def lint_copy(copy: Path):
    version = version_of(copy.read_text("utf-8", "replace"))
    code, out, _ = run(["check", "--output-format", "json", "--target-version", version, str(copy)])
    return json.loads(out)


@pytest.mark.parametrize("path", PAIRS, ids=[str(p.relative_to(FIXES)) for p in PAIRS])
def test_fixed_file_is_stable(path, tmp_path):
    """Fixing the expected output again changes nothing, and leaves no fix that this mode applies."""
    fixed = Path(f"{path}.fixed")
    if not fixed.exists():
        pytest.skip("no .fixed file yet")
    copy = tmp_path / path.name
    shutil.copyfile(fixed, copy)
    version = version_of(fixed.read_text("utf-8", "replace"))
    code, out, err = run(["check", *MODES[path.parent.name], "--target-version", version, str(copy)])
    assert copy.read_bytes() == fixed.read_bytes()
    assert "Fixed " not in out


def test_diff_writes_nothing_and_exits_1(tmp_path):
    source = FIXES / "safe" / "logprobs_mode_missing.py"
    copy = tmp_path / source.name
    shutil.copyfile(source, copy)
    code, out, err = run(["check", "--diff", str(copy)])
    assert code == 1
    assert copy.read_bytes() == source.read_bytes()
    assert out.startswith(f"--- {copy}\n+++ {copy}\n")
    assert '+policy = LLM(MODEL, return_sampling_mask=True, logprobs_mode="processed_logprobs")' in out
    assert "Would fix 7 errors." in err


def test_diff_exits_0_when_nothing_would_change(tmp_path):
    source = FIXES / "safe" / "unfixable.py"
    copy = tmp_path / source.name
    shutil.copyfile(source, copy)
    code, out, err = run(["check", "--diff", "--target-version", "0.30", str(copy)])
    assert (code, out) == (0, "")
    assert "No errors would be fixed" in err


def test_unsafe_fixes_are_hidden_without_the_switch(tmp_path):
    source = FIXES / "unsafe" / "batch_sharded_sampling.py"
    copy, code, out, err = fix_copy(source, tmp_path, ["--fix"])
    assert code == 1
    assert copy.read_bytes() == source.read_bytes()
    assert out.endswith("Found 2 errors.\nNo fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option).\n")
    code, out, err = run(["check", "--diff", str(copy)])
    assert code == 0 and "(2 additional fixes available with `--unsafe-fixes`)" in err


MIXED_PY = (
    "from vllm import LLM, SamplingParams\n"
    'llm = LLM("m", return_sampling_mask=True, logits_processors=["a:B"])\n'
    "llm.generate(['x'], SamplingParams(temperature=0, top_k=5))\n"
)
MIXED_SH = "vllm serve m --return-sampling-mask --enable-batch-sharded-sampling\n"


@pytest.mark.parametrize("name, text", [("engine.py", MIXED_PY), ("serve.sh", MIXED_SH)])
def test_fixable_findings_are_marked_and_counted(tmp_path, name, text):
    """``[*]`` marks a finding ``--fix`` fixes; the summary counts them and the unsafe ones held back."""
    path = tmp_path / name
    path.write_text(text)
    code, out, _ = run(["check", "--output-format", "concise", str(path)])
    marked = {line.split(": ")[1].split()[0]: "[*]" in line for line in out.splitlines() if line.startswith(str(path))}
    assert marked["VLM105"] is True  # a safe fix
    assert marked.get("VLM104", marked.get("VLM106")) is False  # an unsafe fix, without --unsafe-fixes
    assert out.splitlines()[-1] == "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option)."
    code, out, _ = run(["check", "--output-format", "concise", "--unsafe-fixes", str(path)])
    marked = [line for line in out.splitlines() if line.startswith(str(path))]
    assert sum("[*]" in line for line in marked) == 2
    assert out.splitlines()[-1] == "[*] 2 fixable with the `--fix` option."
    path.write_text(text.replace("return_sampling_mask=True", "return_sampling_mask=True, logprobs_mode='processed_logprobs'")
                    .replace("--return-sampling-mask", "--return-sampling-mask --logprobs-mode processed_logprobs"))
    code, out, _ = run(["check", "--output-format", "concise", str(path)])
    assert "[*]" not in out
    assert out.splitlines()[-1] == "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."


@pytest.mark.parametrize("name, text", [("engine.py", MIXED_PY), ("serve.sh", MIXED_SH)])
def test_disable_replay_without_unsafe_fixes_says_why(tmp_path, name, text):
    """Turning replay off is an unsafe fix: without --unsafe-fixes nothing is removed, and the run says so."""
    path = tmp_path / name
    path.write_text(text)
    code, out, err = run(["check", "--fix", "--fix-mode", "disable-replay", str(path)])
    assert code == 1
    assert path.read_text() == text
    assert "--fix-mode disable-replay removes return_sampling_mask, an unsafe fix; add --unsafe-fixes to apply it" in err
    code, out, err = run(["check", "--fix", "--fix-mode", "disable-replay", "--unsafe-fixes", str(path)])
    fixed = path.read_text()
    assert "return_sampling_mask" not in fixed and "--return-sampling-mask" not in fixed
    assert "disable-replay" not in err


def test_quiet_prints_diagnostics_and_diffs_only(tmp_path):
    """``-q``: findings, and the diff with --diff; no summary, no "Would fix", no "Fixed"."""
    path = tmp_path / "engine.py"
    path.write_text(MIXED_PY)
    code, out, err = run(["check", "-q", "--diff", str(path)])
    assert code == 1 and out.startswith("---") and err == ""
    code, out, err = run(["check", "-q", "--output-format", "concise", str(path)])
    assert code == 1 and err == "" and all(line.startswith(f"{path}:") for line in out.splitlines())
    code, out, err = run(["check", "-q", "--fix", "--output-format", "concise", str(path)])
    assert code == 1 and err == ""
    assert [line.split(": ")[1].split()[0] for line in out.splitlines()] == ["VLM104", "VLM201"]


def test_fix_reports_files_and_counts(tmp_path):
    first, _, _, _ = fix_copy(FIXES / "safe" / "rename_then_add.py", tmp_path, [])
    second, _, _, _ = fix_copy(FIXES / "unsafe" / "batch_sharded_sampling.py", tmp_path, [])
    code, out, err = run(["check", "--fix", str(first), str(second)])
    assert code == 1
    assert f"  {first}: 1 × VLM105, 1 × VLM302\n" in out
    assert "Fixed 2 errors in 1 file:" in out
    assert "Found 4 errors (2 fixed, 2 remaining)." in out
    assert out.count(f"{second}:") == 2  # the findings left


def test_mode_and_line_endings_survive(tmp_path):
    source = FIXES / "safe" / "crlf.py"
    copy = tmp_path / "crlf.py"
    shutil.copyfile(source, copy)
    os.chmod(copy, 0o751)
    code, _, _ = run(["check", "--fix", str(copy)])
    assert code == 0
    assert stat.S_IMODE(os.stat(copy).st_mode) == 0o751
    data = copy.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n")
    assert not list(tmp_path.glob(".crlf.py.*")), "temporary file left behind"


def test_symlink_keeps_pointing_at_the_file(tmp_path):
    real = tmp_path / "real.py"
    shutil.copyfile(FIXES / "safe" / "rename_then_add.py", real)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    code, _, _ = run(["check", "--fix", str(link)])
    assert code == 0
    assert link.is_symlink()
    assert real.read_bytes() == Path(f"{FIXES / 'safe' / 'rename_then_add.py'}.fixed").read_bytes()


def test_a_file_whose_lines_end_in_cr_keeps_its_last_line_break(tmp_path):
    copy = tmp_path / "cr.py"
    copy.write_bytes(b'from vllm import LLM\rllm = LLM("m", return_sampling_mask=True)\r')
    code, _, _ = run(["check", "--fix", str(copy)])
    assert code == 0
    assert copy.read_bytes() == b'from vllm import LLM\rllm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\r'


def test_a_read_only_file_is_left_alone_with_a_diagnostic(tmp_path):
    source = FIXES / "safe" / "rename_then_add.py"
    copy = tmp_path / "read_only.py"
    shutil.copyfile(source, copy)
    other = tmp_path / "writable.py"
    shutil.copyfile(source, other)
    os.chmod(copy, 0o444)
    try:
        code, out, err = run(["check", "--fix", str(copy), str(other)])
        assert code == 1
        assert copy.read_bytes() == source.read_bytes()  # even for root, who could replace it
        assert err == f"vllm-lint: error: {copy}: cannot write: the file is read-only\n"
        assert stat.S_IMODE(os.stat(copy).st_mode) == 0o444
        assert other.read_bytes() == Path(f"{source}.fixed").read_bytes()
    finally:
        os.chmod(copy, 0o644)


def test_hard_links_keep_sharing_the_fixed_file(tmp_path):
    source = FIXES / "safe" / "rename_then_add.py"
    first = tmp_path / "first.py"
    shutil.copyfile(source, first)
    second = tmp_path / "second.py"
    os.link(first, second)
    code, _, _ = run(["check", "--fix", str(first)])
    assert code == 0
    assert os.path.samefile(first, second)
    assert second.read_bytes() == Path(f"{source}.fixed").read_bytes()


def test_file_changed_after_linting_is_not_overwritten(tmp_path, monkeypatch):
    from vllm_lint.fix import apply

    copy = tmp_path / "changed.py"
    shutil.copyfile(FIXES / "safe" / "rename_then_add.py", copy)
    edited = b"# edited meanwhile\n" + copy.read_bytes()
    real_fix = apply.fix_python_result

    def fix_then_edit(*args, **kwargs):
        fixed = real_fix(*args, **kwargs)
        copy.write_bytes(edited)  # someone saves the file while the fix is computed
        return fixed

    monkeypatch.setattr(apply, "fix_python_result", fix_then_edit)
    code, out, err = run(["check", "--fix", str(copy)])
    assert copy.read_bytes() == edited
    assert "changed on disk since it was read; not overwritten" in err
    assert code == 1


def test_file_changed_between_lint_and_fix_is_not_touched(tmp_path, monkeypatch):
    from vllm_lint import lint

    copy = tmp_path / "changed.py"
    shutil.copyfile(FIXES / "safe" / "rename_then_add.py", copy)
    edited = copy.read_bytes() + b"# edited meanwhile\n"
    real_lint = lint.lint_file

    def lint_then_edit(*args, **kwargs):
        result = real_lint(*args, **kwargs)
        copy.write_bytes(edited)
        return result

    monkeypatch.setattr(lint, "lint_file", lint_then_edit)
    code, out, err = run(["check", "--fix", str(copy)])
    assert copy.read_bytes() == edited
    assert "changed on disk since it was read" in err
    assert code == 1


def test_unparseable_result_leaves_the_file_untouched(tmp_path, monkeypatch):
    from vllm_lint.fix import python

    copy = tmp_path / "broken.py"
    source = FIXES / "safe" / "rename_then_add.py"
    shutil.copyfile(source, copy)
    monkeypatch.setattr(python, "transform", lambda text, targets: (text + "\n)(\n", {0}))
    code, out, err = run(["check", "--fix", str(copy)])
    assert copy.read_bytes() == source.read_bytes()
    assert "the fixed source does not parse" in err and "file left unchanged" in err
    assert code == 1


def test_json_output_shows_fixes_that_reproduce_the_fix(tmp_path):
    """Each finding's fix in JSON, applied alone, gives the fixer's own result for that finding."""
    from vllm_lint.findings import Edit
    from vllm_lint.fix.text import apply_edits

    source = FIXES / "unsafe" / "logits_processors.py"
    text = source.read_text()
    code, out, _ = run(["check", "--output-format", "json", str(source)])
    records = json.loads(out)
    assert records and all(record["fix"] is not None for record in records)
    for record in records:
        fix = record["fix"]
        assert fix["applicability"] == "unsafe" and fix["message"] == "Remove `logits_processors`"
        edits = [
            Edit(
                (e["location"]["row"], e["location"]["column"]),
                (e["end_location"]["row"], e["end_location"]["column"]),
                e["content"],
            )
            for e in fix["edits"]
        ]
        fixed = apply_edits(text, edits)
        assert fixed is not None and "logits_processors" not in fixed.splitlines()[record["location"]["row"] - 1]
        compile(fixed, "fixed.py", "exec")
    first = records[0]["fix"]["edits"][0]
    assert (first["location"], first["end_location"], first["content"]) == (
        {"row": 11, "column": 5},
        {"row": 12, "column": 5},
        "",
    )


def test_full_output_names_the_fix():
    source = FIXES / "safe" / "logprobs_mode_wrong.py"
    code, out, _ = run(["check", "--output-format", "full", str(source)])
    assert '= help: Set `logprobs_mode="processed_logprobs"` (safe fix)' in out


# ------------------------------------------------------------------ idempotence


def _all_python_fixtures() -> list[Path]:
    files = sorted(FIXES.glob("*/*.py")) + sorted(FIXES.glob("*/*.py.fixed"))
    return files + [p for p in fixture_files("python") if p.suffix == ".py"]


IDEMPOTENCE = _all_python_fixtures()


@pytest.mark.parametrize("mode", ["keep-replay", "disable-replay"])
@pytest.mark.parametrize("path", IDEMPOTENCE, ids=[str(p.relative_to(TESTDATA)) for p in IDEMPOTENCE])
def test_fixing_twice_changes_nothing_more(path, mode):
    from vllm_lint.fix.apply import decode_python

    text, _ = decode_python(path.read_bytes())
    pinned = target_version(text)
    version = Version.parse(pinned) if pinned else NEWEST_VERSION
    once = fix_source(text, str(path), version, unsafe=True, mode=mode)
    assert once.error is None, once.error
    compile(once.source, str(path), "exec")
    twice = fix_source(once.source, str(path), version, unsafe=True, mode=mode)
    assert twice.source == once.source
    assert not twice.fixed
    if not lint_source(text, str(path), version):
        assert once.source == text


def test_shared_dicts_are_reported_without_a_fix():
    source = FIXES / "unsafe" / "shared_dict.py"
    code, out, _ = run(["check", "--output-format", "json", str(source)])
    records = json.loads(out)
    assert [(r["code"], r["location"]["row"]) for r in records] == [("VLM104", 6), ("VLM104", 7), ("VLM102", 14)]
    assert all(r["fix"] is None for r in records)


# ------------------------------------------------------------------ standard input


def test_fix_from_stdin_prints_the_fixed_source(tmp_path, monkeypatch):
    source = FIXES / "safe" / "rename_then_add.py"
    on_disk = tmp_path / "engines.py"
    shutil.copyfile(source, on_disk)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(source.read_bytes())))
    code, out, err = run(["check", "--fix", "--stdin-filename", str(on_disk), "-"])
    assert code == 0
    assert out == Path(f"{source}.fixed").read_text()
    assert on_disk.read_bytes() == source.read_bytes()  # the file named is not written
    assert "Found 2 errors (2 fixed, 0 remaining)." in err


def test_fix_from_stdin_echoes_a_file_without_findings(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"x = 1\n")))
    code, out, err = run(["check", "--fix", "-"])
    assert (code, out) == (0, "x = 1\n")


# ------------------------------------------------------------------ the plain check path


@pytest.mark.parametrize(
    ("output_format", "imported"), [("text", False), ("concise", False), ("full", False), ("json", True)]
)
def test_libcst_loads_only_for_fixes(output_format, imported):
    """``check`` alone never imports libcst: text output names each fix from the plan; only
    JSON shows a fix's edits, which libcst computes."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from vllm_lint import cli\n"
        f"cli.main(['check', '--output-format', {output_format!r}, {str(FIXES / 'safe' / 'logprobs_mode_wrong.py')!r}])\n"
        "print('libcst' in sys.modules, file=sys.stderr)\n"
    )
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert completed.stderr.strip().splitlines()[-1] == str(imported)


# ------------------------------------------------------------------ text edits (other front ends)


def test_text_edits_keep_crlf_and_skip_overlaps():
    from vllm_lint.findings import Edit
    from vllm_lint.fix.text import apply_edits

    text = "vllm serve m \\\r\n  --return-sampling-mask\r\n"
    added = apply_edits(text, [Edit((2, 25), (2, 25), " \\\n  --logprobs-mode processed_logprobs")], "\r\n")
    assert added == "vllm serve m \\\r\n  --return-sampling-mask \\\r\n  --logprobs-mode processed_logprobs\r\n"
    assert apply_edits(text, [Edit((1, 1), (1, 5), "x"), Edit((1, 3), (1, 6), "y")]) is None  # overlapping
    assert apply_edits(text, [Edit((9, 1), (9, 2), "x")]) is None  # outside the text


def test_text_fixes_run_in_passes_with_the_findings_own_edits():
    from vllm_lint.facts import Span
    from vllm_lint.findings import Edit, Finding, Fix
    from vllm_lint.fix.text import fix_text

    def finding(code, edit, safety="safe"):
        return Finding(code, "name", "message", Span(1, 0), fix=Fix(safety, "fix it", [edit]))

    text = "a b c\n"
    first = [finding("VLM302", Edit((1, 1), (1, 2), "A")), finding("VLM104", Edit((1, 5), (1, 6), "C"), "unsafe")]
    later = {"A b c\n": [finding("VLM105", Edit((1, 3), (1, 4), "B"))], "A B c\n": []}
    outcome = fix_text(text, first, lambda new: later[new])
    assert outcome.text == "A B c\n"
    assert [f.code for f in outcome.fixed] == ["VLM302", "VLM105"]
    assert outcome.remaining == []


@pytest.mark.skipif(
    __import__("importlib").util.find_spec("vllm_lint.commandline.kinds") is None,
    reason="the command-line front end is not installed",
)
def test_shell_script_fix_keeps_line_endings(tmp_path):
    script = tmp_path / "serve.sh"
    script.write_bytes(b"#!/bin/bash\r\nvllm serve Qwen/Qwen3-4B \\\r\n  --return-sampling-mask \\\r\n  --port 8000\r\n")
    os.chmod(script, 0o755)
    code, out, err = run(["check", "--fix", str(script)])
    data = script.read_bytes()
    assert code == 0, out + err
    assert b"--logprobs-mode processed_logprobs" in data
    assert data.count(b"\r\n") == data.count(b"\n")
    assert stat.S_IMODE(os.stat(script).st_mode) == 0o755
    assert f"  {script}: 1 × VLM105" in out


@pytest.mark.parametrize("mode", ["keep-replay", "disable-replay"])
def test_fixing_command_line_fixtures_twice_changes_nothing_more(tmp_path, mode):
    source = TESTDATA / "commandline"
    if not source.is_dir():
        pytest.skip("no command-line fixtures")
    tree = tmp_path / "commandline"
    shutil.copytree(source, tree)
    flags = ["--fix", "--unsafe-fixes", "--fix-mode", mode, "--target-version", "0.34", str(tree)]
    code, out, err = run(["check", *flags])
    assert "error:" not in err, err
    after_first = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()}
    code, out, err = run(["check", *flags])
    assert "Fixed " not in out, out
    assert {p: p.read_bytes() for p in tree.rglob("*") if p.is_file()} == after_first


def test_disable_replay_mode_on_a_serve_script(tmp_path):
    script = tmp_path / "serve.sh"
    script.write_text(
        "#!/usr/bin/env bash\n"
        "vllm serve Qwen/Qwen3-8B \\\n"
        "    --return-sampling-mask \\\n"
        "    --enable-batch-sharded-sampling\n"
    )
    from vllm_lint.cli import main

    assert main(["check", "--fix", "--unsafe-fixes", "--fix-mode", "disable-replay", str(script)]) == 0
    assert script.read_text() == "#!/usr/bin/env bash\nvllm serve Qwen/Qwen3-8B \\\n    --enable-batch-sharded-sampling\n"


def test_emptying_a_block_never_removes_the_next_statement():
    """A block whose only statement a fix removes gets ``pass``; the statement after the block
    stays, however the interpreter reuses the memory of the nodes the fix discards."""
    from vllm_lint.fix.python import fix_source

    block = (
        "\ndef build_{i}():\n"
        '    kwargs = {{"model": "m", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}}\n'
        "    if True:\n"
        '        kwargs["logits_processors"] = ["my_pkg.processors:NoRepeat"]\n'
        "    return LLM(**kwargs)\n"
    )
    source = "from vllm import LLM\n" + "".join(block.format(i=i) for i in range(20))
    allocations = []
    for attempt in range(16):
        allocations.append([object() for _ in range(attempt * 7)])  # shift where new nodes land
        fixed = fix_source(source, "engines.py", NEWEST_VERSION, unsafe=True).source
        assert fixed.count("return LLM(**kwargs)") == 20
        assert fixed.count("        pass\n") == 20


# ------------------------------------------------------------------ argv lists in Python


def test_argv_list_fixes_in_json_are_the_fixers_own():
    """A finding about a server started from a Python list has a fix only where the list's
    strings are its own; applied alone, each fix's edits give a file that parses."""
    from vllm_lint.findings import Edit
    from vllm_lint.fix.text import apply_edits

    source = FIXES / "unsafe" / "argv_lists.py"
    text = source.read_text()
    code, out, _ = run(["check", "--output-format", "json", str(source)])
    records = json.loads(out)
    fixable = {record["location"]["row"]: record["fix"] for record in records if record["fix"] is not None}
    assert sorted(fixable) == [18, 27, 28, 41, 50, 89]
    for fix in fixable.values():
        assert fix["applicability"] == "unsafe"
        edits = [
            Edit(
                (e["location"]["row"], e["location"]["column"]),
                (e["end_location"]["row"], e["end_location"]["column"]),
                e["content"],
            )
            for e in fix["edits"]
        ]
        fixed = apply_edits(text, edits)
        assert fixed is not None and fixed != text
        compile(fixed, "fixed.py", "exec")
    assert fixable[18]["message"] == "Remove `--logits-processors`"


# ------------------------------------------------------------------ values written in another file

PROJECTS = TESTDATA / "fixes-project"
PROJECT_MODES = sorted(path.name for path in PROJECTS.iterdir() if path.is_dir())


def copy_project(mode: str, folder: Path) -> Path:
    tree = folder / mode
    shutil.copytree(PROJECTS / mode, tree, ignore=shutil.ignore_patterns("*.fixed", "__pycache__"))
    return tree


def expected_after_fix(tree: Path, mode: str) -> dict[str, bytes]:
    """Each file's bytes after the fix: its ``.fixed`` twin, or the file itself when the fix leaves it."""
    expected = {}
    for path in sorted((PROJECTS / mode).rglob("*.py")):
        relative = path.relative_to(PROJECTS / mode)
        fixed = Path(f"{path}.fixed")
        expected[str(relative)] = (fixed if fixed.exists() else path).read_bytes()
    return expected


def files_with_findings(tree: Path) -> list[str]:
    code, out, _ = run(["check", "--output-format", "json", str(tree)])
    return sorted({record["filename"] for record in json.loads(out)})


def test_every_fix_mode_has_a_project():
    assert PROJECT_MODES == sorted(MODES)


@pytest.mark.parametrize("named", ["folder", "files with findings"])
@pytest.mark.parametrize("mode", PROJECT_MODES)
def test_fix_goes_to_the_file_the_value_is_written_in(mode, named, tmp_path):
    tree = copy_project(mode, tmp_path)
    paths = [str(tree)] if named == "folder" else files_with_findings(tree)
    code, out, err = run(["check", *MODES[mode], *paths])
    assert "error:" not in err, err
    after = {str(p.relative_to(tree)): p.read_bytes() for p in sorted(tree.rglob("*.py"))}
    if UPDATE and named == "folder":
        for relative, data in after.items():
            original = PROJECTS / mode / relative
            if data != original.read_bytes():
                Path(f"{original}.fixed").write_bytes(data)
    assert after == expected_after_fix(tree, mode), out
    assert "edited for the findings in" in out
    # Fixing again changes nothing; what is left has no fix in this mode.
    code, out, err = run(["check", *MODES[mode], str(tree)])
    assert "Fixed " not in out
    assert {str(p.relative_to(tree)): p.read_bytes() for p in sorted(tree.rglob("*.py"))} == after
    fix_mode = ["--fix-mode", "disable-replay"] if mode == "disable-replay" else []
    code, out, _ = run(["check", "--output-format", "json", *fix_mode, str(tree)])
    assert all(record["fix"] is None for record in json.loads(out))


def test_diff_shows_the_other_file_and_writes_nothing(tmp_path):
    tree = copy_project("safe", tmp_path)
    before = {p: p.read_bytes() for p in tree.rglob("*.py")}
    worker = tree / "serving" / "worker.py"
    code, out, err = run(["check", "--diff", str(worker)])
    assert code == 1
    assert {p: p.read_bytes() for p in tree.rglob("*.py")} == before
    settings = display_path(str(tree / "serving" / "settings.py"))
    assert f"--- {worker}\n+++ {worker}\n" in out and f"--- {settings}\n+++ {settings}\n" in out
    assert '+    "logprobs_mode": "processed_logprobs",  # what the trainer used to read\n' in out
    assert "Would fix 3 errors." in err
    # Nothing was written, and the next run analyses the files as they are on disk.
    code, again, _ = run(["check", "--diff", str(worker)])
    assert again == out


def test_json_lists_edits_in_another_file_apart(tmp_path):
    """ruff's edits have no file of their own: a consumer applies them to the finding's file.
    Edits in another file are listed under ``edits_elsewhere``, each with its file."""
    from vllm_lint.findings import Edit
    from vllm_lint.fix.text import apply_edits

    tree = copy_project("safe", tmp_path)
    settings = tree / "serving" / "settings.py"
    code, out, _ = run(["check", "--output-format", "json", str(tree / "serving" / "worker.py")])
    records = {record["location"]["row"]: record for record in json.loads(out)}
    fix = records[6]["fix"]
    assert fix["edits"] == []
    assert fix["message"] == f'Set `logprobs_mode="processed_logprobs"` in {display_path(str(settings))}'
    [edit] = fix["edits_elsewhere"]
    assert edit["filename"] == str(settings)
    location = (edit["location"]["row"], edit["location"]["column"])
    end = (edit["end_location"]["row"], edit["end_location"]["column"])
    fixed = apply_edits(settings.read_text(), [Edit(location, end, edit["content"])])
    assert '"logprobs_mode": "processed_logprobs",  # what the trainer used to read' in fixed
    assert records[8]["fix"] is None and records[9]["fix"] is None  # shared with the evaluator; a function's
    assert records[10]["fix"]["edits"] and "edits_elsewhere" not in records[10]["fix"]  # added in the call here


def test_other_file_changed_since_it_was_read_is_not_overwritten(tmp_path, monkeypatch):
    from vllm_lint.fix import apply

    tree = copy_project("safe", tmp_path)
    worker, settings = tree / "serving" / "worker.py", tree / "serving" / "settings.py"
    worker_before = worker.read_bytes()
    edited = settings.read_bytes() + b"# edited meanwhile\n"
    real_fix = apply.fix_python_result

    def fix_then_edit(*args, **kwargs):
        fixed = real_fix(*args, **kwargs)
        settings.write_bytes(edited)  # someone saves the other file while the fix is computed
        return fixed

    monkeypatch.setattr(apply, "fix_python_result", fix_then_edit)
    code, out, err = run(["check", "--fix", str(worker)])
    assert settings.read_bytes() == edited
    assert worker.read_bytes() == worker_before  # all of the fix's files, or none
    assert f"{settings}: changed on disk since it was read; not overwritten" in err
    assert code == 1


def test_other_file_keeps_its_encoding_line_endings_and_mode(tmp_path):
    tree = copy_project("safe", tmp_path)
    settings = tree / "serving" / "settings.py"
    text = "# -*- coding: latin-1 -*-\n# réglages\n" + settings.read_text()
    settings.write_bytes(text.replace("\n", "\r\n").encode("latin-1"))
    os.chmod(settings, 0o640)
    code, out, err = run(["check", "--fix", str(tree / "serving" / "worker.py")])
    assert "error:" not in err, err
    data = settings.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n")
    assert "# réglages".encode("latin-1") in data
    assert b'"logprobs_mode": "processed_logprobs",  # what the trainer used to read' in data
    assert stat.S_IMODE(os.stat(settings).st_mode) == 0o640
    assert not list(settings.parent.glob(".settings.py.*")), "temporary file left behind"


@pytest.mark.parametrize(
    "change",
    [
        "--exclude",  # the run excludes the other file
        "star import",  # another module takes every name of it
        "read twice",  # two engines here read the dict
    ],
)
def test_no_fix_where_the_other_file_is_not_this_engines_alone(change, tmp_path):
    tree = copy_project("safe", tmp_path)
    worker, settings = tree / "serving" / "worker.py", tree / "serving" / "settings.py"
    flags = []
    if change == "--exclude":
        flags = ["--exclude", "settings.py"]
    elif change == "star import":
        (tree / "serving" / "everything.py").write_text("from .settings import *\n")
    else:
        worker.write_text(worker.read_text() + "second_policy = LLM(**POLICY_KWARGS)\n")
    code, out, err = run(["check", "--fix", *flags, str(worker)])
    assert '"logprobs_mode": "raw_logprobs",  # what the trainer used to read' in settings.read_text()
    assert f"{worker}:6:" in out  # reported, not fixed


def test_stdin_never_edits_another_file(tmp_path, monkeypatch):
    tree = copy_project("safe", tmp_path)
    worker, settings = tree / "serving" / "worker.py", tree / "serving" / "settings.py"
    before = settings.read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(worker.read_bytes())))
    code, out, err = run(["check", "--fix", "--stdin-filename", str(worker), "-"])
    assert settings.read_bytes() == before
    assert 'value = LLM(**VALUE_KWARGS, logprobs_mode="processed_logprobs")' in out  # this file's own fix
