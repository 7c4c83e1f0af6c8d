"""kustomize's image transformer: the image a manifest's container runs once built.

A ``kustomization.yaml`` (also ``kustomization.yml``, ``Kustomization``) whose
``resources`` list a manifest, or the folder that holds it (an overlay's
``../base``), rewrites the ``image`` of every container there whose image name
equals an ``images`` entry's ``name``: ``newName`` replaces the name,
``newTag`` the tag, ``digest`` the tag with ``@digest`` (kustomize's
``images`` field).  The manifest as written (``image: vllm/vllm-openai:latest``)
then runs the kustomized image (``vllm/vllm-openai:v0.10.2``).  The folder's
own kustomization is read, and those of the folders beside it and below those
(``overlays/prod`` beside ``base``); when
several give the image different releases, each is one way to deploy it.
Each kustomization, and which ones build a folder's manifests, are read once per run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

from vllm_lint.launch.yamlsrc import mapping_value

KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")


@dataclass(frozen=True)
class ImageOverride:
    name: str
    new_name: str | None
    new_tag: str | None
    digest: str | None
    path: str  # the kustomization that writes it
    line: int

    def apply(self, image: str) -> str:
        name, tag, digest = split_image(image)
        name = self.new_name or name
        if self.digest:
            return f"{name}@{self.digest}"
        if self.new_tag:
            return f"{name}:{self.new_tag}"
        return name + (f":{tag}" if tag else "") + (f"@{digest}" if digest else "")

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def split_image(image: str) -> tuple[str, str, str]:
    """``registry:5000/org/name:tag@sha256:...`` as (name, tag, digest)."""
    image, _at, digest = image.partition("@")
    slash = image.rfind("/")
    colon = image.rfind(":")
    if colon > slash:
        return image[:colon], image[colon + 1 :], digest
    return image, "", digest


def kustomized_images(image: str, manifest: str) -> list[tuple[str, ImageOverride]]:
    """The images ``image`` in the manifest at ``manifest`` becomes under the kustomizations that
    build it (each with the entry that rewrites it); [] when none rewrites it."""
    folder = os.path.dirname(os.path.abspath(manifest))
    name = split_image(image.strip())[0]
    found = []
    for kustomization in _building(folder, os.path.basename(manifest)):
        for override in _overrides(kustomization):
            if override.name == name:
                found.append((override.apply(image.strip()), override))
                break
    return found


@lru_cache(maxsize=1024)
def _building(folder: str, file_name: str) -> tuple[str, ...]:
    """The kustomizations whose resources include the manifest: the folder's own (listing the
    file), and those of the folders beside it listing the folder (overlays of a base)."""
    found = []
    own = _kustomization_in(folder)
    if own is not None and file_name in _resources(own):
        found.append(own)
    for other in _nearby_folders(folder):
        kustomization = _kustomization_in(other)
        if kustomization is None:
            continue
        for resource in _resources(kustomization):
            if os.path.normpath(os.path.join(other, resource)) == folder:
                found.append(kustomization)
                break
    return tuple(found)


MAX_NEARBY = 64


def _nearby_folders(folder: str) -> list[str]:
    """The folders beside ``folder`` and one level below them (``base/`` beside
    ``overlays/prod/``), where the overlays of a base are written."""
    parent = os.path.dirname(folder)
    if parent == folder:
        return []
    found: list[str] = []
    for depth_one in _subfolders(parent):
        if depth_one == folder:
            continue
        found.append(depth_one)
        found += _subfolders(depth_one)
        if len(found) >= MAX_NEARBY:
            break
    return found[:MAX_NEARBY]


def _subfolders(folder: str) -> list[str]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [os.path.join(folder, name) for name in names if not name.startswith(".") and os.path.isdir(os.path.join(folder, name))]


@lru_cache(maxsize=1024)
def _kustomization_in(folder: str) -> str | None:
    for name in KUSTOMIZATION_FILES:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


@lru_cache(maxsize=256)
def _read(path: str):
    import yaml

    try:
        with open(path, "rb") as handle:
            data = handle.read(512 * 1024)
        node = yaml.compose(data.decode("utf-8", errors="replace"), Loader=yaml.SafeLoader)
    except (OSError, yaml.YAMLError, RecursionError, ValueError):
        return None
    return node


def _resources(path: str) -> list[str]:
    import yaml

    node = _read(path)
    found = []
    for key in ("resources", "bases"):  # ``bases`` is the older name
        value = mapping_value(node, key)
        if isinstance(value, yaml.SequenceNode):
            found += [item.value for item in value.value if isinstance(item, yaml.ScalarNode)]
    return [os.path.normpath(item) for item in found]


@lru_cache(maxsize=256)
def _overrides(path: str) -> tuple[ImageOverride, ...]:
    import yaml

    images = mapping_value(_read(path), "images")
    if not isinstance(images, yaml.SequenceNode):
        return ()
    found = []
    for entry in images.value:
        def scalar(key: str, entry=entry) -> str | None:
            value = mapping_value(entry, key)
            return str(value.value).strip() if isinstance(value, yaml.ScalarNode) and value.value != "" else None

        name = scalar("name")
        if name is None:
            continue
        line_node = mapping_value(entry, "newTag") or mapping_value(entry, "digest") or mapping_value(entry, "newName") or entry
        found.append(ImageOverride(name, scalar("newName"), scalar("newTag"), scalar("digest"), path, line_node.start_mark.line + 1))
    return tuple(found)
