"""Apply the rules to facts from any front end.

A setting that differs between paths is a ``Choice``: the rules run on every
combination of the alternatives, and a finding is reported only when every
combination has it (a must-analysis: one clean path means silence).
"""

from __future__ import annotations

import itertools
import os
from dataclasses import replace
from typing import Iterable

from vllm_lint.facts import ABSENT, UNKNOWN, Choice, EngineFacts, Known, RequestFacts
from vllm_lint.findings import Finding
from vllm_lint.rules import ALL_RULES
from vllm_lint.versions import Version

MAX_ALTERNATIVES = 64  # combinations checked per engine or request; past that, the widest choices are unknown


# Rules whose findings are about the release's arguments: with no pin, they say which release stood in.
ARGUMENT_CODES = frozenset({"VLM301", "VLM303", "VLM304"})


def check_facts(
    engines: Iterable[EngineFacts], requests: Iterable[RequestFacts], version: Version
) -> list[Finding]:
    """Every violated precondition, not only the first one vLLM would raise.

    ``version`` may admit several releases (``Version.admitted``): a finding holds only
    when every release the facts can run on has it, and then names them.  Facts with
    ``releases`` (a version guard's arm) run only on the admitted releases the guard lets through."""
    candidates = version.candidates()
    findings: list[Finding] = []
    seen: set[tuple] = set()

    def add(found: Iterable[Finding]) -> None:
        for finding in found:
            key = (finding.code, finding.span.line, finding.span.col, finding.message)
            if key not in seen:
                seen.add(key)
                findings.append(finding)

    for engine in engines:
        releases = reachable(candidates, engine.releases)
        if not releases:
            continue  # an arm no admitted release runs
        alternatives = engine_alternatives(engine)
        per_release = []
        for release in releases:
            found: list[Finding] = []
            for rule in ALL_RULES:
                if rule.scope != "engine" or not rule.applies_to(release) or rule.code in engine.suppressed:
                    continue
                on_path = _on_every_path([list(rule.check(alt, release)) for alt in alternatives], engine.anchor)
                if on_path and engine.assumed:
                    _say_assumptions(on_path, engine.assumed, _engine_without, rule, engine, release)
                found += on_path
            per_release.append(found)
        add(_in_every_release(per_release, releases))
    for request in requests:
        releases = reachable(candidates, request.engine.releases)
        if not releases:
            continue
        alternatives = request_alternatives(request)
        per_release = []
        for release in releases:
            found = []
            for rule in ALL_RULES:
                if rule.scope == "request" and rule.applies_to(release):
                    on_path = _on_every_path([list(rule.check(alt, release)) for alt in alternatives], request.anchor)
                    if on_path and request.engine.assumed:
                        _say_assumptions(on_path, request.engine.assumed, _request_without, rule, request, release)
                    if request.set_in is not None:
                        for finding in on_path:
                            finding.message += f" (the SamplingParams is built in {request.set_in[0]}, line {request.set_in[1]})"
                    found += on_path
            per_release.append(found)
        add(_in_every_release(per_release, releases))
    if version.assumed:
        note = f" (checked against vLLM {version.major}.{version.minor}, the newest known: no pin found; set target-version)"
        newest = f" in vLLM {version.major}.{version.minor}"
        for finding in findings:
            if finding.in_no_release:
                # No known release has it: which one runs does not matter.
                finding.message = finding.message.replace(newest, " in any known vLLM release", 1)
            elif finding.code in ARGUMENT_CODES and not finding.message.endswith(note):
                finding.message += note
    findings.sort(key=lambda f: (f.span.line, f.span.col, f.code))
    return findings


def describe_release(findings: Iterable[Finding], version: Version, origin: str, here: str = "", say: bool = True) -> None:
    """Record on each finding the release it was checked against and where that release is
    written (``origin``: ``requirements.txt:3``; "" when the newest stood in), and say so at the
    end of the message of a finding the release decides, once: ``(vLLM 0.10 from
    requirements.txt:3)``, ``(vLLM 0.9 from line 3)`` in the file ``here`` itself.  A finding
    that holds on every release says nothing more, nor one on a release the user chose
    (``say`` False: ``--target-version``)."""
    from vllm_lint.config import display_path
    from vllm_lint.rules import RULES_BY_CODE
    from vllm_lint.versions import ALL_VERSIONS

    releases = version.releases_text
    said = origin
    if here:
        own = display_path(here) + ":"
        said = ", ".join(f"line {place[len(own):]}" if place.startswith(own) else place for place in origin.split(", "))
    for finding in findings:
        if finding.target_version:
            continue  # a front end named its own (an image's tag, a pip install before it)
        finding.target_version = releases
        finding.target_version_from = origin
        rule = RULES_BY_CODE.get(finding.code)
        depends = finding.code in ARGUMENT_CODES or (rule is not None and rule.versions != ALL_VERSIONS)
        if say and origin and depends and not finding.in_no_release:
            finding.message += f" (vLLM {releases} from {said})"


def reachable(candidates: tuple[Version, ...], guarded) -> list[Version]:
    """The candidate releases a guard (a set of (major, minor), None for none) lets through."""
    if guarded is None:
        return list(candidates)
    return [release for release in candidates if (release.major, release.minor) in guarded]


def _in_every_release(per_release: list[list[Finding]], releases: list[Version]) -> list[Finding]:
    """The findings every release has (the newest release's, merged), naming the releases."""
    if len(per_release) == 1:
        return per_release[0]

    def key(finding: Finding) -> tuple:
        return (finding.code, finding.span.line, finding.span.col, finding.argument)

    newest = per_release[-1]
    result = []
    for finding in newest:
        twins = [next((f for f in found if key(f) == key(finding)), None) for found in per_release[:-1]]
        if any(twin is None for twin in twins):
            continue  # a release where this holds
        same = twins + [finding]
        if any((t.origin, t.fix_action, t.rename) != (finding.origin, finding.fix_action, finding.rename) for t in same):
            finding = replace(finding, origin=None, fix_action=None, fix_safety=None, rename=None)
        message = _releases_message([t.message for t in same], releases)
        listed = _merged_list(same)
        if listed is not None:
            message = _releases_message([t.message.rsplit("; ", 1)[0] for t in same], releases) + "; " + listed
        if message != finding.message:
            finding = replace(finding, message=message)
        result.append(finding)
    return result


def _merged_list(findings: list[Finding]) -> str | None:
    """The end of a merged message that lists values (``Finding.listed``): the values every
    release accepts ("common"), or those any release has ("any"); None when not such a message."""
    first = findings[0]
    if not first.listed_text or any((f.listed_text, f.listed_merge) != (first.listed_text, first.listed_merge) for f in findings):
        return None
    newest = findings[-1].listed
    if first.listed_merge == "common":
        values = [value for value in newest if all(value in f.listed for f in findings)]
        if not values:
            return "no value is valid in all of them"
    else:
        values = list(dict.fromkeys(value for f in reversed(findings) for value in f.listed))
    return first.listed_text.format(", ".join(repr(v) if first.listed_merge == "common" else str(v) for v in values))


def _releases_message(messages: list[str], releases: list[Version]) -> str:
    """One message for several releases: each names its own ("in vLLM 0.10"); the merged one
    names them all ("in vLLM 0.8-0.12").  Detail that differs between releases is left out."""
    import re

    from vllm_lint.versions import releases_text

    marker = "\0"
    normalized = [
        re.sub(rf"vLLM {release.major}\.{release.minor}(?![\d]|\.\d)", marker, message)
        for message, release in zip(messages, releases)
    ]
    named = "vLLM " + releases_text([(release.major, release.minor) for release in releases])
    if all(text == normalized[0] for text in normalized):
        return normalized[0].replace(marker, named)
    prefix = os.path.commonprefix(normalized)
    cut = max(prefix.rfind(" ("), prefix.rfind("; "))
    head = prefix[:cut] if cut > 0 else prefix.rstrip()
    if marker not in head:
        head += f" (in {named})"
    return head.replace(marker, named)


# Settings that turn a feature on: a channel read as empty is not taken to turn off what the
# file plainly turns on, so the notes name the settings a finding asks for instead.
_SWITCHES = frozenset({"return_sampling_mask", "enable_trace_replay"})


class _Reads(dict):
    """A facts' ``fields`` that records which settings a rule looks up."""

    def __init__(self, fields: dict, reads: set) -> None:
        super().__init__(fields)
        self.reads = reads

    def __contains__(self, name: object) -> bool:
        self.reads.add(name)
        return super().__contains__(name)

    def get(self, name, default=None):
        self.reads.add(name)
        return super().get(name, default)


def _say_assumptions(found: list[Finding], assumed: tuple, without, rule, facts, release: Version) -> None:
    """Each finding that a channel read as empty could undo names it and the settings it would
    have to pass (``without(rule, facts, name, release)``: the codes still found with that
    setting unknown; with ``name`` None, the settings the rule reads)."""
    read = without(rule, facts, None, release)
    for finding in found:
        notes = []
        for assumption in assumed:
            names = [
                name
                for name in read
                if name not in assumption.decided_after and name not in _SWITCHES and finding.code not in without(rule, facts, name, release)
            ]
            if names:
                notes.append(assumption.unless(names))
        if notes:
            finding.message += f" ({'; '.join(notes)})"


def _engine_without(rule, engine: EngineFacts, name: str | None, version: Version):
    """``name`` None: the settings ``rule`` reads of ``engine``; else the codes it reports with ``name`` unknown."""
    if name is None:
        reads: set = set()
        for alternative in engine_alternatives(engine):
            list(rule.check(replace(alternative, fields=_Reads(alternative.fields, reads)), version))
        return sorted(reads, key=str)
    changed = replace(engine, fields={**engine.fields, name: UNKNOWN}, assumed=())
    found = _on_every_path([list(rule.check(alt, version)) for alt in engine_alternatives(changed)], engine.anchor)
    return {finding.code for finding in found}


def _request_without(rule, request: RequestFacts, name: str | None, version: Version):
    """As ``_engine_without``, for a request rule: its own settings and its engine's."""
    if name is None:
        reads: set = set()
        for alternative in request_alternatives(request):
            engine = replace(alternative.engine, fields=_Reads(alternative.engine.fields, reads))
            list(rule.check(replace(alternative, fields=_Reads(alternative.fields, reads), engine=engine), version))
        return sorted(reads, key=str)
    engine = request.engine
    changed = replace(request, fields={**request.fields, name: UNKNOWN}, engine=replace(engine, fields={**engine.fields, name: UNKNOWN}, assumed=()))
    found = _on_every_path([list(rule.check(alt, version)) for alt in request_alternatives(changed)], request.anchor)
    return {finding.code for finding in found}


def _on_every_path(per_alternative: list[list[Finding]], anchor) -> list[Finding]:
    """The findings of the first alternative whose code every alternative has, merged."""
    if len(per_alternative) == 1:
        return per_alternative[0]
    result = []
    for finding in per_alternative[0]:
        twins = [next((f for f in found if f.code == finding.code), None) for found in per_alternative[1:]]
        if any(twin is None for twin in twins):
            continue  # a path where this rule holds
        if any(twin.span != finding.span for twin in twins):
            finding = replace(finding, span=anchor)
        if any(twin.origin != finding.origin or twin.fix_action != finding.fix_action for twin in twins):
            # The offending values are written in several places: report, but offer no single edit.
            finding = replace(finding, origin=None, fix_action=None, fix_safety=None)
        if any(twin.message != finding.message for twin in twins):
            finding = replace(finding, message=_shared_message([finding.message] + [t.message for t in twins]))
        result.append(finding)
    return result


def _shared_message(messages: list[str]) -> str:
    """What the alternatives' messages say alike: the part before the detail that differs."""
    prefix = os.path.commonprefix(messages)
    cut = max(prefix.rfind(" ("), prefix.rfind("; "))
    head = prefix[:cut] if cut > 0 else messages[0]
    return f"{head} (on every path the code can take)"


def _choices(fields: dict) -> list[tuple[str, tuple]]:
    return [(name, fact.options) for name, fact in fields.items() if isinstance(fact, Choice)]


def _bounded(fields: dict, choices: list[tuple[str, tuple]], budget: int) -> tuple[dict, list[tuple[str, tuple]]]:
    """Turn the widest choices into UNKNOWN until the combinations fit in ``budget``."""
    choices = sorted(choices, key=lambda item: len(item[1]))
    while choices and _count(choices) > budget:
        name, _ = choices.pop()
        fields = {**fields, name: UNKNOWN}
    return fields, choices


def _count(choices: list[tuple[str, tuple]]) -> int:
    total = 1
    for _, options in choices:
        total *= len(options)
    return total


def _pick(fields: dict, written: dict, choices: list[tuple[str, tuple]], combination: tuple) -> tuple[dict, dict]:
    fields, written = dict(fields), dict(written)
    for (name, _), option in zip(choices, combination):
        if option is ABSENT:
            fields.pop(name, None)
            written.pop(name, None)
        else:
            fields[name] = option
            if isinstance(option, Known) and option.origin is not None:
                written[name] = option.origin
            else:
                written.pop(name, None)
    return fields, written


def engine_alternatives(engine: EngineFacts, budget: int = MAX_ALTERNATIVES) -> list[EngineFacts]:
    choices = _choices(engine.fields)
    if not choices:
        return [engine]
    fields, choices = _bounded(engine.fields, choices, budget)
    if not choices:
        return [replace(engine, fields=fields)]
    result = []
    for combination in itertools.product(*(options for _, options in choices)):
        picked, written = _pick(fields, engine.written, choices, combination)
        result.append(replace(engine, fields=picked, written=written))
    return result


def request_alternatives(request: RequestFacts) -> list[RequestFacts]:
    engines = engine_alternatives(request.engine, MAX_ALTERNATIVES // 8)
    choices = _choices(request.fields)
    fields, choices = _bounded(request.fields, choices, max(1, MAX_ALTERNATIVES // len(engines)))
    result = []
    for engine in engines:
        for combination in itertools.product(*(options for _, options in choices)):
            picked, written = _pick(fields, request.written, choices, combination)
            result.append(replace(request, engine=engine, fields=picked, written=written))
    return result
