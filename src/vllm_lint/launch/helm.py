"""A Helm chart's image, rendered from the chart's own values.

A container's ``image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"``
names a vLLM release only through the chart: ``values.yaml`` (the defaults a
release of the chart installs with) and ``Chart.yaml`` (``.Chart.AppVersion``,
often the fallback: ``{{ .Values.image.tag | default .Chart.AppVersion }}``).
Only plain lookups, string literals and the ``default``, ``quote`` and
``toString`` functions are rendered; anything else leaves the image unknown.
Each chart's files are read once.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

_EXPRESSION = re.compile(r"\{\{-?\s*(.*?)\s*-?\}\}", re.S)
_PASS_THROUGH = frozenset({"quote", "toString", "trim", "squote"})


class _Unrendered(Exception):
    pass


def rendered_image(written: str, path: str) -> str | None:
    """``written`` (the image as the template writes it) with its expressions rendered from the
    chart of the template at ``path``; None when there is no chart or an expression is not plain."""
    return rendered_image_and_tag_source(written, path)[0]


def rendered_image_and_tag_source(written: str, path: str) -> tuple[str | None, str]:
    """The rendered image, and where the chart writes the last value rendered into it (the tag,
    which names the release): ``chart/values.yaml:4`` or ``chart/Chart.yaml:6``; "" when the
    image is not rendered."""
    chart = chart_of(os.path.dirname(os.path.abspath(path)))
    if chart is None:
        return None, ""
    values, meta = _chart_files(chart)
    used: list[str] = []

    def render(match: re.Match) -> str:
        terms = [term.strip() for term in match.group(1).split("|")]
        value = _term(terms[0], values, meta)
        term = terms[0]
        for function in terms[1:]:
            name, _, argument = function.partition(" ")
            if name == "default":
                if not value:
                    term = argument.strip()
                    value = _term(term, values, meta)
            elif name not in _PASS_THROUGH:
                raise _Unrendered
        if not isinstance(value, (str, int, float)) or isinstance(value, bool) or value == "":
            raise _Unrendered
        used.append(term)
        return str(value)

    try:
        image = _EXPRESSION.sub(render, written.strip().strip("\"'"))
    except _Unrendered:
        return None, ""
    return image, (_written_at(chart, used[-1]) if used else "")


def _written_at(chart: str, term: str) -> str:
    """``file:line`` of the chart value a term reads (``.Values.image.tag``, ``.Chart.AppVersion``)."""
    if term == ".Chart.AppVersion":
        file, keys = "Chart.yaml", ["appVersion"]
    elif term.startswith(".Values."):
        file, keys = "values.yaml", term[len(".Values.") :].split(".")
    else:
        return ""
    line = _key_line(os.path.join(chart, file), tuple(keys))
    return f"{_shown(os.path.join(chart, file))}:{line}" if line else ""


def _shown(path: str) -> str:
    """A path as the run shows paths: relative to the working directory when below it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


@lru_cache(maxsize=64)
def _key_line(path: str, keys: tuple[str, ...]) -> int:
    """The 1-based line of the value at ``keys`` in the YAML file at ``path``; 0 when not found."""
    import yaml

    try:
        with open(path, encoding="utf-8") as handle:
            node = yaml.compose(handle, Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError):
        return 0
    for key in keys:
        if not isinstance(node, yaml.MappingNode):
            return 0
        node = next((value for name, value in node.value if isinstance(name, yaml.ScalarNode) and name.value == key), None)
        if node is None:
            return 0
    return node.start_mark.line + 1


def chart_of(directory: str) -> str | None:
    """The chart a template belongs to: the nearest folder above with a Chart.yaml (templates/ may nest)."""
    for _ in range(4):
        if os.path.isfile(os.path.join(directory, "Chart.yaml")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return None


def chart_names_vllm_image(path: str) -> bool:
    """The chart of the template at ``path`` names a vLLM server image in its values."""
    chart = chart_of(os.path.dirname(os.path.abspath(path)))
    return chart is not None and _names_vllm_image(chart)


@lru_cache(maxsize=64)
def _names_vllm_image(chart: str) -> bool:
    try:
        with open(os.path.join(chart, "values.yaml"), "rb") as handle:
            data = handle.read(1 << 20)
    except OSError:
        return False
    return b"vllm-openai" in data or b"vllm/" in data


@lru_cache(maxsize=64)
def _chart_files(chart: str) -> tuple[dict, dict]:
    return _yaml_mapping(os.path.join(chart, "values.yaml")), _yaml_mapping(os.path.join(chart, "Chart.yaml"))


def _yaml_mapping(path: str) -> dict:
    import yaml

    try:
        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _term(term: str, values: dict, meta: dict) -> object:
    """A plain term: ``.Values.a.b``, ``.Chart.AppVersion``, a string literal; else unrendered."""
    if len(term) >= 2 and term[0] == term[-1] == '"':
        return term[1:-1]
    if term == ".Chart.AppVersion":
        return meta.get("appVersion", "")
    if term.startswith(".Values."):
        value: object = values
        for key in term[len(".Values.") :].split("."):
            if not isinstance(value, dict) or key not in value:
                return ""  # unset: Helm renders nothing (and ``default`` takes over)
            value = value[key]
        return "" if value is None else value
    raise _Unrendered
