"""## What it does
Checks for `# noqa` comments (and file-level `# vllm-lint: noqa:` directives)
that name a vllm-lint code which silences nothing: the code is not reported
there (unused), its rule is not enabled (non-enabled), or no rule has that
code (unknown). Off by default: enable it with `--extend-select VLM901`.

Only vllm-lint's own codes are judged. Codes of other tools (`# noqa: E501`)
and a bare `# noqa` are left alone: other linters may need them.

## Why is this bad?
A stale `# noqa: VLM105` hides the next real mistake on that line: once the
configuration changes, vLLM may refuse to start and the linter stays silent.

## Example
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")  # noqa: VLM105
```

## Use instead
```python
from vllm import LLM

llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
```

## Fix safety
Safe: the fix removes the unused codes from the comment, or the whole
directive when no code is left; other codes and other comment text stay.

## Versions
All releases. Which codes are used depends on the target release.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator

from vllm_lint.facts import Span
from vllm_lint.findings import Edit, Fix
from vllm_lint.rules.base import Rule
from vllm_lint.versions import ALL_VERSIONS

CODE = "VLM901"
# A comment at the end of an exec-form instruction makes Docker read it as a shell command.
_EXEC_FORM = re.compile(r"^\s*(?:CMD|ENTRYPOINT|RUN|HEALTHCHECK\s+.*\bCMD)\s+\[", re.I)


def _byte_col(line: str, col: int) -> int:
    return len(line[:col].encode("utf-8", "surrogatepass"))


def _removal(line: str, number: int, directive, unused: set[str]) -> Edit:
    """The edit that removes ``unused`` codes from ``directive``, or the directive itself."""
    kept = [code for code in directive.codes if code not in unused]
    if kept:  # rewrite the list of codes
        first, last = directive.code_spans[0][0], directive.code_spans[-1][1]
        return Edit((number, first + 1), (number, last + 1), ", ".join(kept))
    if directive.file_level:  # the whole line
        return Edit((number, 1), (number + 1, 1), "")
    rest = line[directive.end :]
    if rest.strip():  # the comment goes on: keep its "#"
        start = directive.start + 1 + (len(line[directive.start + 1 :]) - len(line[directive.start + 1 :].lstrip()))
        end = directive.end + (len(rest) - len(rest.lstrip()))
        return Edit((number, start + 1), (number, end + 1), "")
    start = len(line[: directive.start].rstrip())
    return Edit((number, start + 1), (number, len(line) + 1), "")


def check(result, selected: Callable[[str], bool], known_codes) -> Iterator:
    """VLM901 findings of a linted file (``FileResult``); ``selected(code)``: the code is
    enabled for the file; ``known_codes``: the codes of every rule."""
    report = result.noqa
    if report is None or result.source is None:
        return
    used: dict[int, set[str]] = {}
    for finding, directives in report.suppressed:
        if not selected(finding.code):
            continue
        for directive in directives:
            if directive.codes is not None:
                used.setdefault(id(directive), set()).update(c for c in directive.codes if finding.code.startswith(c))
    codes = [code for code in known_codes if code != CODE]
    lines = result.source.splitlines()
    file_level = [d for d in report.directives if d.file_level]
    for directive in report.directives:
        if directive.codes is None or not 0 < directive.line <= len(lines):
            continue
        reasons: dict[str, list[str]] = {"unused": [], "non-enabled": [], "unknown": []}
        for code in directive.codes:
            if not code.startswith("VLM") or (code != "VLM" and CODE.startswith(code)):
                continue  # another tool's code, or this rule's own
            if code in used.get(id(directive), ()):
                continue
            matching = [c for c in codes if c.startswith(code)]
            if not matching:
                reasons["unknown"].append(code)
            elif not any(selected(c) for c in matching):
                reasons["non-enabled"].append(code)
            else:
                reasons["unused"].append(code)
        if not any(reasons.values()):
            continue
        # Silenced like any other finding: by naming VLM901 in the directive, or for the file.
        if directive.covers(CODE) or any(d.covers(CODE) for d in file_level):
            continue
        line = lines[directive.line - 1]
        detail = "; ".join(f"{kind}: {', '.join(f'`{c}`' for c in found)}" for kind, found in reasons.items() if found)
        message = f"unused `noqa` directive ({detail}); remove it"
        unused = {code for found in reasons.values() for code in found}
        fix = Fix("safe", "Remove unused `noqa` directive", [_removal(line, directive.line, directive, unused)])
        if result.kind == "dockerfile" and not directive.file_level and _EXEC_FORM.match(line):
            # Docker read the instruction as a shell command because of the comment: without
            # it the instruction runs again as written, which changes what the image does.
            codes = ", ".join(directive.codes)
            message += (
                "; in a Dockerfile it turns the exec form into a shell command: "
                f"write `# vllm-lint: noqa: {codes}` on a line of its own"
            )
            fix = Fix("unsafe", "Remove the comment (the instruction is exec form again)", fix.edits)
        span = Span(directive.line, _byte_col(line, directive.start), directive.line, _byte_col(line, directive.end))
        finding = RULE.finding(message, span)
        finding.path = result.path
        finding.fix = fix
        yield finding


RULE = Rule(
    code=CODE,
    name="unused-noqa",
    summary="a noqa comment that silences no vllm-lint finding",
    versions=ALL_VERSIONS,
    scope="file",
    check=check,
    doc=__doc__,
    fix_safety="safe",
    opt_in=True,
)
