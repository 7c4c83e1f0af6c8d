"""Settings: errors in them are loud, and every front end (CLI, flake8, pylint, the codemod)
reads the same ``[tool.vllm-lint]`` and picks the same target version."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

BAD = 'from vllm import LLM\nllm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True)\n'
# VLM101 on 0.28-0.33 only: the target version decides whether it is reported.
V1_RUNNER = (
    "import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
    'llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n'
)
TIMEOUT = 180


def run(args, cwd, stdin: str | None = None):
    completed = subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert "Traceback" not in completed.stderr, completed.stderr
    return completed.returncode, completed.stdout, completed.stderr


def check(*args, cwd, stdin: str | None = None):
    # One line per finding (a later --output-format wins).
    return run(["vllm_lint", "check", "--output-format", "concise", *args], cwd, stdin)


def flake8(*args, cwd):
    return run(["flake8", "--select", "VLM", *args], cwd)


def pylint(*args, cwd):
    pytest.importorskip("pylint")
    command = ["pylint", "--load-plugins=vllm_lint.pylint", "--disable=all", "--enable=vllm-lint", "--persistent=n",
               "--score=n", "--msg-template={path}:{line}: {msg}", *args]  # fmt: skip
    return run(command, cwd)


def codes(output: str) -> list[str]:
    return sorted(word for word in output.split() if word.startswith("VLM") and word[3:].isdigit())


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()  # the repository's root: pins are not looked for above it
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(BAD)
    return tmp_path


def write_config(project, text: str) -> None:
    (project / "pyproject.toml").write_text(text)


# ---------------------------------------------------------------- loud errors


def test_a_pyproject_that_is_not_toml_is_an_error(project):
    write_config(project, '[tool.vllm-lint]\nselect = ["VLM1"]\nignore = VLM2\n')
    for args in (["pkg"], ["--show-settings", "pkg"]):
        code, out, err = check(*args, cwd=project)
        assert code == 2, out
        assert err.startswith(f"vllm-lint: error: {project / 'pyproject.toml'}: not valid TOML: "), err
        assert "line 3" in err  # the TOML error says where
    write_config(project, "[tool.vllm-lint\n")
    code, _, err = flake8("pkg", cwd=project)
    assert code == 2 and "not valid TOML" in err, err


@pytest.mark.parametrize(
    "text, message",
    [
        ("tool = 5\n", "`tool` must be a table, not an integer"),
        ("[tool]\nvllm-lint = 5\n", "`tool.vllm-lint` must be a table, not an integer"),
    ],
)
def test_a_pyproject_of_the_wrong_shape_is_an_error(project, text, message):
    write_config(project, text)
    code, _, err = check("pkg", cwd=project)
    assert (code, err) == (2, f"vllm-lint: error: {project / 'pyproject.toml'}: {message}\n")
    code, _, err = flake8("pkg", cwd=project)
    assert code == 2 and message in err, err


def test_a_project_table_of_the_wrong_shape_is_not_the_linters_concern(project):
    """``project = 5`` is not vllm-lint's configuration: it pins nothing, and breaks nothing."""
    (project / "pkg" / "pyproject.toml").write_text("project = 5\n")  # a folder above each file
    write_config(project, '[project]\ndependencies = 7\n[tool.vllm-lint]\nignore = ["VLM2"]\n')
    code, out, _ = check("--output-format", "concise", "pkg", cwd=project)
    assert code == 1 and codes(out) == ["VLM105"]
    code, out, _ = flake8("pkg", cwd=project)
    assert code == 1 and codes(out) == ["VLM105"]


@pytest.mark.parametrize(
    "args, offending",
    [
        (["--select", "VLM999"], "'VLM999'"),
        (["--select", "garbage!!"], "'garbage!!'"),
        (["--select", ""], "''"),
        (["--ignore", "VLM1,E501"], "'E501'"),
        (["--extend-select", "VLM7"], "'VLM7'"),
    ],
)
def test_unknown_selectors_on_the_command_line(project, args, offending):
    code, _, err = check(*args, "pkg", cwd=project)
    assert code == 2
    assert f"unknown rule selector {offending}" in err and args[0] in err, err


@pytest.mark.parametrize(
    "setting, offending",
    [
        ('select = ["VLM999"]', "'VLM999'"),
        ('select = ["E501"]', "'E501'"),
        ('ignore = ["VLM3", ""]', "''"),  # an empty selector would ignore every rule
        ('extend-ignore = ["VLM8"]', "'VLM8'"),
        ('per-file-ignores = { "tests/*" = ["F401"] }', "'F401'"),
    ],
)
def test_unknown_selectors_in_the_configuration(project, setting, offending):
    write_config(project, f"[tool.vllm-lint]\n{setting}\n")
    code, _, err = check("pkg", cwd=project)
    assert code == 2
    assert str(project / "pyproject.toml") in err and f"unknown rule selector {offending}" in err, err


def test_extend_select_and_extend_ignore(project):
    (project / "pkg" / "train.py").write_text(V1_RUNNER.replace('logprobs_mode="processed_logprobs"', 'seed=1'))
    found = codes(check("--target-version", "0.33", "pkg", cwd=project)[1])
    assert found == ["VLM101", "VLM105"]
    write_config(project, '[tool.vllm-lint]\nselect = ["VLM101"]\nextend-select = ["VLM105"]\n')
    assert codes(check("--target-version", "0.33", "pkg", cwd=project)[1]) == ["VLM101", "VLM105"]
    write_config(project, '[tool.vllm-lint]\nextend-ignore = ["VLM105"]\n')
    assert codes(check("--target-version", "0.33", "pkg", cwd=project)[1]) == ["VLM101"]
    # As in ruff: --select replaces the configured selection, --extend-* add to it.
    write_config(project, '[tool.vllm-lint]\nselect = ["VLM101"]\nextend-select = ["VLM105"]\n')
    assert codes(check("--target-version", "0.33", "--select", "VLM105", "pkg", cwd=project)[1]) == ["VLM105"]
    assert codes(check("--target-version", "0.33", "--extend-ignore", "VLM101", "pkg", cwd=project)[1]) == ["VLM105"]
    write_config(project, "")
    args = ["--target-version", "0.33", "--select", "VLM101", "--extend-select", "VLM105", "pkg"]
    assert codes(check(*args, cwd=project)[1]) == ["VLM101", "VLM105"]


@pytest.mark.parametrize("number", ["0.30", "1e-1", "0"])
def test_target_version_must_be_a_string(project, number):
    """A TOML number is not a version: 0.30 would be read as 0.3."""
    write_config(project, f"[tool.vllm-lint]\ntarget-version = {number}\n")
    code, _, err = check("pkg", cwd=project)
    assert code == 2
    assert "target-version must be a string" in err and 'target-version = "0.30"' in err, err


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_must_be_positive(project, jobs):
    code, _, err = check("-j", jobs, "pkg", cwd=project)
    assert code == 2 and "-j/--jobs" in err and repr(jobs) in err, err


# ------------------------------------------------------------- bad versions


def test_an_invalid_version_is_a_usage_error_in_every_front_end(project):
    message = "not a vLLM version: 'banana'"
    code, _, err = check("--target-version", "banana", "pkg", cwd=project)
    assert code == 2 and message in err
    code, _, err = flake8("--vllm-target-version", "banana", "pkg", cwd=project)
    assert code == 2 and message in err, err
    (project / ".flake8").write_text("[flake8]\nvllm-target-version = banana\n")
    code, _, err = flake8("pkg", cwd=project)
    assert code == 2 and message in err, err
    code, _, err = pylint("--vllm-target-version=banana", "pkg", cwd=project)
    assert code == 2 and message in err, err
    command = ["libcst.tool", "codemod", "-x", "vllm_lint.fix.codemod.FixReplayConfig", "--no-format",
               "--target-version", "banana", "pkg"]  # fmt: skip
    code, _, err = run(command, project)
    assert code == 2 and message in err, err
    assert (project / "pkg" / "train.py").read_text() == BAD


def test_the_codemod_skips_files_whose_settings_are_wrong(project):
    write_config(project, '[tool.vllm-lint]\nselect = ["VLM999"]\n')
    command = ["libcst.tool", "codemod", "-x", "vllm_lint.fix.codemod.FixReplayConfig", "--no-format",
               "--hide-progress", "-j", "1", "pkg"]  # fmt: skip
    code, _, err = run(command, project)
    assert "unknown rule selector 'VLM999'" in err and "Skipped 1 files." in err, err
    assert (project / "pkg" / "train.py").read_text() == BAD


# ------------------------------------------------------- every front door


def test_the_plugins_read_the_target_version(project):
    (project / "pkg" / "train.py").write_text(V1_RUNNER)
    write_config(project, '[tool.vllm-lint]\ntarget-version = "0.33"\n')
    assert codes(check("pkg", cwd=project)[1]) == ["VLM101"]
    assert codes(flake8("pkg", cwd=project)[1]) == ["VLM101"]
    assert codes(pylint("pkg", cwd=project)[1]) == ["VLM101"]
    # Their own option is over the setting, as --target-version is for the CLI.
    assert codes(check("--target-version", "0.34", "pkg", cwd=project)[1]) == []
    assert codes(flake8("--vllm-target-version", "0.34", "pkg", cwd=project)[1]) == []
    assert codes(pylint("--vllm-target-version=0.34", "pkg", cwd=project)[1]) == []


def test_the_plugins_read_selection_per_file_ignores_and_excludes(project):
    for name in ("a", "b", "c", "d"):
        (project / "pkg" / name).mkdir()
        (project / "pkg" / name / "engine.py").write_text(V1_RUNNER.replace('logprobs_mode="processed_logprobs"', "seed=1"))
    write_config(
        project,
        '[tool.vllm-lint]\ntarget-version = "0.33"\nignore = ["VLM105"]\nexclude = ["pkg/b"]\n'
        'per-file-ignores = { "pkg/c/*" = ["VLM1"] }\n',
    )
    expected = {"pkg/a/engine.py": ["VLM101"], "pkg/d/engine.py": ["VLM101"]}

    def by_file(output: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for line in output.splitlines():
            if " VLM" in line:
                path = os.path.normpath(line.split(":", 1)[0]).replace(os.sep, "/")
                found.setdefault(path, []).extend(codes(line))
        return found

    assert by_file(check("--output-format", "concise", "pkg", cwd=project)[1]) == expected
    assert by_file(flake8("pkg", cwd=project)[1]) == expected
    assert by_file(pylint("pkg", cwd=project)[1]) == expected


# ------------------------------------------------------ globs and the project


def test_globs_are_relative_to_the_project_not_to_the_working_directory(project):
    (project / "notebooks").mkdir()
    (project / "notebooks" / "nb.py").write_text(BAD)
    (project / "tests").mkdir()
    (project / "tests" / "test_engine.py").write_text(BAD)
    write_config(project, '[tool.vllm-lint]\nexclude = ["notebooks/*.py"]\nper-file-ignores = { "tests/*" = ["VLM105"] }\n')
    assert check("notebooks", cwd=project)[0] == 0
    assert check(".", cwd=project / "notebooks")[0] == 0
    assert check(".", cwd=project / "tests")[0] == 0
    assert check("test_engine.py", cwd=project / "tests")[0] == 0
    assert check("--force-exclude", "nb.py", cwd=project / "notebooks")[0] == 0
    assert check("nb.py", cwd=project / "notebooks")[0] == 1  # named on the command line: linted
    assert flake8(".", cwd=project / "tests")[0] == 0
    assert codes(check(".", cwd=project)[1]) == ["VLM105"]  # pkg/train.py only


def test_force_exclude_applies_to_the_stdin_filename(project):
    (project / "notebooks").mkdir()
    write_config(project, '[tool.vllm-lint]\nexclude = ["notebooks/*.py"]\n')
    args = ["--stdin-filename", "notebooks/x.py", "-"]
    assert check(*args, cwd=project, stdin=BAD)[0] == 1
    code, out, _ = check("--force-exclude", *args, cwd=project, stdin=BAD)
    assert code == 0 and "VLM" not in out
    # --fix passes the text through unchanged, as a formatter does with an excluded file.
    code, out, _ = check("--force-exclude", "--fix", *args, cwd=project, stdin=BAD)
    assert (code, out) == (0, BAD)


# ----------------------------------------------------------- target version

SPECULATIVE = '{"method": "eagle3", "num_speculative_tokens": 3}'  # VLM102 before 0.32 only
FLAGS = f'"--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--speculative-config", \'{SPECULATIVE}\''


def test_image_tags_name_the_release_of_their_commands(project):
    (project / "Dockerfile").write_text(
        "FROM vllm/vllm-openai:v0.31.0 AS serve\n"
        'CMD ["--model", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", '
        '"--speculative-config", "{\\"method\\": \\"eagle3\\"}"]\n'
    )
    (project / "pod.yaml").write_text(
        "containers:\n"
        f"  - name: old\n    image: vllm/vllm-openai:v0.31.0\n    args: [{FLAGS}]\n"
        f"  - name: new\n    image: vllm/vllm-openai:v0.33.1\n    args: [{FLAGS}]\n"
        f"  - name: untagged\n    image: vllm/vllm-openai\n    args: [{FLAGS}]\n"
    )
    (project / "compose.yaml").write_text(f"services:\n  vllm:\n    image: vllm/vllm-openai:0.30.1-cu128\n    command: [{FLAGS}]\n")
    (project / "serve.sh").write_text(
        f"#!/bin/sh\ndocker run --gpus all vllm/vllm-openai:v0.31.0 --model m --return-sampling-mask "
        f"--logprobs-mode processed_logprobs --speculative-config '{SPECULATIVE}'\n"
    )
    (project / "pkg" / "train.py").unlink()
    (project / "requirements.txt").write_text("vllm==0.34.0\n")  # the project's pin: below the tags
    code, out, _ = check("--output-format", "concise", ".", cwd=project)
    found = sorted(line.split(":")[0] + ":" + line.split(":")[1] for line in out.splitlines() if "VLM102" in line)
    assert found == ["Dockerfile:2", "compose.yaml:4", "pod.yaml:4", "serve.sh:2"], out
    # A version the user chose wins over the tags.
    assert "VLM102" not in check("--target-version", "0.34", ".", cwd=project)[1]
    write_config(project, '[tool.vllm-lint]\ntarget-version = "0.34"\n')
    assert "VLM102" not in check(".", cwd=project)[1]


@pytest.mark.parametrize(
    "requirement, version",
    [
        ("vllm>=0.31,<0.32", "0.31"),
        ("vllm >= 0.31.2, < 0.32.0", "0.31"),
        ("vllm==0.31.*", "0.31"),
        ("vllm[audio]~=0.31.1 ; python_version >= '3.10'", "0.31"),
        ("vllm>=0.31,<0.32.1", "0.31-0.32"),  # admits 0.32.0 as well
        ("vllm>=0.31,<=0.32", "0.31-0.32"),
        ("vllm~=0.31", "0.31-0.34"),
        ("vllm~=0.10.1", "0.10"),
        ("vllm==0.30.1rc1", "0.30"),
        ("vllm>=0.10,<0.12", "0.10-0.11"),
        ("vllm>=0.8.5,<=0.12.0", "0.8-0.12"),
        ("vllm==0.5.3post1", "0.5"),  # older than the schema: a release the rules do not know
        ("vllm>0.31.9,<0.31.9", "0.34"),  # admits nothing: no pin
        ("vllm-ext==0.31.0", "0.34"),  # another package
        ("vllm", "0.34"),  # no version: no pin
    ],
)
def test_requirement_ranges_admit_releases(project, requirement, version):
    (project / "requirements.txt").write_text(f"torch\n{requirement}\n")
    code, out, _ = check("--show-settings", "pkg", cwd=project)
    assert code == 0 and f"target version: {version} " in out, out


def test_poetry_constraints(project):
    write_config(project, '[tool.poetry.dependencies]\npython = "^3.10"\nvllm = "^0.31.2"\n')
    assert "target version: 0.31 " in check("--show-settings", "pkg", cwd=project)[1]
    write_config(project, '[tool.poetry.dependencies]\nvllm = { version = "~0.30" }\n')
    assert "target version: 0.30 " in check("--show-settings", "pkg", cwd=project)[1]


def test_requirements_that_disagree_admit_every_release_they_name(project):
    """Two requirement files beside each other pin different releases: the file may run on
    either, and --show-settings names both with their lines; a pin nearer the file is preferred."""
    (project / "requirements_torch251_vllm.txt").write_text("-r requirements_common.txt\nvllm==0.8.4\n")
    (project / "requirements_torch280_vllm.txt").write_text("-r requirements_common.txt\nvllm==0.10.2\n")
    (project / "requirements_common.txt").write_text("torch\n")
    code, out, _ = check("--show-settings", "pkg", cwd=project)
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("target version:"))
    assert line.startswith("target version: 0.8, 0.10 (from "), line
    assert f"vllm==0.8.4 at {project / 'requirements_torch251_vllm.txt'}:2" in line
    assert f"vllm==0.10.2 at {project / 'requirements_torch280_vllm.txt'}:2" in line
    # The same release twice is one release.
    (project / "requirements_torch251_vllm.txt").write_text("vllm==0.10.1\n")
    assert "target version: 0.10 (from vllm==0.10.1 at" in check("--show-settings", "pkg", cwd=project)[1]
    # The nearest pin wins over the ones further up.
    (project / "requirements_torch251_vllm.txt").write_text("vllm==0.8.4\n")
    (project / "pkg" / "requirements.txt").write_text("vllm==0.31.0\n")
    out = check("--show-settings", "pkg", cwd=project)[1]
    assert f"target version: 0.31 (from vllm==0.31.0 at {project / 'pkg' / 'requirements.txt'}:1)" in out


def test_without_a_pin_the_newest_release_is_assumed_and_findings_say_so(project):
    (project / "pkg" / "train.py").write_text('from vllm import LLM\nllm = LLM("m", task="generate")\n')
    out = check("--show-settings", "pkg", cwd=project)[1]
    assert "target version: 0.34 (from the newest vLLM release the rules know: no pin found)" in out
    out = check("pkg", cwd=project)[1]
    assert "(checked against vLLM 0.34, the newest known: no pin found; set target-version)" in out, out
    (project / "requirements.txt").write_text("vllm>=0.13\n")
    out = check("pkg", cwd=project)[1]
    assert "task is not an argument of LLM in vLLM 0.13-0.34" in out and "no pin found" not in out, out
    # An argument no known release has does not depend on the release: no note.
    (project / "pkg" / "train.py").write_text('from vllm import LLM\nllm = LLM("m", gpu_memory_utilisation=0.9)\n')
    (project / "requirements.txt").unlink()
    out = check("pkg", cwd=project)[1]
    assert "gpu_memory_utilisation is not an argument of LLM in any known vLLM release; did you mean" in out, out
    assert "no pin found" not in out, out


# ------------------------------------------------------------ server images

SERVING_RUNTIME = """\
apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: vllm-runtime
spec:
  containers:
    - name: kserve-container
      image: quay.io/example-platform/vllm:rhoai-2.22-cuda
      args:
        - --model=/mnt/models
        - --port=8080
        - --return-sampling-mask
        - --gpu-memory-utilisation=0.9
"""


def test_declared_server_images_start_vllm_serve_with_their_args(project):
    (project / "deploy").mkdir()
    (project / "deploy" / "runtime.yaml").write_text(SERVING_RUNTIME)
    (project / "deploy" / "serve.sh").write_text(
        "docker run --gpus all registry.example.com/ml/llm-server:2025.06 Qwen/Qwen3-8B --return-sampling-mask\n"
    )
    (project / "deploy" / "Dockerfile").write_text(
        'FROM registry.example.com/ml/llm-server:2025.06\nCMD ["Qwen/Qwen3-8B", "--return-sampling-mask"]\n'
    )
    # Undeclared, the images' entrypoints are unknown: nothing is read.
    _, out, _ = check("deploy", "--target-version", "0.33", cwd=project)
    assert "runtime.yaml" not in out and "serve.sh" not in out and "Dockerfile" not in out
    write_config(project, '[tool.vllm-lint]\nserver-images = ["quay.io/example-platform/vllm", "registry.example.com/ml/*"]\n')
    status, out, _ = check("deploy", "--target-version", "0.33", cwd=project)
    assert status == 1
    lines = sorted(line.split(" ", 2)[:2] for line in out.splitlines() if " VLM" in line)
    assert lines == [
        ["deploy/Dockerfile:2:23:", "VLM105"],
        ["deploy/runtime.yaml:12:11:", "VLM105"],
        ["deploy/runtime.yaml:13:11:", "VLM301"],
        ["deploy/serve.sh:1:80:", "VLM105"],
    ], out
    # -j: the workers' prefilter reads the setting too.
    _, parallel, _ = check("deploy", "--target-version", "0.33", "-j", "2", cwd=project)
    assert codes(parallel) == codes(out)
    _, shown, _ = check("deploy/runtime.yaml", "--show-settings", cwd=project)
    assert "server-images: quay.io/example-platform/vllm, registry.example.com/ml/*" in shown


def test_a_declared_image_with_a_tag_matches_that_tag_only(project):
    (project / "runtime.yaml").write_text(SERVING_RUNTIME)
    write_config(project, '[tool.vllm-lint]\nserver-images = ["quay.io/example-platform/vllm:rhoai-2.21-cuda"]\n')
    _, out, _ = check("runtime.yaml", "--target-version", "0.33", cwd=project)
    assert "VLM" not in out
    write_config(project, '[tool.vllm-lint]\nserver-images = ["quay.io/example-platform/vllm:rhoai-2.22-*"]\n')
    _, out, _ = check("runtime.yaml", "--target-version", "0.33", cwd=project)
    assert codes(out) == ["VLM105", "VLM301"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('"quay.io/example/vllm"', "server-images must be a list of image names"),
        ("[3]", "3 is not a string"),
        ('["quay.io/example platform/vllm"]', "is not an image name"),
        ('["quay.io/example/"]', "is not an image name"),
        ('[""]', "is not an image name"),
    ],
)
def test_server_images_must_be_image_names(project, value, message):
    write_config(project, f"[tool.vllm-lint]\nserver-images = {value}\n")
    status, _, err = check("pkg", cwd=project)
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
