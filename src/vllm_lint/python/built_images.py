"""The vLLM release of a Python file that builds the image its own code runs in.

Serverless platforms define the container image in the same module as the code that runs in
it, and install vLLM there rather than in the project's requirements:

    vllm_image = (
        modal.Image.from_registry("nvidia/cuda:12.8.1-devel-ubuntu22.04", add_python="3.12")
        .uv_pip_install("vllm==0.10.2", "huggingface_hub[hf_transfer]")
    )

    @app.function(image=vllm_image, gpu="H100")
    def generate(): ...

Modal's ``Image`` (``pip_install``, ``uv_pip_install``, ``run_commands("pip install ...")``,
``from_registry("vllm/vllm-openai:v0.10.2")``), BentoML's ``bentoml.images.Image``
(``python_packages``, ``run``) and Beam's ``Image`` (``python_packages=[...]``,
``base_image=``, ``add_python_packages``) are read.  Every vLLM that any image of the module
installs is a release the module's code may run on (an image chosen by a run-time test
installs one of them), so the module runs on the releases they admit together; a ``pip
install -U vllm`` with no version is the newest release.  Nothing else in the module is
read: a file with no such image keeps its folder's pins.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path


# The modules whose image builders are read, and the methods that install Python packages.
PLATFORMS = frozenset({"modal", "bentoml", "beta9", "beam"})
_PACKAGE_METHODS = frozenset({"pip_install", "uv_pip_install", "python_packages", "add_python_packages"})
_COMMAND_METHODS = frozenset({"run_commands", "run", "add_commands"})
_IMAGE_METHODS = frozenset({"from_registry", "from_dockerhub", "from_aws_ecr", "from_gcp_artifact_registry"})
_PACKAGE_KEYWORDS = frozenset({"python_packages"})
_IMAGE_KEYWORDS = frozenset({"base_image"})
# An image repository named after vLLM that is not upstream's image nor a rebuild of it.
_THIRD_PARTY_VLLM = re.compile(r"(?:^|/)[\w.-]*vllm[\w.-]*$", re.IGNORECASE)
# Words that must be in the text before the module is parsed again.
_MARKERS = ("pip_install", "python_packages", "run_commands", "from_registry", "base_image", ".run(", "add_commands")


def may_build_image(source: str) -> bool:
    return "vllm" in source and any(marker in source for marker in _MARKERS) and any(p in source for p in PLATFORMS)


def _read(source: str, path: str) -> tuple[list, list[tuple[str, int]]]:
    """The vLLM pins of the module's images, and the third-party vLLM builds they start from."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return [], []
    if not _imports_a_platform(tree):
        return [], []
    from vllm_lint.pins import pin_of

    found, forks = [], []
    for requirement, line, shown in _requirements(tree, forks):
        pin = pin_of(requirement, Path(path), line, shown=shown)
        if pin is not None:
            found.append(pin)
    return found, forks


def with_built_images(target, source: str, path: str):
    """``target``, or the release the module's own images install when it builds any (a release
    the user chose stays)."""
    if getattr(target, "explicit", False) or not may_build_image(source):
        return target
    pins, forks = _read(source, path)
    from vllm_lint.config import Target, pinned_version, places

    if pins:
        version = pinned_version(pins)
        why = ", ".join(f"{pin.requirement} at {pin.where}" for pin in pins)
        origin = places([(str(pin.path), pin.line) for pin in pins])
    elif forks:
        # A third party's vLLM build (``stepfun2025/vllm:step-audio-2-...``): its release is not
        # named, and its parser may take options of its own, so only what holds on every
        # release, the ones older than the rules too, is reported.
        from vllm_lint.launch.schema import any_release

        image, line = forks[0]
        version = any_release()
        why = f"the image {image} at {Path(path).name}:{line}, a vLLM build whose release is not named"
        origin = f"{path}:{line}"
    else:
        return target
    if isinstance(target, Target):
        return target.with_release(version, why, origin)
    return Target(version, why, origin)


def _imports_a_platform(tree: ast.Module) -> bool:
    from vllm_lint.python.subprocesses import imports_module

    return any(imports_module(tree, platform) for platform in PLATFORMS)


def _strings(nodes) -> list[tuple[str, int]]:
    """The string constants among call arguments, a list or tuple of them included."""
    found = []
    for node in nodes:
        if isinstance(node, (ast.List, ast.Tuple)):
            found += _strings(node.elts)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.value, node.lineno))
    return found


def _requirements(tree: ast.Module, forks: list):
    """``(requirement, line, shown)`` of every vLLM an image builder's call names; a base image
    that is a vLLM build of a third party is added to ``forks``."""
    from vllm_lint.images import image_release, is_vllm_build
    from vllm_lint.pins import pip_install_requirements
    from vllm_lint.python.calls import call_name

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = call_name(node.func) or ""
        packages, commands, images = [], [], []
        if name in _PACKAGE_METHODS and isinstance(node.func, ast.Attribute):
            packages = _strings(node.args)
        elif name in _COMMAND_METHODS and isinstance(node.func, ast.Attribute):
            commands = _strings(node.args)
        elif name in _IMAGE_METHODS and isinstance(node.func, ast.Attribute):
            images = _strings(node.args[:1])
        if name == "Image" or name in _PACKAGE_METHODS | _IMAGE_METHODS:
            for keyword in node.keywords:
                if keyword.arg in _PACKAGE_KEYWORDS:
                    packages += _strings([keyword.value])
                elif keyword.arg in _IMAGE_KEYWORDS:
                    images += _strings([keyword.value])
        for text, line in packages:
            if "vllm" in text.lower() and not text.startswith("-"):
                yield text, line, None
        for text, line in commands:
            for requirement, _offset in pip_install_requirements(text):
                yield requirement, line, None
        for text, line in images:
            release = image_release(text)
            if release is not None:
                yield f"vllm=={release}", line, f"the image {text}"
            elif not is_vllm_build(text) and _THIRD_PARTY_VLLM.search(text.split("@", 1)[0].rsplit(":", 1)[0]):
                forks.append((text, line))


def target_of_file(version_for, path: str | None):
    """What ``check`` runs a Python file by, for ``explain`` and ``--show-settings``: the folder's
    target, or its own images' release."""
    target = version_for(path)
    if not path or not path.endswith(".py"):
        return target
    try:
        with open(path, "rb") as handle:
            source = handle.read().decode("utf-8", "replace")
    except OSError:
        return target
    return with_built_images(target, source, path)
