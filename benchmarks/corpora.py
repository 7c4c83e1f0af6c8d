"""The two benchmark corpora, materialised under ``benchmarks/.cache/``.

* ``stdlib``: every ``.py`` file of the running Python's standard library
  (``sysconfig.get_paths()["stdlib"]``) without ``site-packages`` and without
  the test suites (``test``, ``tests``, ``idle_test`` folders), copied into
  one tree so that every tool walks exactly the same files.
* ``vllm``: the ``vllm/`` package of the newest supported vLLM release,
  unpacked from its PyPI wheel.  The wheel is taken from
  ``$VLLM_LINT_WHEELS`` (a folder of ``vllm-X-*.whl``) when it holds it, else
  from ``benchmarks/.cache/wheels``, else downloaded there with
  ``pip download --no-deps vllm==X``.

* ``harness`` and ``framework``: generated repository shapes (``generated.py``):
  an evaluation harness of ~15,000 small files that mention no vLLM, and an RL
  framework's repository in NeMo-RL's shape (its Hydra configs and launch scripts).

Only ``.py`` files are kept from the first two.  Nothing here is committed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("VLLM_LINT_BENCH_CACHE", HERE / ".cache"))
VLLM_VERSION = "0.34.0"
SKIPPED_DIRS = {"site-packages", "test", "tests", "idle_test", "__pycache__"}

# An empty [tool.vllm-lint] table in each corpus root keeps the project's own
# settings (found by walking up from the corpus) out of the measurement.
ISOLATING_PYPROJECT = "[tool.vllm-lint]\n"


def _files_under(root: Path) -> list[Path]:
    found: list[Path] = []
    for directory, subdirs, names in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in SKIPPED_DIRS)
        found.extend(Path(directory, name) for name in sorted(names) if name.endswith(".py"))
    return found


def stdlib() -> Path:
    """The standard library corpus for this interpreter's version."""
    source = Path(sysconfig.get_paths()["stdlib"])
    target = CACHE / f"stdlib-{sys.version_info.major}.{sys.version_info.minor}"
    marker = target / ".complete"
    if marker.exists():
        return target / "lib"
    if target.exists():
        shutil.rmtree(target)
    lib = target / "lib"
    for path in _files_under(source):
        destination = lib / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, destination)
    (target / "pyproject.toml").write_text(ISOLATING_PYPROJECT)
    marker.write_text(str(source))
    return lib


def find_wheel(version: str = VLLM_VERSION) -> Path:
    """A vLLM wheel of ``version``: reused when present, downloaded from PyPI otherwise."""
    pattern = f"vllm-{version}-*.whl"
    folders = [Path(p) for p in os.environ.get("VLLM_LINT_WHEELS", "").split(os.pathsep) if p]
    folders.append(CACHE / "wheels")
    for folder in folders:
        matches = sorted(folder.glob(pattern)) if folder.is_dir() else []
        if matches:
            return matches[0]
    download = CACHE / "wheels"
    download.mkdir(parents=True, exist_ok=True)
    print(f"downloading vllm=={version} (no dependencies) into {download} ...", file=sys.stderr)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(download), f"vllm=={version}"],
        check=True,
    )
    matches = sorted(download.glob(pattern))
    if not matches:
        raise SystemExit(f"pip download did not produce {pattern} in {download}")
    return matches[0]


def vllm_tree(version: str = VLLM_VERSION) -> Path:
    """The ``vllm`` package's Python files, unpacked from the wheel."""
    target = CACHE / f"vllm-{version}"
    marker = target / ".complete"
    if marker.exists():
        return target / "vllm"
    if target.exists():
        shutil.rmtree(target)
    wheel = find_wheel(version)
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.startswith("vllm/") and name.endswith(".py"):
                archive.extract(name, target)
    (target / "pyproject.toml").write_text(ISOLATING_PYPROJECT)
    marker.write_text(str(wheel))
    return target / "vllm"


def made_once(target: Path, inner: str, build) -> Path:
    """``target/inner``, filled by ``build(path)`` once and kept apart from any pyproject.toml
    above it; a folder an earlier run left unfinished (no marker) is made again."""
    marker = target / ".complete"
    if marker.exists():
        return target / inner
    if target.exists():
        shutil.rmtree(target)
    (target / inner).mkdir(parents=True)
    build(target / inner)
    (target / "pyproject.toml").write_text(ISOLATING_PYPROJECT)
    marker.write_text("")
    return target / inner


def _generated(name: str, build) -> Path:
    """A generated repository shape (``generated.py``), made once."""
    return made_once(CACHE / f"generated-{name}", "repo", build)


def harness() -> Path:
    """An evaluation harness's shape: ~15,000 small YAML task configs and Python helpers, no vLLM."""
    import generated

    return _generated("harness", generated.harness)


def framework() -> Path:
    """An RL framework repository's shape (NeMo-RL's): its base config, recipes composing it, launch scripts.

    ``VLLM_LINT_BENCH_FRAMEWORK_REPO`` names a local copy of a real framework repository to use instead."""
    local = os.environ.get("VLLM_LINT_BENCH_FRAMEWORK_REPO")
    if local:
        return Path(local).resolve()
    import generated

    return _generated("framework", generated.framework)


CORPORA = {"stdlib": stdlib, "vllm": vllm_tree, "harness": harness, "framework": framework}


def python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if p.is_file())


if __name__ == "__main__":
    for name in sys.argv[1:] or list(CORPORA):
        root = CORPORA[name]()
        files = python_files(root)
        lines = sum(p.read_bytes().count(b"\n") for p in files)
        print(f"{name}: {root} ({len(files)} files, {lines} lines)")
