"""What git ignores, read as git reads it (gitignore(5)), for the files ``check`` walks.

Patterns come from, lowest precedence first: the file ``core.excludesFile``
names (by default ``$XDG_CONFIG_HOME/git/ignore``), the repository's
``info/exclude``, and every ``.gitignore`` from the repository's top folder down
to the file's folder; the last pattern that matches a path decides (a ``!``
pattern re-includes).  A pattern with a ``/`` before its end is anchored to the
folder of the file it is written in, one without matches at any depth below
it; a trailing ``/`` matches folders only; ``*``, ``?`` and ``[...]`` never
match ``/``; ``**`` as a whole component matches any number of folders.  A path
inside an ignored folder is never walked, so it cannot be re-included, as in
git.  Outside a git repository nothing is ignored.  No git command is run.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

GITIGNORE = ".gitignore"


@dataclass(frozen=True)
class Pattern:
    base: str  # the folder of the file it is written in, relative to the repository ('' for its top)
    match: object  # a compiled regex's ``fullmatch``, for the path below ``base``
    negated: bool
    directories_only: bool
    regex: str = ""


def parse(text: str, base: str = "") -> list[Pattern]:
    """The patterns of one ignore file whose folder is ``base`` (relative to the repository)."""
    patterns = []
    for line in text.splitlines():
        pattern = _pattern(line, base)
        if pattern is not None:
            patterns.append(pattern)
    return patterns


def _pattern(line: str, base: str) -> Pattern | None:
    line = line.rstrip("\r")
    if not line or line.startswith("#"):
        return None
    # Trailing blanks are dropped unless escaped with a backslash.
    stripped = line.rstrip(" ")
    if stripped.endswith("\\") and len(stripped) < len(line) and not stripped.endswith("\\\\"):
        stripped += " "
    line = stripped
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    elif line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    directories_only = line.endswith("/") and not line.endswith("\\/")
    line = line.rstrip("/") if directories_only else line
    if not line:
        return None
    anchored = "/" in line
    line = line.lstrip("/") if line.startswith("/") else line
    regex = _translate(line)
    if not anchored:
        regex = f"(?:.*/)?{regex}"
    try:
        compiled = re.compile(regex, re.DOTALL)
    except re.error:
        return None  # git skips a pattern it cannot read
    return Pattern(base, compiled.fullmatch, negated, directories_only, regex)


def _translate(pattern: str) -> str:
    """A wildmatch pattern (git's, with ``**``) as a regular expression over ``/``-separated paths."""
    parts = pattern.split("/")
    out: list[str] = []
    last = len(parts) - 1
    for index, part in enumerate(parts):
        if part == "**":
            if index == last:
                out.append(".*" if index == 0 else "/.*")  # everything inside
            else:
                out.append("(?:.*/)?" if index == 0 else "/(?:.*/)?")  # any number of folders
            continue
        if index > 0 and parts[index - 1] != "**":
            out.append("/")
        out.append(_component(part))
    return "".join(out)


def _component(text: str) -> str:
    regex = []
    index = 0
    while index < len(text):
        char = text[index]
        index += 1
        if char == "\\" and index < len(text):
            regex.append(re.escape(text[index]))
            index += 1
        elif char == "*":
            while index < len(text) and text[index] == "*":
                index += 1  # other consecutive asterisks are one
            regex.append("[^/]*")
        elif char == "?":
            regex.append("[^/]")
        elif char == "[":
            end, bracket = _bracket(text, index)
            if bracket is None:
                regex.append(re.escape(char))
            else:
                regex.append(bracket)
                index = end
        else:
            regex.append(re.escape(char))
    return "".join(regex)


def _bracket(text: str, start: int) -> tuple[int, str | None]:
    """A ``[...]`` class starting after ``[``: (index after ``]``, regex), or None when unclosed.
    ``[!...]`` and ``[^...]`` negate; ``a-z`` is a range; ``[:alpha:]`` a POSIX class; a class
    never matches ``/``."""
    index = start
    negate = index < len(text) and text[index] in "!^"
    if negate:
        index += 1
    members: list[str] = []
    first = True
    while index < len(text):
        if text[index] == "]" and not first:
            body = "".join(members)
            return index + 1, f"[^/{body}]" if negate else f"(?!/)[{body}]"
        first = False
        if text.startswith("[:", index):
            close = text.find(":]", index + 2)
            if close != -1 and text[index + 2 : close] in _POSIX_CLASSES:
                members.append(_POSIX_CLASSES[text[index + 2 : close]])
                index = close + 2
                continue
        low, index = _class_char(text, index)
        if index + 1 < len(text) and text[index] == "-" and text[index + 1] != "]":
            high, index = _class_char(text, index + 1)
            if high >= low:
                members.append(f"{re.escape(low)}-{re.escape(high)}")
            continue
        members.append(re.escape(low))
    return start, None


def _class_char(text: str, index: int) -> tuple[str, int]:
    """One character of a class (``\\x`` is ``x``), and the index after it."""
    if text[index] == "\\" and index + 1 < len(text):
        return text[index + 1], index + 2
    return text[index], index + 1


_POSIX_CLASSES = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "blank": " \\t",
    "digit": "0-9",
    "lower": "a-z",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "space": " \\t\\n\\r\\f\\v",
    "upper": "A-Z",
    "xdigit": "0-9a-fA-F",
}


class Ignore:
    """The patterns in force in one folder of a repository (those of its ``.gitignore`` files
    above it included); ``entered`` adds a subfolder's own ``.gitignore``."""

    def __init__(self, top: str, patterns: tuple[Pattern, ...]) -> None:
        self.top = top  # the repository's top folder
        self.patterns = patterns
        # Without a ``!`` pattern the order does not matter: one regex per folder and kind of pattern.
        self._combined: list[tuple[str, bool, object]] | None = None
        if not any(pattern.negated for pattern in patterns):
            groups: dict[tuple[str, bool], list[str]] = {}
            for pattern in patterns:
                groups.setdefault((pattern.base, pattern.directories_only), []).append(pattern.regex)
            self._combined = [
                (base, directories_only, re.compile("|".join(f"(?:{r})" for r in regexes), re.DOTALL).fullmatch)
                for (base, directories_only), regexes in groups.items()
            ]

    def ignored(self, relative: str, is_dir: bool) -> bool:
        """``relative``: the path from the repository's top folder, ``/``-separated."""
        if self._combined is not None:
            for base, directories_only, match in self._combined:
                if directories_only and not is_dir:
                    continue
                if base:
                    if not relative.startswith(base + "/"):
                        continue
                    if match(relative[len(base) + 1 :]):
                        return True
                elif match(relative):
                    return True
            return False
        for pattern in reversed(self.patterns):
            if pattern.directories_only and not is_dir:
                continue
            if pattern.base:
                if not relative.startswith(pattern.base + "/"):
                    continue
                below = relative[len(pattern.base) + 1 :]
            else:
                below = relative
            if pattern.match(below):
                return not pattern.negated
        return False

    def entered(self, folder: str, relative: str) -> Ignore:
        """The patterns in force in ``folder`` (``relative`` to the top), with its ``.gitignore``."""
        text = _read(os.path.join(folder, GITIGNORE))
        if not text:
            return self
        return Ignore(self.top, self.patterns + tuple(parse(text, relative)))


def _read(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read(1 << 20)
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace")


def repository_top(folder: str) -> str | None:
    """The top folder of the git repository (or worktree) ``folder`` is in, or None."""
    current = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _git_dir(top: str) -> str | None:
    """The repository's git folder: ``.git``, or where a worktree's or submodule's ``.git`` file points."""
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    text = _read(dot_git).strip()
    if not text.startswith("gitdir:"):
        return None
    git_dir = text[len("gitdir:") :].strip()
    git_dir = os.path.normpath(os.path.join(top, git_dir))
    common = _read(os.path.join(git_dir, "commondir")).strip()  # a worktree shares info/ with its repository
    return os.path.normpath(os.path.join(git_dir, common)) if common else git_dir


_EXCLUDES_FILE = re.compile(r"^\s*excludesfile\s*=\s*(.*?)\s*$", re.IGNORECASE)
_SECTION = re.compile(r"^\s*\[\s*([^\]\s]+)[^\]]*\]")


def _configured_excludes_file(configs: list[str]) -> str | None:
    """``core.excludesFile`` as the last of the configuration files sets it (a plain value only)."""
    found = None
    for path in configs:
        section = ""
        for line in _read(path).splitlines():
            header = _SECTION.match(line)
            if header:
                section = header.group(1).lower()
                continue
            value = _EXCLUDES_FILE.match(line)
            if section == "core" and value:
                text = value.group(1).split(" #", 1)[0].split(" ;", 1)[0].strip().strip('"')
                found = os.path.expanduser(text) if text else None
    return found


def _global_configs() -> list[str]:
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    configs = [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    if os.environ.get("GIT_CONFIG_GLOBAL"):
        configs = [os.environ["GIT_CONFIG_GLOBAL"]]
    return configs


def _excludes_file(git_dir: str | None) -> str:
    configs = _global_configs() + ([os.path.join(git_dir, "config")] if git_dir else [])
    configured = _configured_excludes_file(configs)
    if configured:
        return configured
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(xdg, "git", "ignore")


def for_folder(folder: str) -> tuple[Ignore, str] | None:
    """The patterns in force in ``folder`` and its path from the repository's top, or None
    outside a repository."""
    top = repository_top(folder)
    if top is None:
        return None
    git_dir = _git_dir(top)
    patterns: list[Pattern] = parse(_read(_excludes_file(git_dir)))
    if git_dir is not None:
        patterns += parse(_read(os.path.join(git_dir, "info", "exclude")))
    ignore = Ignore(top, tuple(patterns))
    relative = os.path.relpath(os.path.abspath(folder), top).replace(os.sep, "/")
    relative = "" if relative == "." else relative
    ignore = ignore.entered(top, "")
    walked = ""
    for part in [p for p in relative.split("/") if p]:
        walked = f"{walked}/{part}" if walked else part
        if ignore.ignored(walked, True):
            continue  # git reads no .gitignore inside an ignored folder; the folder was named, so it is walked
        ignore = ignore.entered(os.path.join(top, walked), walked)
    return ignore, relative


def ignored_path(path: str) -> bool:
    """Whether git ignores this file or folder (a path named on the command line, with ``--force-exclude``)."""
    absolute = os.path.abspath(path)
    found = for_folder(os.path.dirname(absolute))
    if found is None:
        return False
    ignore, folder = found
    name = os.path.basename(absolute)
    relative = f"{folder}/{name}" if folder else name
    parts = relative.split("/")
    for index in range(1, len(parts)):
        if ignore.ignored("/".join(parts[:index]), True):
            return True
    return ignore.ignored(relative, os.path.isdir(absolute))
