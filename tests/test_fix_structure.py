"""Fixes of YAML and TOML files change the fixed value and nothing else: anchors and tags
stay, an aliased value makes the fix unsafe, and an edit that would damage the file is not offered."""

from __future__ import annotations

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

import pytest
import yaml
from fixtures import TESTDATA, target_version

from vllm_lint.findings import Edit, Fix
from vllm_lint.fix.structure import kind_of, reviewed
from vllm_lint.fix.text import apply_edits
from vllm_lint.lint import file_kind, lint_file
from vllm_lint.versions import Version

V033 = Version(0, 33)

SERVE_CONFIG = """\
return_sampling_mask: true
logprobs_mode: &mode raw_logprobs  # note
max_model_len: 8192
enable_prefix_caching: true
speculative_config:
  method: ngram
  num_speculative_tokens: 4
"""

VERL_ALIASED = """\
defaults:
  - ppo_trainer
  - _self_

actor_rollout_ref:
  rollout:
    name: vllm
    logprobs_mode: &mode raw_logprobs  # note
    engine_kwargs:
      vllm:
        return_sampling_mask: true
  ref:
    logprobs_mode: *mode
"""

COMPOSE_ALIASED = """\
services:
  policy:
    image: vllm/vllm-openai:v0.33.0
    command: ["--model", "Qwen/Qwen3-8B", "--return-sampling-mask", "--logprobs-mode", &lm raw_logprobs]
    labels:
      mode: *lm
"""


def lint(tmp_path, name: str, text: str):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "rollout"\n')
    path = tmp_path / name
    path.write_text(text)
    result = lint_file(str(path), lambda _path: (V033, "test"))
    assert result.error is None, result.error
    return result


def fixed_by(result, code: str) -> tuple[str, Fix]:
    [finding] = [f for f in result.findings if f.code == code]
    assert finding.fix is not None
    return apply_edits(result.source, finding.fix.edits), finding.fix


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        ("&mode raw_logprobs  # note", "&mode processed_logprobs  # note"),
        ("!!str raw_logprobs", "!!str processed_logprobs"),
        ("&mode !!str 'raw_logprobs'", "&mode !!str processed_logprobs"),
        ("!!str\n  raw_logprobs", "!!str\n  processed_logprobs"),
    ],
)
def test_a_fix_keeps_the_anchor_and_the_tag_of_the_value(tmp_path, written, kept):
    text = SERVE_CONFIG.replace("&mode raw_logprobs  # note", written)
    new, fix = fixed_by(lint(tmp_path, "engine.yaml", text), "VLM105")
    assert new == text.replace(written, kept)
    assert fix.applicability == "safe"
    assert yaml.safe_load(new)["logprobs_mode"] == "processed_logprobs"


@pytest.mark.parametrize(("name", "text", "anchor"), [("ppo.yaml", VERL_ALIASED, "mode"), ("compose.yaml", COMPOSE_ALIASED, "lm")])
def test_a_value_used_through_an_alias_is_an_unsafe_fix_that_says_so(tmp_path, name, text, anchor):
    new, fix = fixed_by(lint(tmp_path, name, text), "VLM105")
    assert fix.applicability == "unsafe"
    assert fix.message.endswith(f"(the value is also used through *{anchor})")
    assert f"&{anchor} processed_logprobs" in new
    yaml.safe_load(new)  # the alias still resolves


def test_the_same_value_without_an_alias_is_a_safe_fix(tmp_path):
    text = VERL_ALIASED.replace("  ref:\n    logprobs_mode: *mode\n", "")
    _, fix = fixed_by(lint(tmp_path, "ppo.yaml", text), "VLM105")
    assert fix.applicability == "safe"


# ------------------------------------------------------------------ the guard itself


def edit(text: str, old: str, new: str) -> Edit:
    """An edit replacing the first ``old`` in ``text``."""
    start = text.index(old)

    def position(offset: int) -> tuple[int, int]:
        return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1

    return Edit(position(start), position(start + len(old)), new)


ALIASED = "a: &mode raw_logprobs  # note\nb: *mode\nc: 1\n"


@pytest.mark.parametrize(
    ("text", "old", "new", "kind"),
    [
        (ALIASED, "&mode raw_logprobs", "processed_logprobs", "yaml"),  # the anchor lost: *mode undefined
        ("x: &lst [1, 2]\ny: *lst\n", "&lst [1, 2]", "[1, 3]", "yaml"),  # an aliased list's anchor lost
        ("a: raw\nc: 1\n", "a: raw", "a: x\n  d: 2", "yaml"),  # a value that became a mapping... of nothing
        ("a: raw\nc: [1, 2]\n", "raw", "x, c: [3]}", "yaml"),  # no longer YAML
        ('[vllm]\nlogprobs_mode = "raw"\nport = 1\n', '"raw"', '"x"\nport = 2', "toml"),  # a duplicate key
        ('[vllm]\nlogprobs_mode = "raw"\nport = 1\n', '"raw"', '"x"\n[other]', "toml"),  # port moved to another table
    ],
)
def test_an_edit_that_changes_more_than_its_value_is_not_offered(text, old, new, kind):
    fix = Fix("safe", "Set it", [edit(text, old, new)])
    assert reviewed(kind, text, fix) is None


def test_an_edit_of_the_value_alone_is_offered():
    fix = Fix("safe", "Set it", [edit(ALIASED, "raw_logprobs", "processed_logprobs")])
    assert reviewed("yaml", ALIASED, fix) == Fix("unsafe", "Set it (the value is also used through *mode)", fix.edits)
    toml = '[vllm]\nlogprobs_mode = "raw"\nport = 1\n'
    toml_fix = Fix("safe", "Set it", [edit(toml, '"raw"', '"processed_logprobs"')])
    assert reviewed("toml", toml, toml_fix) is toml_fix


# ------------------------------------------------------------------ every fix of every fixture


def _config_fixtures() -> list:
    files = []
    for path in sorted(TESTDATA.rglob("*")):
        if not path.is_file() or path.name.endswith(".fixed"):
            continue
        kind = file_kind(str(path), path.read_bytes()[:512])
        if kind is not None and kind != "python":
            files.append(path)
    return files


def _data(kind: str, text: str):
    return tomllib.loads(text) if kind == "toml" else list(yaml.safe_load_all(text))


def _nodes(text: str):
    return list(yaml.compose_all(text, Loader=yaml.SafeLoader))  # PyYAML's own, not the linter's reader


def _node_at(documents, path):
    node = documents
    for part in path:
        if isinstance(node, list):
            node = node[part] if isinstance(part, int) and part < len(node) else None
        elif isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(part)), None)
        elif isinstance(node, yaml.SequenceNode):
            node = node.value[part] if isinstance(part, int) and part < len(node.value) else None
        else:
            return None
        if node is None:
            return None
    return node


def _differences(a, b, path=()):
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in list(a) + [key for key in b if key not in a]:
            found.extend(_differences(a.get(key), b.get(key), (*path, key)) if key in a and key in b else [(*path, key)])
        return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for index, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, (*path, index))]
    return [] if a == b else [path]


def _edited_lines(text: str, edits: list[Edit], new: bool) -> set[int]:
    """0-based lines the edits touch, in the old text or (``new``) in the edited one."""
    lines: set[int] = set()
    shift = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        first = e.start[0] - 1 + (shift if new else 0)
        last = (first + e.content.count("\n")) if new else e.end[0] - 1
        lines.update(range(first, last + 1))
        shift += e.content.count("\n") - (e.end[0] - e.start[0])
    return lines


def _allowed(documents, path, lines: set[int]) -> bool:
    for depth in range(len(path), 0, -1):  # the changed node, or the entry or list that holds it
        node = _node_at(documents, path[:depth])
        if node is not None:
            return any(line in lines for line in range(node.start_mark.line, node.end_mark.line + 1))
    return False


def test_every_fix_of_a_config_file_in_the_fixtures_keeps_its_structure():
    """Each fix (and each disable-replay alternative) of each YAML and TOML fixture, applied
    alone: the file parses, and the data differs only where the edits are."""
    checked = 0
    for path in _config_fixtures():
        pinned = target_version(path.read_text(encoding="utf-8", errors="replace"))
        version = Version.parse(pinned) if pinned else V033
        result = lint_file(str(path), lambda _p, v=version: (v, "test"))
        if result.error is not None or result.source is None:
            continue
        for finding in result.findings:
            for fix in (finding.fix, finding.disable_replay_fix):
                if fix is None:
                    continue
                targets = [(str(path), result.source, fix.edits)]
                targets += [(other, open(other, encoding="utf-8").read(), edits) for other, edits in fix.elsewhere.items()]
                for target, text, edits in targets:
                    kind = kind_of(target)
                    if kind is None or not edits or "{{" in text or "{%" in text:
                        continue
                    new = apply_edits(text, edits, "\r\n" if "\r\n" in text else "\n")
                    where = f"{target}: {finding.code} {fix.message}"
                    before = _data(kind, text)
                    after = _data(kind, new)  # raises when the fix broke the file
                    differences = _differences(before, after)
                    assert differences, where
                    if kind == "yaml":
                        old_nodes, new_nodes = _nodes(text), _nodes(new)
                        old_lines, new_lines = _edited_lines(text, edits, False), _edited_lines(text, edits, True)
                        for difference in differences:
                            assert _allowed(old_nodes, difference, old_lines) or _allowed(new_nodes, difference, new_lines), (where, difference)
                    else:
                        written = "\n".join(text.splitlines()[line] for line in _edited_lines(text, edits, False) if line < len(text.splitlines()))
                        written += "\n" + "\n".join(new.splitlines()[line] for line in _edited_lines(text, edits, True) if line < len(new.splitlines()))
                        for difference in differences:
                            assert str([p for p in difference if isinstance(p, str)][-1]) in written, (where, difference)
                    checked += 1
    assert checked >= 20, checked
