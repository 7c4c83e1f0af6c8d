"""vLLM release versions the rules know, and version ranges for rules.

A rule's behaviour is keyed by the *minor* release (0.33.0 and 0.33.1 share one
profile).  A target newer than the newest known release uses the newest profile;
one older than the first known release uses the oldest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Minor releases whose sources the rules were read from, oldest first.
KNOWN_RELEASES: tuple[tuple[int, int], ...] = (
    (0, 27),
    (0, 28),
    (0, 29),
    (0, 30),
    (0, 31),
    (0, 32),
    (0, 33),
    (0, 34),
)
NEWEST = KNOWN_RELEASES[-1]
OLDEST = KNOWN_RELEASES[0]

_VERSION_RE = re.compile(r"^\s*v?(\d+)\.(\d+)(?:\.(\d+))?(\S*)\s*$")


class VersionError(ValueError):
    """A target version string that is not a vLLM version."""


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int
    patch: int = 0
    # The minor releases the project's pins admit (oldest first) when they admit several
    # (``vllm>=0.10,<0.12``); the version itself is then the newest of them.  A finding that
    # depends on the release holds only when every admitted release has it.
    admitted: tuple[tuple[int, int], ...] = field(default=(), compare=False, repr=False)
    # Nothing pins the release: the newest known one stands in, and findings say so.
    assumed: bool = field(default=False, compare=False, repr=False)

    @classmethod
    def admitting(cls, releases, assumed: bool = False) -> Version:
        """The version that stands for a set of minor releases (its newest)."""
        ordered = tuple(sorted(set(releases)))
        if not ordered:
            raise VersionError("no release admitted")
        return cls(*ordered[-1], admitted=ordered if len(ordered) > 1 else (), assumed=assumed)

    def candidates(self) -> tuple[Version, ...]:
        """The releases a file may run on: each admitted release, or the version alone."""
        if not self.admitted:
            return (Version(self.major, self.minor, self.patch),)
        return tuple(Version(major, minor) for major, minor in self.admitted)

    @property
    def releases_text(self) -> str:
        """``0.31``, or the admitted releases: ``0.8-0.12``, ``0.8, 0.10``."""
        if not self.admitted:
            return f"{self.major}.{self.minor}"
        return releases_text(self.admitted)

    @classmethod
    def parse(cls, text: str) -> Version:
        match = _VERSION_RE.match(text)
        if not match:
            raise VersionError(f"not a vLLM version: {text!r} (expected e.g. 0.33 or 0.33.1)")
        major, minor, patch, _suffix = match.groups()
        return cls(int(major), int(minor), int(patch or 0))

    @property
    def release(self) -> tuple[int, int]:
        """The known release profile this version uses."""
        key = (self.major, self.minor)
        if key > NEWEST:
            return NEWEST
        if key < OLDEST:
            return OLDEST
        return key

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


NEWEST_VERSION = Version(*NEWEST)


def target_version(text: str) -> tuple[Version, str]:
    """A ``target-version`` the user sets, and a note on how it is read: a release the rules
    know; a newer one than the newest known is read with the newest rules (which the note says);
    anything else, an older release the rules do not know or a typo (``0.3`` for ``0.30``), is a
    ``VersionError`` naming the known releases."""
    from vllm_lint.launch.schemadata import releases as schema_releases

    version = Version.parse(text)
    known = schema_releases()
    release = (version.major, version.minor)
    if release in known:
        return version, ""
    if release > known[-1]:
        newest = Version(*known[-1])
        return newest, f"{text.strip()} is newer than the newest release the rules know: {newest.major}.{newest.minor}'s rules apply"
    raise VersionError(f"{text.strip()!r} is not a vLLM release the rules know (known: {releases_text(known, known)}, or newer)")


def releases_text(releases, known=None) -> str:
    """Minor releases as runs of consecutive ones: ``0.8-0.12``, ``0.8, 0.10``, ``0.5, 0.8-0.9``.

    ``known``: the release list consecutiveness is judged by (the argument schema's by default)."""
    if known is None:
        from vllm_lint.launch.schemadata import releases as schema_releases

        known = schema_releases()
    index = {release: position for position, release in enumerate(known)}
    runs: list[list[tuple[int, int]]] = []
    for release in sorted(set(releases)):
        previous = runs[-1][-1] if runs else None
        if previous is not None and previous in index and release in index and index[release] == index[previous] + 1:
            runs[-1].append(release)
        else:
            runs.append([release])
    return ", ".join("%d.%d" % run[0] if len(run) == 1 else "%d.%d-%d.%d" % (run[0] + run[-1]) for run in runs)


@dataclass(frozen=True)
class VersionRange:
    """Inclusive range of minor releases; ``last=None`` means still true in the newest."""

    first: tuple[int, int] | None = None
    last: tuple[int, int] | None = None

    def __contains__(self, version: Version) -> bool:
        release = version.release
        if self.first is not None and release < self.first:
            return False
        if self.last is not None and release > self.last:
            return False
        return True

    def __str__(self) -> str:
        first = "" if self.first is None else "%d.%d" % self.first
        if self.last is None:
            return f"{first}+" if first else "all"
        last = "%d.%d" % self.last
        return f"{first}–{last}" if first else f"up to {last}"


def since(major_minor: str, until: str | None = None) -> VersionRange:
    """``since("0.30", "0.33")`` is 0.30 through 0.33 inclusive."""

    def key(text: str) -> tuple[int, int]:
        version = Version.parse(text)
        return (version.major, version.minor)

    return VersionRange(key(major_minor), key(until) if until else None)


def before(major_minor: str) -> VersionRange:
    """Releases strictly older than ``major_minor``."""
    version = Version.parse(major_minor)
    index = KNOWN_RELEASES.index((version.major, version.minor))
    return VersionRange(None, KNOWN_RELEASES[index - 1])


ALL_VERSIONS = VersionRange()
