"""Pins where projects write them: each linted file is checked against the releases its
nearest pins admit (``testdata/pins``: one small project per shape, ``# expect:`` inline)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fixtures import TESTDATA, expectations
from vllm_lint.config import VersionResolver
from vllm_lint.lint import file_kind, lint_file

PINS = TESTDATA / "pins"
LINTED = sorted(
    path
    for path in PINS.rglob("*")
    if path.is_file()
    and (path.suffix in (".py", ".sh", ".yaml", ".yml") or path.name.startswith("Dockerfile"))
    and path.name not in ("compose.yaml",)  # its finding is in a block scalar: test_a_folded_compose_command_is_read
)


def lint(path: Path, resolver: VersionResolver | None = None):
    resolver = resolver or VersionResolver()
    return lint_file(str(path), resolver.for_path, file_kind(str(path)))


@pytest.mark.parametrize("path", LINTED, ids=[str(p.relative_to(PINS)) for p in LINTED])
def test_pinned_fixture(path):
    result = lint(path)
    assert result.error is None, result.error
    expected, _ = expectations(path.read_text(encoding="utf-8"))
    messages = "\n".join(f"{f.span.line}: {f.text}" for f in result.findings)
    assert {(f.span.line, f.code) for f in result.findings} == expected, messages


def test_the_messages_name_every_admitted_release():
    rollout = lint(PINS / "torch-variants" / "rollout.py").findings
    assert [f.message for f in rollout] == [
        "gpu_memory_utilisation is not an argument of LLM in vLLM 0.8, 0.10; did you mean gpu_memory_utilization?"
    ]
    extras = lint(PINS / "setup-extras" / "pkg" / "rollout.py").findings
    assert extras[0].message == "enable_return_routed_experts_cache is not an argument of LLM in vLLM 0.8-0.12; remove it"


@pytest.mark.parametrize(
    "name, text, found",
    [
        ("pyproject.toml", '[tool.pdm.dev-dependencies]\ngpu = [\n  "vllm==0.10.1",\n]\n', ("vllm==0.10.1", 3, ((0, 10),))),
        ("pyproject.toml", '[tool.uv.sources]\nvllm = { git = "https://github.com/vllm-project/vllm", tag = "v0.9.2" }\n', ("vllm==0.9.2", 2, ((0, 9),))),
        ("pyproject.toml", '[tool.uv]\noverride-dependencies = ["vllm==0.11.0"]\n', ("vllm==0.11.0", 2, ((0, 11),))),
        ("pyproject.toml", '[tool.poetry.group.gpu.dependencies]\nvllm = "0.10.2"\n', ("vllm==0.10.2", 2, ((0, 10),))),
        ("Pipfile", '[packages]\nrequests = "*"\nvllm = "==0.9.1"\n', ("vllm==0.9.1", 3, ((0, 9),))),
        ("Pipfile.lock", '{"default": {\n "vllm": {"hashes": [], "version": "==0.10.1.1"}}}', ("vllm==0.10.1.1", 2, ((0, 10),))),
        ("poetry.lock", '[[package]]\nname = "vllm"\nversion = "0.11.0"\ndescription = ""\n', ("vllm==0.11.0", 3, ((0, 11),))),
        ("pdm.lock", '[[package]]\nname = "vllm"\nversion = "0.8.5.post1"\n', ("vllm==0.8.5.post1", 3, ((0, 8),))),
        ("setup.cfg", "[options]\ninstall_requires =\n    torch\n    vllm>=0.10,<0.12\n", ("vllm>=0.10,<0.12", 4, ((0, 10), (0, 11)))),
        ("environment.yml", "dependencies:\n  - conda-forge::vllm=0.10\n", ("vllm==0.10.*", 2, ((0, 10),))),
        ("requirements/gpu.txt", "vllm==0.9.2 --hash=sha256:abc\n", ("vllm==0.9.2", 1, ((0, 9),))),
        ("constraints.txt", "vllm~=0.10.1  # the tested release\n", ("vllm~=0.10.1", 1, ((0, 10),))),
        ("config.yaml", "requirements:\n- vllm==0.30.1rc1\n", ("vllm==0.30.1rc1", 2, ((0, 30),))),
    ],
)
def test_pins_are_read_where_projects_write_them(tmp_path, name, text, found):
    from vllm_lint.pins import pins_in

    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    pins = pins_in(path.parent)
    assert [(pin.requirement, pin.line, pin.releases) for pin in pins] == [found]


@pytest.mark.parametrize(
    "name, text",
    [
        ("README.txt", "Install with\n\n    vllm==0.9.2\n"),  # prose, not requirements
        ("notes.txt", "pip install vllm==0.9.2 for the old scheduler\n"),
        ("requirements.txt", "vllm-ext==0.9.2\nvllm_router==0.1\nvllm\n"),  # other packages; no version
        ("requirements.txt", "sglang[all]==0.4.6\nlmdeploy==0.7\n"),
        ("config.yaml", "model: m\nvllm_args:\n  - vllm==0.9.2\n"),  # no requirements list
        ("environment.yml", "dependencies:\n  - vllm\n"),
        ("setup.py", 'DESCRIPTION = "Serve models on vllm"\n'),
        ("uv.lock", '[[package]]\nname = "vllm-flash-attn"\nversion = "2.6.2"\n'),
    ],
)
def test_look_alikes_pin_nothing(tmp_path, name, text):
    (tmp_path / ".git").mkdir()
    (tmp_path / name).write_text(text)
    version, why = VersionResolver().for_path(str(tmp_path / "serve.py"))
    assert version.assumed and why == "the newest vLLM release the rules know: no pin found"


def test_a_bare_requirement_beside_pinned_ones_is_one_more_way_to_install_the_newest_release():
    version, why = VersionResolver().for_path(str(PINS / "torch-variants-nightly" / "rollout.py"))
    assert version.releases_text == "0.10, 0.34"
    folder = PINS / "torch-variants-nightly"
    assert why == (
        f"vllm (no version: the newest release) at {folder / 'requirements_torch2100_vllm.txt'}:4, "
        f"vllm==0.10.2 at {folder / 'requirements_torch280_vllm.txt'}:3"
    )


def test_a_lock_file_wins_over_the_ranges_beside_it():
    from vllm_lint.config import VersionResolver

    version, why = VersionResolver().for_path(str(PINS / "uv-lock" / "bench.py"))
    assert (version.major, version.minor, version.admitted) == (0, 9, ())
    assert why == f"vllm==0.9.2 at {PINS / 'uv-lock' / 'uv.lock'}:11"


def test_pins_are_read_once_per_folder(tmp_path, monkeypatch):
    import vllm_lint.pins as pins

    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("vllm==0.9.2\n")
    (tmp_path / "a").mkdir()
    calls = []
    original = pins.pins_in
    monkeypatch.setattr(pins, "pins_in", lambda directory: calls.append(directory) or original(directory))
    resolver = VersionResolver()
    for name in ("x.py", "y.py", "z.sh"):
        assert resolver.for_path(str(tmp_path / "a" / name))[0].minor == 9
    assert calls == [(tmp_path / "a").resolve(), tmp_path.resolve()]


def test_explain_names_the_guard_and_the_releases_that_run_an_arm(capsys):
    from vllm_lint.cli import main

    path = PINS / "guards" / "engines.py"
    main(["explain", f"{path}:17"])
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith(": LLM (vLLM 0.13-0.15)"), out
    pin = PINS / "guards" / "requirements.txt"
    assert f"target version from vllm>=0.10,<0.16 at {pin}:1; the version guard at line 16 runs it on 0.13-0.15" in out


@pytest.mark.parametrize(
    "written, rendered",
    [
        ('"{{ .Values.image.repository }}:{{ .Values.image.tag }}"', "vllm/vllm-openai:v0.10.2"),
        ("{{ .Values.image.repository }}:{{ .Chart.AppVersion }}", "vllm/vllm-openai:v0.9.2"),
        ('{{ .Values.image.repository }}:{{ .Values.image.missing | default "v0.8.5" }}', "vllm/vllm-openai:v0.8.5"),
        ("{{ .Values.image.repository }}:{{ include \"tag\" . }}", None),  # a named template: not rendered
        ("{{ .Values.image.repository }}:{{ .Values.image.missing }}", None),  # unset: no tag known
    ],
)
def test_helm_images_are_rendered_from_the_charts_values(written, rendered):
    from vllm_lint.launch.helm import rendered_image

    assert rendered_image(written, str(PINS / "helm-chart" / "templates" / "deployment.yaml")) == rendered


def test_explain_says_which_instruction_names_a_commands_release(capsys):
    from vllm_lint.cli import main

    dockerfile = PINS / "docker" / "Dockerfile"
    main(["explain", str(dockerfile)])
    out = capsys.readouterr().out
    assert "target version from the tag of the image vllm/vllm-openai:v0.9.2" in out
    assert f"target version from the RUN pip install at {dockerfile}:8" in out
    assert f"target version from the RUN pip install at {dockerfile}:13" in out


def test_a_triton_model_without_a_pin_is_checked_against_every_release(capsys):
    from vllm_lint.cli import main

    model = PINS / "triton-image" / "model_repository" / "llama" / "1" / "model.py"
    assert lint(model).findings == []
    main(["check", "--show-settings", str(model)])
    assert "target version: any (from the Triton server image" in capsys.readouterr().out
    pinned = PINS / "triton-pinned" / "model_repository" / "qwen" / "1" / "model.py"
    main(["check", "--show-settings", str(pinned)])
    assert "target version: 0.10 (from vllm==0.10.2 at" in capsys.readouterr().out


@pytest.mark.parametrize(
    "chart, image, written_at",
    [
        ("helm-chart", "vllm/vllm-openai:v0.10.2", "values.yaml:4"),  # {{ .Values.image.tag }}
        ("helm-appversion", "vllm/vllm-openai:v0.9.2", "Chart.yaml:4"),  # {{ .Chart.AppVersion }}
    ],
)
def test_explain_says_where_a_chart_writes_its_images_tag(capsys, chart, image, written_at):
    from vllm_lint.cli import main

    main(["explain", str(PINS / chart / "templates" / "deployment.yaml")])
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "target version from" in line)
    assert line.startswith(f"  target version from the tag of the image {image} (set at "), out
    assert line.endswith(f"{chart}/{written_at})"), line


@pytest.mark.parametrize(
    "requirement, releases",
    [
        # PEP 508 direct references: the wheel's file name (percent-decoded), a VCS tag, a tag archive
        ("vllm @ https://github.com/vllm-project/vllm/releases/download/v0.10.1.1/vllm-0.10.1.1%2Bcu126-cp38-abi3-manylinux1_x86_64.whl", ((0, 10),)),
        ("vllm @ git+https://github.com/vllm-project/vllm@v0.10.2", ((0, 10),)),
        ("vllm @ git+ssh://git@github.com/vllm-project/vllm.git@v0.9.2#egg=vllm", ((0, 9),)),
        ("vllm @ https://github.com/vllm-project/vllm/archive/refs/tags/v0.11.0.tar.gz", ((0, 11),)),
        ("vllm @ file:///wheels/vllm-0.12.0-cp38-abi3-linux_x86_64.whl ; sys_platform == 'linux'", ((0, 12),)),
        ('vllm[audio]>=0.10,<0.12 ; python_version >= "3.10"', ((0, 10), (0, 11))),
    ],
)
def test_every_pep508_form_names_its_release(requirement, releases):
    from vllm_lint.pins import admitted_releases

    assert admitted_releases(requirement)[0] == releases


@pytest.mark.parametrize(
    "requirement",
    [
        "vllm @ git+https://github.com/vllm-project/vllm@main",  # a branch: no release
        "vllm @ git+https://github.com/vllm-project/vllm@4ba787ec9",  # a commit
        "vllm @ https://example.com/builds/vllm-nightly.whl",  # not a wheel file name
        "vllm @ https://example.com/vllm-0.10.1%ZZ-cp38-abi3-linux_x86_64.whl",  # malformed escapes
        "vllm==0.10.*.1",  # an invalid specifier: not a requirement
        "vllm-router @ git+https://github.com/vllm-project/router@v0.1.0",  # another package
    ],
)
def test_a_direct_reference_that_names_no_release_pins_nothing_and_never_raises(requirement):
    from vllm_lint.pins import admitted_releases

    assert admitted_releases(requirement) is None


def test_pip_requirement_files_are_read_as_pip_reads_them(tmp_path):
    from vllm_lint.pins import pins_in

    (tmp_path / ".git").mkdir()
    (tmp_path / "serve").mkdir()
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "vllm.txt").write_text("vllm>=0.9 \\\n  ; sys_platform == 'linux'\n")
    (tmp_path / "shared" / "tested.txt").write_text("vllm<0.11\n")
    (tmp_path / "serve" / "requirements.txt").write_text("--requirement=../shared/vllm.txt\n-c ../shared/tested.txt\n-r requirements.txt\n")
    pins = pins_in(tmp_path / "serve")
    assert [(pin.releases, pin.path.name, pin.line) for pin in pins] == [(((0, 9), (0, 10)), "vllm.txt", 1)]
    assert pins[0].requirement == "vllm>=0.9 (vllm.txt:1) with vllm<0.11 (tested.txt:1)"
    (tmp_path / "editable").mkdir()
    (tmp_path / "editable" / "requirements.txt").write_text("-e git+https://github.com/vllm-project/vllm.git@v0.9.2#egg=vllm\n")
    assert [pin.releases for pin in pins_in(tmp_path / "editable")] == [((0, 9),)]
    (tmp_path / "bare-url").mkdir()
    (tmp_path / "bare-url" / "requirements.txt").write_text("https://example.com/w/vllm-0.11.0-cp38-abi3-manylinux1_x86_64.whl\n")
    assert [pin.releases for pin in pins_in(tmp_path / "bare-url")] == [((0, 11),)]


def test_a_constraint_alone_does_not_install_and_a_bare_requirement_beside_it_takes_its_release(tmp_path):
    from vllm_lint.pins import pins_in

    (tmp_path / "requirements.txt").write_text("vllm\n-c pins/constraints.txt\n")
    (tmp_path / "pins").mkdir()
    (tmp_path / "pins" / "constraints.txt").write_text("vllm==0.10.2\n")
    assert [(pin.requirement, pin.releases, pin.bare) for pin in pins_in(tmp_path)] == [("vllm==0.10.2", ((0, 10),), False)]


def test_a_folded_compose_command_is_read_in_its_images_release():
    result = lint(PINS / "compose-folded" / "compose.yaml")
    assert [(f.span.line, f.code, f.message) for f in result.findings] == [
        (11, "VLM301", "--enable-reasoning is not an argument in vLLM 0.10 (removed in 0.10); replaced by --reasoning-parser (vLLM 0.9) (vLLM 0.10 from line 5)")
    ]


@pytest.mark.parametrize(
    "command",
    [
        'uv pip install --no-build-isolation --reinstall-package vllm "vllm @ git+https://github.com/vllm-project/vllm@v0.10.2"',
        "uv pip install --upgrade-package vllm vllm==0.10.2",
        "pip install --no-binary vllm vllm==0.10.2",
        "pip install --only-binary=vllm vllm==0.10.2",
    ],
)
def test_an_option_naming_the_package_is_no_requirement(command):
    from vllm_lint.pins import pip_install_requirements

    found = [requirement for requirement, _ in pip_install_requirements(f"RUN {command}\n")]
    assert len(found) == 1 and "0.10.2" in found[0]


@pytest.mark.parametrize(
    ("name", "text", "release"),
    [
        ("requirements.lock", "# generated by rye\nvllm==0.26.0+cu129\n", "0.26"),
        ("requirements-dev.lock", "-e file:.\nvllm==0.10.2\n", "0.10"),
        ("pylock.toml", 'lock-version = "1.0"\n\n[[packages]]\nname = "vllm"\nversion = "0.10.2"\n', "0.10"),
        ("pylock.serve.toml", 'lock-version = "1.0"\n\n[[packages]]\nname = "vllm"\nversion = "0.26.0"\n', "0.26"),
    ],
)
def test_rye_and_pep_751_lock_files_pin_the_folder(tmp_path, name, text, release):
    (tmp_path / ".git").mkdir()
    (tmp_path / name).write_text(text)
    script = tmp_path / "run.py"
    script.write_text('from vllm import LLM\n\nllm = LLM("Qwen/Qwen3-8B", swap_space=4)\n')
    found = lint(script)
    removed_in_018 = [(f.span.line, f.code) for f in found.findings]
    assert removed_in_018 == ([(3, "VLM301")] if release == "0.26" else [])
    if release == "0.26":
        assert f"vLLM {release} from" in found.findings[0].message and name in found.findings[0].message


def test_a_requirements_file_in_the_home_or_temp_folder_pins_no_project_beneath_it(tmp_path, monkeypatch):
    import vllm_lint.config as config

    home = tmp_path / "home"
    (home / "scratch" / "serving").mkdir(parents=True)
    (home / "requirements.txt").write_text("vllm==0.9.2\n")  # a file left in the home folder
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr(config, "_NOT_A_PROJECT", None)
    version, why = VersionResolver().for_path(str(home / "scratch" / "serving" / "serve.py"))
    assert version.assumed and why == "the newest vLLM release the rules know: no pin found"
    (home / "scratch" / "requirements.txt").write_text("vllm==0.10.2\n")  # a folder beneath it still pins
    version, why = VersionResolver().for_path(str(home / "scratch" / "serving" / "serve.py"))
    assert version.minor == 10


def test_a_modal_image_built_in_the_module_is_the_release_its_code_runs_on():
    (finding,) = lint(PINS / "modal-image" / "serve_modal.py").findings
    assert finding.message.endswith("(vLLM 0.9 from line 7)")
    assert finding.target_version == "0.9"
    folder = lint(PINS / "modal-image" / "serve_local.py").findings
    assert [f.target_version for f in folder] == ["0.34"]


def test_show_settings_and_explain_agree_with_check_on_a_module_that_builds_its_image():
    path = PINS / "modal-image" / "serve_modal_nightly.py"
    shown = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", "--show-settings", str(path)], capture_output=True, text=True
    ).stdout
    assert "target version: 0.9, 0.34 (from vllm==0.9.2 at " in shown
    explained = subprocess.run([sys.executable, "-m", "vllm_lint", "explain", str(path)], capture_output=True, text=True).stdout
    assert "target version from vllm==0.9.2 at" in explained
    assert "vllm (no version: the newest release) at" in explained


def test_a_module_that_builds_its_image_keeps_the_project_settings():
    from vllm_lint.config import Target
    from vllm_lint.python.built_images import with_built_images
    from vllm_lint.versions import Version

    folder = Target(Version.parse("0.34"), "requirements.txt")
    folder.pass_through, folder.server_images, folder.models = "anything", ("acme/vllm",), (("m", {}, "x"),)
    folder.plugin_arguments = frozenset({"sequence_shards"})
    source = (PINS / "modal-image" / "serve_modal.py").read_text()
    built = with_built_images(folder, source, str(PINS / "modal-image" / "serve_modal.py"))
    assert built[0].minor == 9 and built.origin.endswith("serve_modal.py:7")
    assert (built.pass_through, built.server_images, built.models, built.plugin_arguments) == (
        "anything", ("acme/vllm",), (("m", {}, "x"),), frozenset({"sequence_shards"})
    )
