"""vLLM's container images: which names are vLLM's server image, or a rebuild of it, which
release a tag names (``vllm/vllm-openai:v0.31.0``, ``.../vllm-openai:kvcache-v0.8.5-20250520``),
and which images start vLLM's server when a container gives only arguments.

An image's entrypoint is ``vllm serve`` (so a container that gives only ``args:``, a compose
service with only ``command:``, ``docker run IMAGE FLAGS`` or a Dockerfile ``CMD`` passes engine
flags) when it is

* upstream's ``vllm/vllm-openai`` (any registry, tag or digest);
* a rebuild of it whose name still says so (``lmcache/vllm-openai``,
  ``<registry>/aibrix/vllm-openai:v0.10.2-...``, ``vllm/vllm-openai-rocm``);
* an image the project declares in ``[tool.vllm-lint] server-images``: a platform's build
  (``quay.io/opendatahub/vllm``) or the project's own image ``FROM vllm/vllm-openai``.
"""

from __future__ import annotations

import fnmatch
import re

from vllm_lint.versions import Version, VersionError

VLLM_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)*vllm/vllm-openai(?::[\w.-]+)?(?:@sha256:[0-9a-f]+)?$")


def is_vllm_image(text: str | None) -> bool:
    return text is not None and VLLM_IMAGE.match(text) is not None


# vLLM's server image rebuilt under another name (``<registry>/aibrix/vllm-openai:v0.10.2-...``,
# ``lmcache/vllm-openai:...``, ``.../vllm-openai-aibrix-kvcache:v0.10.2-20251022``): its tag
# still names the vLLM release it was built from.
REBUILT_VLLM_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)*vllm-openai[\w.-]*(?::[\w.+-]+)?(?:@sha256:[0-9a-f]+)?$")
_TAG_VERSION = re.compile(r"^v?\d+\.\d+(?:\.\d+)?(?:$|[-+_.])")
_TAG_WORD_VERSION = re.compile(r"(?:^|[-_])v(\d+\.\d+(?:\.\d+)?)(?=$|[-_])")


def is_vllm_build(image: str | None) -> bool:
    """vLLM's server image, or a rebuild of it under another name."""
    return image is not None and (is_vllm_image(image) or REBUILT_VLLM_IMAGE.match(image) is not None)


def image_release(image: str | None) -> Version | None:
    """The vLLM release a vLLM image's tag names (``vllm/vllm-openai:v0.31.0``, ``:0.31.0-cu128``,
    a rebuild's ``aibrix/vllm-openai:v0.10.2-aibrix-v0.5.0``); None for another image, no tag,
    or a tag that is not a version (``latest``, ``nightly``)."""
    if not is_vllm_build(image):
        return None
    name = image.split("@", 1)[0]
    repository, colon, tag = name.rpartition(":")
    if not colon or "/" in tag:
        return None
    if not _TAG_VERSION.match(tag):
        # A rebuild's tag may name the release after its own words (``aibrix-kvcache-v0.8.5-20250520``):
        # one ``vX.Y[.Z]`` word, else no release.
        found = _TAG_WORD_VERSION.findall(tag) if not is_vllm_image(image) else []
        if len(found) != 1:
            return None
        tag = found[0]
    try:
        return Version.parse(tag)
    except VersionError:
        return None


# An image of a vLLM plugin that adds options to ``vllm serve`` (vllm-omni's ``--omni``,
# ``--stage-configs-path``): an option no release has may be the plugin's.
_PLUGIN_IMAGE = re.compile(r"^(?:[\w.-]+(?::\d+)?/)*vllm-omni(?::[\w.+-]+)?(?:@sha256:[0-9a-f]+)?$")


def extends_serve_options(image: str | None) -> bool:
    """The image runs a vLLM plugin that adds its own ``vllm serve`` options."""
    return image is not None and _PLUGIN_IMAGE.match(image.strip()) is not None


class ServerImages:
    """The images a project declares as starting vLLM's server (``server-images``), for the
    file being linted: set around each file with the other per-project readings
    (``facts.reading``)."""

    declared: tuple[str, ...] = ()


_IMAGE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/:@*?\[\]-]*$")


def image_pattern_error(pattern: object) -> str | None:
    """Why a ``server-images`` entry is not an image name or glob; None when it is one."""
    if not isinstance(pattern, str):
        return f"{pattern!r} is not a string"
    if not _IMAGE_PATTERN.match(pattern) or pattern.endswith(("/", ":")) or "//" in pattern:
        return f"{pattern!r} is not an image name (registry/path/name, optionally :tag, * and ? as globs)"
    return None


def declared_server_image(image: str | None, declared: tuple[str, ...] | None = None) -> bool:
    """``image`` is one the project declares as starting vLLM's server: a pattern without a tag
    matches the repository whatever its tag or digest (``quay.io/opendatahub/vllm`` matches
    ``quay.io/opendatahub/vllm:fast-2024``), one with a tag the whole name; globs as in fnmatch."""
    patterns = ServerImages.declared if declared is None else declared
    if image is None or not patterns:
        return False
    name = image.strip().split("@", 1)[0]
    repository, colon, tag = name.rpartition(":")
    if not colon or "/" in tag:
        repository = name
    return any(fnmatch.fnmatchcase(repository, pattern) or fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def starts_vllm_server(image: str | None) -> bool:
    """The image's entrypoint is vLLM's server (``vllm serve``): upstream's image, a rebuild
    named after it, or an image the project declares (``server-images``)."""
    if image is None:
        return False
    image = image.strip()
    return is_vllm_build(image) or declared_server_image(image)


def declared_names_in(data: bytes, declared: tuple[str, ...]) -> bool:
    """A cheap test for the byte prefilters: the text may name a declared image (the longest
    run of a pattern without glob characters appears in it)."""
    for pattern in declared:
        literal = max(re.split(r"[*?\[\]]", pattern), key=len)
        if literal and literal.encode() in data:
            return True
    return False
