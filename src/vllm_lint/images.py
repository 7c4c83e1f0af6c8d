"""vLLM's container images: which names are vLLM's server image, or a rebuild of it, and
which release a tag names (``vllm/vllm-openai:v0.31.0``, ``.../vllm-openai:kvcache-v0.8.5-20250520``)."""

from __future__ import annotations

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
