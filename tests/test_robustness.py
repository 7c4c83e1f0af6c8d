"""The linter never crashes, never hangs and never cries wolf.

* the whole standard library, through the command line: no finding, exit 0;
* the analysis itself (the prefilter bypassed) on the standard library's
  modules: no exception, no finding.  By default every third file (sorted by
  path) is analysed, in two processes, to keep the test near 10-20 seconds;
  ``VLLM_LINT_FULL_STDLIB=1`` analyses every file;
* bad files: each gets one diagnostic, the run completes with exit 1 and no
  traceback.  Files that cannot hold a finding (no ``vllm`` and no replay
  setting in their bytes) are skipped before they are read as Python, so every
  bad file here carries that text.
"""

from __future__ import annotations

import ast
import os
import stat
import subprocess
import sys
import sysconfig
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from vllm_lint.versions import NEWEST_VERSION

STDLIB = Path(sysconfig.get_paths()["stdlib"])
# Let through by the byte prefilter: vLLM and a replay setting given a value.
RELEVANT = b'from vllm import LLM\nENGINE_KWARGS = {"return_sampling_mask": True}\n'
TIMEOUT = 180


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


# ----------------------------------------------------------- standard library


def stdlib_files() -> list[str]:
    found = []
    for directory, subdirs, names in os.walk(STDLIB):
        subdirs[:] = sorted(d for d in subdirs if d not in ("site-packages", "dist-packages", "__pycache__"))
        found.extend(os.path.join(directory, name) for name in sorted(names) if name.endswith(".py"))
    return found


def test_stdlib_through_the_command_line():
    result = run_cli(str(STDLIB))
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def _analyse(paths: list[str]) -> list[str]:
    """Problems found while analysing ``paths`` directly: exceptions and findings."""
    from vllm_lint.python import analyze_tree

    problems = []
    for path in paths:
        with open(path, "rb") as handle:
            data = handle.read()
        try:
            tree = ast.parse(data, filename=path)
        except (SyntaxError, ValueError):
            continue  # the test suite's deliberately broken files
        try:
            findings = analyze_tree(tree, NEWEST_VERSION)
        except Exception as error:  # noqa: BLE001 - any exception is the failure
            problems.append(f"{path}: {type(error).__name__}: {error}")
            continue
        problems.extend(f"{path}:{f.span.line}: {f.text}" for f in findings)
    return problems


def test_analysis_of_the_stdlib_never_crashes_and_finds_nothing():
    files = stdlib_files()
    if not os.environ.get("VLLM_LINT_FULL_STDLIB"):
        files = files[::3]
    assert len(files) > 250
    chunks = [files[i::8] for i in range(8)]
    with ProcessPoolExecutor(2) as pool:
        problems = [problem for found in pool.map(_analyse, chunks) for problem in found]
    assert not problems, "\n".join(problems[:20])


def test_containers_that_hold_themselves():
    source = """
from vllm import LLM
d = {"return_sampling_mask": True}
d["self"] = d
unknown(d)
items = []
items.append(items)
unknown(items)
nested = {"speculative_config": {}}
nested["speculative_config"]["back"] = nested
LLM("m", return_sampling_mask=True, logits_processors=items, **nested)
"""
    from vllm_lint.python import analyze_tree

    analyze_tree(ast.parse(source), NEWEST_VERSION)


# ------------------------------------------------------------------ bad files


def _parses(source: bytes) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, RecursionError, MemoryError):
        return False
    return True


def _write_bad_files(root: Path) -> dict[str, str]:
    """Bad files under ``root``; the value is text the file's diagnostic must contain."""
    expected: dict[str, str] = {}

    def put(name: str, data: bytes, diagnostic: str) -> None:
        (root / name).write_bytes(data)
        expected[name] = diagnostic

    put("binary.py", b"\x7fELF\x00\x01\x02" + RELEVANT + b"\x00\xff", "binary file")
    put("invalid_utf8.py", RELEVANT + b'LLM("m", return_sampling_mask=True)  # \xff\xfe\n', "invalid utf-8")
    put("bad_cookie.py", b"# -*- coding: no-such-codec -*-\n" + RELEVANT, "cannot parse")
    put("syntax.py", RELEVANT + b"def broken(:\n", "syntax error")
    put("deep_parens.py", RELEVANT + b"x = " + b"(" * 10_000 + b")" * 10_000 + b"\n", "cannot parse")
    put("deep_lists.py", RELEVANT + b"x = " + b"[" * 10_000 + b"]" * 10_000 + b"\n", "cannot parse")
    put("deep_calls.py", RELEVANT + b"x = " + b"f(" * 10_000 + b")" * 10_000 + b"\n", "cannot parse")
    # Python 3.10 parses a chain this long (and the analysis follows it); later versions do not.
    deep_binop = RELEVANT + b"x = " + b" + ".join([b"1"] * 10_000) + b'\nLLM("m", return_sampling_mask=True)\n'
    put("deep_binop.py", deep_binop, "VLM105" if _parses(deep_binop) else "cannot parse")
    put(
        "deep_blocks.py",
        RELEVANT + b"".join(b" " * i + b"if x:\n" for i in range(300)) + b" " * 300 + b"pass\n",
        "cannot parse",
    )
    # 50 MB that parses: over the analysis limit, so it is reported, not parsed.
    padding = b"# padding of a big generated file ........................................\n"
    put(
        "big.py",
        b'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True)\n' + padding * (50 * 2**20 // len(padding)),
        "too large to analyse",
    )
    # Over the size limit: reported without being read (a sparse file costs no disk).
    with open(root / "huge.py", "wb") as handle:
        handle.truncate(65 * 2**20)
    expected["huge.py"] = "file too large"

    os.symlink("loop.py", root / "loop.py")
    expected["loop.py"] = "symbolic links"
    os.symlink("does_not_exist.py", root / "dangling.py")
    expected["dangling.py"] = "cannot read"
    os.mkfifo(root / "fifo.py")
    expected["fifo.py"] = "not a regular file"
    (root / "sub").mkdir()
    os.symlink("..", root / "sub" / "parent")  # a directory loop: walked once
    return expected


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bad_files_each_get_a_diagnostic(tmp_path, jobs):
    expected = _write_bad_files(tmp_path)
    result = run_cli("-j", jobs, "--output-format", "concise", ".", cwd=tmp_path)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    for name, diagnostic in expected.items():
        mine = [line for line in lines if line.startswith(f"{name}:")]
        assert len(mine) == 1, f"{name}: expected one diagnostic, got {mine}"
        assert diagnostic.lower() in mine[0].lower(), mine[0]
    assert not any(line.startswith("sub") for line in lines)


def test_unreadable_file(tmp_path):
    path = tmp_path / "secret.py"
    path.write_bytes(RELEVANT)
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as a user who can read a mode-000 file (root)")
        result = run_cli(str(path))
        assert "Traceback" not in result.stderr
        assert result.returncode == 1
        assert "cannot read" in result.stdout
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_a_directory_named_like_a_python_file(tmp_path):
    folder = tmp_path / "x.py"
    folder.mkdir()
    (folder / "inner.py").write_bytes(RELEVANT + b'LLM("m", return_sampling_mask=True)\n')
    result = run_cli(str(folder))
    assert "Traceback" not in result.stderr
    assert result.returncode == 1
    assert "inner.py" in result.stdout


def test_file_deleted_after_discovery(tmp_path, monkeypatch, capsys):
    from vllm_lint import cli

    kept = tmp_path / "kept.py"
    kept.write_bytes(RELEVANT + b'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n')
    gone = tmp_path / "gone.py"
    gone.write_bytes(RELEVANT)
    discover = cli.discover

    def discover_then_delete(*args, **kwargs):
        found = discover(*args, **kwargs)
        gone.unlink()
        return found

    monkeypatch.setattr(cli, "discover", discover_then_delete)
    code = cli.main(["check", "--output-format", "concise", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert f"{gone}: cannot parse: cannot read" in out
    assert "kept.py" not in out


# ------------------------------------------------------- deep and large input

ENGINE = 'llm = LLM("m", return_sampling_mask=True)\n'


def _nested_overrides(depth: int) -> str:
    """``hf_overrides={"a": {"a": ... "x" ...}}``, ``depth`` dicts deep: libcst recurses on it."""
    return "from vllm import LLM\n" + 'llm = LLM("m", return_sampling_mask=True, hf_overrides=' + '{"a": ' * depth + '"x"' + "}" * depth + ")\n"


def test_a_file_too_deep_to_fix_is_reported_and_the_others_are_fixed(tmp_path):
    deep = _nested_overrides(150)
    (tmp_path / "deep.py").write_text(deep)
    (tmp_path / "ok.py").write_text("from vllm import LLM\n" + ENGINE)
    fixed = 'llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'

    result = run_cli("--diff", ".", cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1
    assert "+" + fixed in result.stdout
    assert [line for line in result.stderr.splitlines() if "deep.py" in line] == [
        "vllm-lint: error: deep.py: too deeply nested to fix; file left unchanged"
    ]

    result = run_cli("--fix", ".", cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1  # deep.py's finding remains
    assert (tmp_path / "ok.py").read_text() == "from vllm import LLM\n" + fixed
    assert (tmp_path / "deep.py").read_text() == deep
    assert result.stderr.count("too deeply nested to fix") == 1


def test_the_codemod_warns_about_a_file_too_deep_to_fix(tmp_path):
    (tmp_path / "deep.py").write_text(_nested_overrides(150))
    (tmp_path / "ok.py").write_text("from vllm import LLM\n" + ENGINE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    completed = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "codemod", "-x", "vllm_lint.fix.codemod.FixReplayConfig",
         "--no-format", "--hide-progress", "-j", "1", "."],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    assert "Traceback" not in completed.stderr, completed.stderr
    assert "WARNING: too deeply nested to fix" in completed.stderr
    assert "Failed to codemod 0 files." in completed.stderr
    assert "logprobs_mode" in (tmp_path / "ok.py").read_text()


SELF_REFERENCE = """import os
from vllm import LLM
node = [os]
node.append(node)  # a list that holds itself, as in CPython's test.support
if hasattr(os, "register_at_fork"):  # then a branch: its two paths are joined
    pass
llm = LLM("m", return_sampling_mask=True)
"""


def test_a_list_that_holds_itself_keeps_the_findings_of_its_file(tmp_path):
    from vllm_lint.python import analyze_tree

    findings = analyze_tree(ast.parse(SELF_REFERENCE), NEWEST_VERSION)
    assert [(f.span.line, f.code) for f in findings] == [(7, "VLM105")]

    (tmp_path / "cycle.py").write_text(SELF_REFERENCE)
    result = run_cli("--output-format", "concise", "cycle.py", cwd=tmp_path)
    assert result.stdout.startswith("cycle.py:7:7: VLM105 "), result.stdout
    flake8 = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", "--select", "VLM", "cycle.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    assert flake8.stdout.startswith("cycle.py:7:7: VLM105 "), flake8.stdout + flake8.stderr
    pytest.importorskip("pylint")
    pylint = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=vllm_lint.pylint", "--disable=all", "--enable=vllm-lint",
         "--persistent=n", "--score=n", "cycle.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip
    assert "VLM105" in pylint.stdout, pylint.stdout + pylint.stderr


def test_a_long_concatenation_keeps_the_findings_of_its_file(tmp_path):
    parts = " + ".join(['"a"'] * 500)
    source = f"from vllm import LLM\nprefix = {parts}\nllm = LLM(prefix, return_sampling_mask=True)\n"
    from vllm_lint.python import analyze_tree

    assert [f.code for f in analyze_tree(ast.parse(source), NEWEST_VERSION)] == ["VLM105"]
    (tmp_path / "long.py").write_text(source)
    result = run_cli("--output-format", "concise", "long.py", cwd=tmp_path)
    assert result.stdout.startswith("long.py:3:7: VLM105 "), result.stdout + result.stderr


def test_a_long_concatenation_is_still_evaluated():
    """The chain is folded, not given up on: the value it builds is known."""
    parts = " + ".join(['"0"'] + ['""'] * 499)
    source = (
        "import os\nfrom vllm import LLM\n"
        f'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = {parts}\n'
        'llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
    )
    from vllm_lint.python import analyze_tree
    from vllm_lint.versions import Version

    assert [f.code for f in analyze_tree(ast.parse(source), Version(0, 33))] == ["VLM101"]


YAML_ENGINE = "# vllm serve --return-sampling-mask\n"


def test_a_yaml_alias_bomb_is_one_diagnostic(tmp_path):
    lines = [YAML_ENGINE + "a0: &a0 [vllm, serve, --return-sampling-mask]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 8) + "]" for i in range(1, 10)]
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\ncommand: *a9\n")
    (tmp_path / "loop.yaml").write_text(YAML_ENGINE + "a: &a [vllm, serve, --return-sampling-mask, *a]\n")
    (tmp_path / "pod.yaml").write_text(
        "x: &flags [--return-sampling-mask]\n"
        "containers:\n  - image: vllm/vllm-openai:v0.34.0\n    args: *flags\n"
    )
    result = run_cli("--output-format", "concise", ".", cwd=tmp_path)  # the timeout guards against a hang
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    (bomb,) = [line for line in lines if line.startswith("bomb.yaml")]
    assert "invalid YAML: YAML aliases expand this document by more than 100,000 nodes" in bomb
    (loop,) = [line for line in lines if line.startswith("loop.yaml")]
    assert "invalid YAML: a YAML alias refers to a node that contains it (line 2)" in loop
    assert any(line.startswith("pod.yaml:1:12: VLM105") for line in lines), lines


def test_a_vllm_config_file_with_an_alias_bomb_is_unknown(tmp_path):
    """``--config bomb.yaml``: a file vLLM would not read tells nothing; the run finishes."""
    lines = ["a0: &a0 [x, y]"] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 8) + "]" for i in range(1, 10)]
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\nmax-model-len: *a9\n")
    (tmp_path / "serve.sh").write_text("#!/bin/sh\nvllm serve m --config bomb.yaml --return-sampling-mask\n")
    result = run_cli("--output-format", "concise", "serve.sh", cwd=tmp_path)  # the timeout guards against a hang
    assert "Traceback" not in result.stderr, result.stderr
    assert (result.returncode, result.stdout) == (0, "All checks passed!\n")  # the config may set logprobs-mode


def test_files_over_the_analysis_limit_are_reported_not_parsed(tmp_path):
    from vllm_lint.sources import MAX_ANALYSED_BYTES, MAX_FILE_BYTES

    padding = b"# generated ...........................................................\n"
    body = padding * (MAX_ANALYSED_BYTES // len(padding) + 1)
    (tmp_path / "big.py").write_bytes(b"from vllm import LLM\n" + ENGINE.encode() + body)
    (tmp_path / "big.sh").write_bytes(b"vllm serve m --return-sampling-mask\n" + body)
    (tmp_path / "unrelated.py").write_bytes(body)  # cannot hold a finding: skipped, as any such file
    sizes = [(tmp_path / name).stat().st_size for name in ("big.py", "big.sh")]
    result = run_cli("--output-format", "concise", "--quiet", ".", cwd=tmp_path)
    assert result.returncode == 1
    lines = sorted(result.stdout.splitlines())
    assert [line.split(":", 1)[0] for line in lines] == ["big.py", "big.sh"], lines
    assert all(f"file too large to analyse ({size} bytes; limit 4 MiB)" in line for line, size in zip(lines, sizes))
    assert MAX_ANALYSED_BYTES < MAX_FILE_BYTES
