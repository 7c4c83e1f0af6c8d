"""Findings: what a rule reports, where, and what a fixer may change."""

from __future__ import annotations

from dataclasses import dataclass, field

from vllm_lint.facts import Origin, Span


@dataclass
class Edit:
    """Replace ``content`` between two 1-based (row, column) positions, as in ruff's JSON."""

    start: tuple[int, int]
    end: tuple[int, int]
    content: str


@dataclass
class Fix:
    applicability: str  # "safe" or "unsafe"
    message: str
    edits: list[Edit] = field(default_factory=list)
    # Edits in other files (the value is written in another project file), by absolute path.
    elsewhere: dict[str, list[Edit]] = field(default_factory=dict)


@dataclass
class Finding:
    code: str
    name: str
    message: str  # without the code; front ends prefix it
    span: Span
    # The value a fixer would change, and what it would do: a rule-specific action
    # name ("set-processed-logprobs", "remove", ...) that the fixers interpret.
    origin: Origin | None = None
    fix_action: str | None = None
    fix_safety: str | None = None
    fix: Fix | None = None
    # Command-line front ends: the edits ``--fix-mode disable-replay`` makes instead
    # (removing --return-sampling-mask).
    disable_replay_fix: Fix | None = None
    path: str = ""
    vllm_error: str | None = None  # the error vLLM would raise, verbatim
    # The engine argument a finding is about (``max_model_len``), for ``extra-arguments``.
    argument: str | None = None
    # VLM301: the successor vLLM documents for the argument (``launch.schema.Rename``), when fixed.
    rename: object = None
    # An RL framework launch in a Python argv list: (safety, message, ``fix.argv.ElementEdit``s)
    # that fix it, applied by the Python fixer when the list reaches that launch only.
    argv_fix: tuple | None = None
    # VLM301: no known release has the argument, so the finding does not depend on which one runs.
    in_no_release: bool = False
    # VLM4xx: the engine arguments the check read that are written (``name`` or ``name.key``).
    settings: tuple = ()
    # VLM4xx: every engine argument the check read, written or not (``vllm-lint explain``).
    reads: tuple = ()
    # The release(s) the finding was checked against (``0.10``, ``0.8, 0.10``) and where that
    # release is written (``requirements.txt:3``, ``chart/values.yaml:23``, ``--target-version``);
    # "" when nothing names it and the newest release stood in.
    target_version: str = ""
    target_version_from: str = ""
    # A message whose end lists values (VLM303's valid choices, the options an abbreviation could
    # mean): the values, how findings of several releases merge them ("common": those of every
    # release, "any": of some), and the end of the message with ``{}`` for them.
    listed: tuple = ()
    listed_merge: str = ""
    listed_text: str = ""
    # A notebook's finding: the cell it is in (``span`` counts lines within the cell).
    cell: int | None = None

    @property
    def text(self) -> str:
        return f"{self.code} {self.message}"

    def sort_key(self) -> tuple:
        return (self.path, self.span.line, self.span.col, self.code)


@dataclass
class FileError:
    """A file that could not be read or parsed: one diagnostic, the run goes on."""

    path: str
    reason: str
    line: int = 1
    col: int = 0

    @property
    def text(self) -> str:
        return f"cannot parse: {self.reason}"
