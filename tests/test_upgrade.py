"""``vllm-lint upgrade --to X``: renames per front end, pins bumped, manual steps, and the round trip.

Each case under ``testdata/upgrade`` is a small project: ``before/`` as written for an old
release, ``after/`` as ``upgrade`` leaves it (with the arguments in ``args``), where
``# expect:`` marks what is left by hand.  After the upgrade, ``check --target-version X``
reports exactly what ``upgrade`` listed as manual, and that is what ``after/`` expects.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import stat
from argparse import Namespace
from pathlib import Path

import pytest

from fixtures import TESTDATA, expectations
from vllm_lint.bump import bump_line, bump_specifiers, full_version
from vllm_lint.cli import build_parser, run_check, run_upgrade

CASES = TESTDATA / "upgrade"
MANUAL_LINE = re.compile(r"^  (?P<path>\S+?):(?P<line>\d+):(?P<col>\d+): (?P<code>VLM\d{3}) ")


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def upgrade(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    args = build_parser().parse_args(["upgrade", *argv])
    code = run_upgrade(args, out, err)
    return code, out.getvalue(), err.getvalue()


def manual_steps(report: str) -> set[tuple[str, int, str]]:
    return {(m["path"], int(m["line"]), m["code"]) for m in map(MANUAL_LINE.match, report.splitlines()) if m}


def checked(to: str) -> set[tuple[str, int, str]]:
    out = io.StringIO()
    args = build_parser().parse_args(["check", "--target-version", to, "--output-format", "json", "."])
    run_check(args, out, io.StringIO())
    return {(os.path.relpath(f["filename"]), f["location"]["row"], f["code"]) for f in json.loads(out.getvalue())}


def expected_left(root: Path) -> set[tuple[str, int, str]]:
    found = set()
    for path, data in files(root).items():
        for line, code in expectations(data.decode("utf-8"))[0]:
            found.add((os.path.normpath(path), line, code))
    return found


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_upgrade_round_trip(case, tmp_path, monkeypatch):
    source = CASES / case
    argv = (source / "args").read_text(encoding="utf-8").split()
    to = argv[argv.index("--to") + 1]
    project = tmp_path / "project"
    shutil.copytree(source / "before", project)
    monkeypatch.chdir(project)

    code, report, _ = upgrade([*argv, "."])

    assert files(project) == files(source / "after"), report
    left = manual_steps(report)
    assert left == expected_left(source / "after")
    assert checked(to) == left  # the round trip: what check reports on X is what upgrade listed
    assert code == (1 if left else 0)
    # A second run has nothing more to rename or bump.
    again, second, _ = upgrade([*argv, "."])
    assert "0 arguments renamed, 0 pins bumped" in second
    assert files(project) == files(source / "after")


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_upgrade_diff_writes_nothing(case, tmp_path, monkeypatch):
    source = CASES / case
    argv = (source / "args").read_text(encoding="utf-8").split()
    project = tmp_path / "project"
    shutil.copytree(source / "before", project)
    monkeypatch.chdir(project)

    code, diff, report = upgrade([*argv, "--diff", "."])

    assert files(project) == files(source / "before")
    changed = {p for p, data in files(source / "after").items() if files(source / "before").get(p) != data}
    shown = set(re.findall(r"^\+\+\+ (\S+)$", diff, flags=re.M))
    assert shown == changed
    assert code == (1 if changed or manual_steps(report) else 0)
    assert "would be changed" in report


def test_summary_counts_files_renames_pins_and_manual_steps(tmp_path, monkeypatch):
    shutil.copytree(CASES / "shell" / "before", tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    _, report, _ = upgrade(["--to", "0.30", "--bump-pins", "."])
    assert report.splitlines()[-1] == "2 files changed, 3 arguments renamed, 1 pin bumped, 2 manual steps left."
    assert "vLLM 0.9 (from requirements.txt:1) -> 0.30: 1 file" in report
    assert "  serve.sh:11: --cuda-graph-sizes -> --cudagraph-capture-sizes" in report
    assert "  requirements.txt:1: vllm==0.9.2 -> vllm==0.30.0" in report


def test_opposite_sense_is_never_swapped_and_says_the_new_default(tmp_path, monkeypatch):
    shutil.copytree(CASES / "shell" / "before", tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    _, report, _ = upgrade(["--to", "0.30", "."])
    assert "--enable-log-requests" not in (tmp_path / "p" / "serve.sh").read_text()
    assert (
        "the successor has the opposite sense: --disable-log-requests is --no-enable-log-requests; "
        "enable_log_requests is off by default in vLLM 0.30: removing --disable-log-requests keeps its meaning"
    ) in report
    # vLLM's own words follow.
    assert "vLLM: `disable_log_requests` is deprecated and has been replaced with `enable_log_requests`." in report


def test_opposite_sense_in_python(tmp_path, monkeypatch):
    shutil.copytree(CASES / "python" / "before", tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    _, report, _ = upgrade(["--to", "0.34", "."])
    assert "disable_log_requests=True is enable_log_requests=False" in report
    assert "enable_log_requests" not in (tmp_path / "p" / "embed_corpus.py").read_text()


def test_no_default_recorded_is_said(tmp_path, monkeypatch):
    (tmp_path / "serve.sh").write_text("#!/bin/sh\nvllm serve m --disable-log-requests\n")
    monkeypatch.chdir(tmp_path)
    _, report, _ = upgrade(["--to", "0.20", "."])
    assert "vLLM 0.20's default for enable_log_requests is not recorded here" in report


def test_an_already_upgraded_tree_is_left_alone(tmp_path, monkeypatch):
    shutil.copytree(CASES / "docker" / "after", tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    code, report, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert code == 0
    assert report.splitlines()[-1] == "0 files changed, 0 arguments renamed, 0 pins bumped, 0 manual steps left."


def test_mode_and_line_endings_are_kept(tmp_path, monkeypatch):
    script = tmp_path / "serve.sh"
    script.write_bytes(b"#!/bin/sh\r\nvllm serve m \\\r\n  --cuda-graph-sizes 8 16\r\n")
    script.chmod(0o750)
    (tmp_path / "requirements.txt").write_bytes(b"vllm==0.10.2\r\ntorch\r\n")
    monkeypatch.chdir(tmp_path)
    upgrade(["--to", "0.34", "--bump-pins", "."])
    assert script.read_bytes() == b"#!/bin/sh\r\nvllm serve m \\\r\n  --cudagraph-capture-sizes 8 16\r\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o750
    assert (tmp_path / "requirements.txt").read_bytes() == b"vllm==0.34.0\r\ntorch\r\n"


def test_bad_input_is_one_diagnostic_and_the_run_goes_on(tmp_path, monkeypatch):
    (tmp_path / "broken.py").write_text("from vllm import LLM\nLLM(\n")
    (tmp_path / "binary.yaml").write_bytes(b"\xff\xfe\x00key: [")
    (tmp_path / "serve.sh").write_text("vllm serve m --cuda-graph-sizes 8\n")
    monkeypatch.chdir(tmp_path)
    code, report, err = upgrade(["--to", "0.34", "."])
    assert "Traceback" not in report + err
    assert (tmp_path / "serve.sh").read_text() == "vllm serve m --cudagraph-capture-sizes 8\n"
    assert "broken.py" in err and code == 1


def test_to_must_be_a_known_release(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = upgrade(["--to", "0.3", "."])
    assert code == 2 and "--to: '0.3' is not a vLLM release the rules know" in err


def test_read_only_file_is_left_with_a_diagnostic(tmp_path, monkeypatch):
    script = tmp_path / "serve.sh"
    script.write_text("vllm serve m --cuda-graph-sizes 8\n")
    script.chmod(0o444)
    monkeypatch.chdir(tmp_path)
    code, _, err = upgrade(["--to", "0.34", "."])
    assert "serve.sh: cannot write" in err and code == 1
    assert "--cuda-graph-sizes" in script.read_text()


def test_output_file(tmp_path, monkeypatch):
    (tmp_path / "serve.sh").write_text("vllm serve m --task embed\n")
    monkeypatch.chdir(tmp_path)
    code, out, _ = upgrade(["--to", "0.34", "-o", "report.txt", "."])
    assert out == "" and code == 1
    assert "Manual steps for vLLM 0.34:" in (tmp_path / "report.txt").read_text()


@pytest.mark.parametrize(
    "spec, bumped",
    [
        ("==0.10.2", "==0.34.0"),
        (">=0.10,<0.11", ">=0.34,<0.35"),
        (">=0.10.1, <0.12", ">=0.34.0, <0.35"),
        ("~=0.10.1", "~=0.34.0"),
        ("==0.10.*", "==0.34.*"),
        (">0.9", ">=0.34"),
        (">=0.10,!=0.10.1", ">=0.34,!=0.10.1"),
        (">=0.10,<1", ">=0.34,<1"),
    ],
)
def test_specifiers(spec, bumped):
    assert bump_specifiers(spec, "0.34.0") == bumped


@pytest.mark.parametrize(
    "line, bumped",
    [
        ("vllm==0.10.2", "vllm==0.34.0"),
        ('    "vllm[audio]>=0.10.1,<0.11",', '    "vllm[audio]>=0.34.0,<0.35",'),
        ("RUN pip install --no-cache-dir vllm==0.9.2 torch==2.7.0", "RUN pip install --no-cache-dir vllm==0.34.0 torch==2.7.0"),
        ("FROM vllm/vllm-openai:v0.10.2 AS base", "FROM vllm/vllm-openai:v0.34.0 AS base"),
        ("  image: registry.example.com/vllm-openai:v0.10.2-kvcache", "  image: registry.example.com/vllm-openai:v0.34.0-kvcache"),
        ("  tag: v0.10.2", "  tag: v0.34.0"),
        ("ARG VLLM_VERSION=0.10.2", "ARG VLLM_VERSION=0.34.0"),
        ('vllm = "^0.10.2"', 'vllm = "^0.34.0"'),
        ("  - vllm=0.10.1", "  - vllm=0.34.0"),
        ("vllm @ git+https://github.com/vllm-project/vllm@v0.10.2", "vllm @ git+https://github.com/vllm-project/vllm@v0.34.0"),
    ],
)
def test_lines(line, bumped):
    assert bump_line(line, {(0, 9), (0, 10)}, "0.34.0") == bumped


def test_a_line_without_the_release_is_left():
    assert bump_line("torch==2.8.0", {(0, 10)}, "0.34.0") is None
    assert bump_line("image: vllm/vllm-openai:latest", {(0, 34)}, "0.34.0") is None


def test_full_version():
    assert full_version("0.34") == "0.34.0"
    assert full_version("0.8") == "0.8.5.post1"
    assert full_version("0.33.1") == "0.33.1"
    assert full_version("0.40") == "0.40.0"


def test_cli_help_names_upgrade(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["upgrade", "--help"])
    assert "--bump-pins" in capsys.readouterr().out


def test_namespace_defaults():
    args = build_parser().parse_args(["upgrade", "--to", "0.34"])
    assert isinstance(args, Namespace) and args.paths == [] and not args.diff and not args.bump_pins


def test_a_build_argument_that_names_the_image_tag_is_bumped(tmp_path, monkeypatch):
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text('ARG VLLM_VERSION=v0.10.2\nFROM vllm/vllm-openai:${VLLM_VERSION}\nCMD ["--model", "m", "--cuda-graph-sizes", "8"]\n')
    monkeypatch.chdir(tmp_path)
    code, report, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert dockerfile.read_text() == (
        'ARG VLLM_VERSION=v0.34.0\nFROM vllm/vllm-openai:${VLLM_VERSION}\nCMD ["--model", "m", "--cudagraph-capture-sizes", "8"]\n'
    )
    assert "Dockerfile:1: ARG VLLM_VERSION=v0.10.2 -> ARG VLLM_VERSION=v0.34.0" in report and code == 0


def test_a_lock_file_is_left_and_the_range_beside_it_bumped(tmp_path, monkeypatch):
    shutil.copytree(CASES / "pyproject" / "before", tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    _, report, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert "uv.lock:6: version = \"0.10.1.1\" (a lock file: regenerate it with its tool once the pins are bumped)" in report
    assert '"vllm>=0.34.0,<0.35",' in (tmp_path / "p" / "pyproject.toml").read_text()


def test_arguments_the_release_still_accepts_but_deprecates_are_renamed(tmp_path, monkeypatch):
    # vLLM 0.11 accepts --cuda-graph-sizes with a deprecation warning naming --cudagraph-capture-sizes.
    shutil.copytree(CASES / "shell" / "before", tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    code, report, _ = upgrade(["--to", "0.11", "."])
    script = (tmp_path / "p" / "serve.sh").read_text()
    assert "--cudagraph-capture-sizes 8 16 32" in script and "--mm-processor-cache-gb 0" in script
    assert "  serve.sh:11: --cuda-graph-sizes -> --cudagraph-capture-sizes (deprecated in 0.11)" in report
    # Of the opposite sense: never swapped, listed as deprecated with the new spelling and vLLM's words.
    assert "--disable-log-requests `" in script
    deprecated = report.split("Deprecated in vLLM 0.11, still accepted", 1)[1].split("Manual steps", 1)[0]
    assert "serve.sh:13:3: --disable-log-requests" in deprecated
    assert "--disable-log-requests is --no-enable-log-requests" in deprecated
    # The round trip holds: check on 0.11 reports the manual steps only.
    assert checked("0.11") == manual_steps(report.split("Manual steps", 1)[1]) == {("serve.sh", 12, "VLM301")}
    assert code == 1


def test_nothing_deprecated_before_the_successor_exists(tmp_path, monkeypatch):
    (tmp_path / "serve.sh").write_text("vllm serve m --cuda-graph-sizes 8\n")
    monkeypatch.chdir(tmp_path)
    code, report, _ = upgrade(["--to", "0.10", "."])
    assert (tmp_path / "serve.sh").read_text() == "vllm serve m --cuda-graph-sizes 8\n" and code == 0
    assert "Deprecated" not in report


def test_a_cap_alone_is_bumped_and_said_to_admit_older_releases(tmp_path, monkeypatch):
    (tmp_path / "requirements.txt").write_text("vllm<0.9.0\n")
    (tmp_path / "serve.sh").write_text("vllm serve m --cuda-graph-sizes 8\n")
    monkeypatch.chdir(tmp_path)
    _, report, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert (tmp_path / "requirements.txt").read_text() == "vllm<0.35\n"
    assert "requirements.txt:1: vllm<0.35 (admits vLLM 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8-0.34 after the bump)" in report


def test_another_packages_version_on_the_line_is_kept():
    assert bump_line("&& pip3 install tensordict==0.10.0 \\", {(0, 10)}, "0.34.0") is None
    assert bump_line("RUN pip install tensordict==0.10.0 vllm==0.10.0", {(0, 10)}, "0.34.0") == (
        "RUN pip install tensordict==0.10.0 vllm==0.34.0"
    )


def test_a_file_at_a_url_is_left():
    # The new release's wheel at that address is not known to exist; upstream's release tags are.
    wheel = "&& pip3 install https://example.com/wheels/vllm-0.10.0+rocm634-cp310-cp310-linux_x86_64.whl \\"
    assert bump_line(wheel, {(0, 10)}, "0.34.0") is None


def test_a_rebuilds_tag_is_left(tmp_path, monkeypatch):
    manifest = tmp_path / "deploy.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: llm\nspec:\n  containers:\n    - name: vllm\n"
        "      image: registry.example.com/aibrix/vllm-openai:v0.10.2-nixl-0.7.1\n"
        "      args: [\"--model\", \"m\", \"--cuda-graph-sizes\", \"8\"]\n"
    )
    monkeypatch.chdir(tmp_path)
    _, report, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert "v0.10.2-nixl-0.7.1" in manifest.read_text() and "--cudagraph-capture-sizes" in manifest.read_text()
    assert "a rebuild of vLLM's image, or not a release tag: whether its owner tags 0.34.0 is not known" in report


def test_a_requirement_on_a_continuation_line_is_bumped(tmp_path, monkeypatch):
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "FROM rocm/pytorch-training:v25.6\n"
        "RUN pip3 install ray==2.48.0 \\\n"
        "&& pip3 install vllm==0.10.0 tensordict==0.10.0 \\\n"
        "&& pip3 install loralib\n"
        "COPY . /app\n"
        'CMD ["python3", "/app/serve.py"]\n'
    )
    (tmp_path / "serve.py").write_text("from vllm import LLM\nLLM('m', cuda_graph_sizes=[8])\n")
    monkeypatch.chdir(tmp_path)
    _, report, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert "&& pip3 install vllm==0.34.0 tensordict==0.10.0 \\\n" in dockerfile.read_text()
    assert "Dockerfile:3: && pip3 install" in report


def test_two_stages_reading_one_build_argument_bump_it_once(tmp_path, monkeypatch):
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "ARG VLLM_VERSION=v0.10.2\nFROM vllm/vllm-openai:${VLLM_VERSION} AS base\nRUN echo base\n"
        'FROM vllm/vllm-openai:${VLLM_VERSION} AS server\nCMD ["--model", "m", "--cuda-graph-sizes", "8"]\n'
    )
    monkeypatch.chdir(tmp_path)
    _, report, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert dockerfile.read_text().startswith("ARG VLLM_VERSION=v0.34.0\n")
    assert "Pins left" not in report and "1 pin bumped" in report


def test_a_second_run_bumps_nothing(tmp_path, monkeypatch):
    (tmp_path / "setup.py").write_text('from setuptools import setup\n\nsetup(name="x", install_requires=["vllm<=0.8.5"])\n')
    (tmp_path / "serve.sh").write_text("vllm serve m --cuda-graph-sizes 8\n")
    monkeypatch.chdir(tmp_path)
    _, first, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert '"vllm<=0.34.0"' in (tmp_path / "setup.py").read_text() and "1 pin bumped" in first
    _, second, _ = upgrade(["--to", "0.34", "--bump-pins", "."])
    assert second.splitlines()[-1] == "0 files changed, 0 arguments renamed, 0 pins bumped, 0 manual steps left."


def test_a_value_written_in_another_module_is_renamed_there(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    settings = 'ENGINE_KWARGS = {\n    "model": "Qwen/Qwen3-8B",\n    "cuda_graph_sizes": [8, 16],\n}\n'
    (package / "settings.py").write_text(settings)
    (package / "run.py").write_text("from vllm import LLM\n\nfrom .settings import ENGINE_KWARGS\n\nllm = LLM(**ENGINE_KWARGS)\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.10.2\n")
    monkeypatch.chdir(tmp_path)
    code, diff, report = upgrade(["--to", "0.34", "--diff", "pkg/run.py"])
    assert '+    "cudagraph_capture_sizes": [8, 16],' in diff and "+++ pkg/settings.py" in diff
    assert report.splitlines()[-1] == "1 file would be changed, 1 argument would be renamed, 0 pins would be bumped, 0 manual steps left."
    assert (package / "settings.py").read_text() == settings
    code, report, _ = upgrade(["--to", "0.34", "pkg/run.py"])
    assert '"cudagraph_capture_sizes": [8, 16]' in (package / "settings.py").read_text() and code == 0
