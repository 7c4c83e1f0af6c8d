"""Differential test of the argument schema (``launch/vllm_schema.json``) against vLLM's parser.

    python tests/oracle/schema_oracle.py                 # every release the schema lists
    python tests/oracle/schema_oracle.py 0.33.0 0.34.0   # some of them
    tox -e vllm-oracle -- --schema

The oracle does not reuse the generator's ``ast`` reader.  For each release it
reads the wheel's parser code with ``tokenize`` (a second, independent reader):
the option strings of every ``add_argument(...)`` call in
``vllm/engine/arg_utils.py``, the API server's ``cli_args.py`` modules and
``vllm/entrypoints/cli/serve.py``, and the fields of the ``FrontendArgs``
dataclasses (one option per field, as ``FrontendArgs.add_cli_args`` registers
them).  It registers those option strings in a real ``argparse.ArgumentParser``
(abbreviations allowed, as vLLM's ``FlexibleArgumentParser`` does) and asks
argparse whether each generated case parses:

* every option string the release defines (valid flags);
* every option string another release defines and this one does not;
* near misses: each long option without its last character (an abbreviation,
  unique or ambiguous), with a letter added, with two letters swapped.

Each case is judged by the linter's schema (``ReleaseSchema.has_option``) and
must agree with argparse, 100 %.

Renames: for every rename VLM301 names in a release (``schema.documented_rename``),
argparse must reject the old flag and accept what the fix writes (the successor,
with the documented value); and each rename's deprecation message must be in the
source of the releases the schema says document it.

Choices: where an option is registered as ``add_argument("--x", **kw["field"])``
with ``kw = get_kwargs(Config)`` and nothing changes ``kw["field"]`` afterwards,
the oracle reads the field's annotation in ``class Config`` from the source
text; when it is only ``Literal[...]`` (directly or through an alias of string
literals) and ``None``, argparse gets ``choices=`` those values.  Every valid
value and two invalid ones are parsed by argparse and judged by the schema's
``cli`` choices (VLM303's reading).  Options registered with an explicit
``choices=`` list (the 0.8/0.9 parsers) are not read by this route.  ``--no-x``/``--disable-x`` forms come from
argparse actions the tokenizer cannot see, so they are checked one way only:
the schema may accept them, the cases above never include them.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tokenize
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

from vllm_schema import committed_versions, find_wheel  # noqa: E402

from vllm_lint.launch import schema  # noqa: E402
from vllm_lint.versions import Version  # noqa: E402

PARSER_FILES = (
    "vllm/engine/arg_utils.py",
    "vllm/entrypoints/openai/cli_args.py",
    "vllm/entrypoints/launchers/cli_args.py",
    "vllm/entrypoints/common/cli_args.py",
    "vllm/entrypoints/cli/serve.py",
)
FRONTEND_CLASSES = ("FrontendArgs", "BaseFrontendArgs")


def _tokens(text: str) -> list[tokenize.TokenInfo]:
    return [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type not in (tokenize.NL, tokenize.COMMENT)]


def add_argument_options(text: str) -> list[list[str]]:
    """The leading string arguments starting with "-" of each ``add_argument(`` call."""
    tokens = _tokens(text)
    calls: list[list[str]] = []
    for index, token in enumerate(tokens[:-1]):
        if token.string != "add_argument" or tokens[index + 1].string != "(":
            continue
        names: list[str] = []
        position = index + 2
        while position < len(tokens) and tokens[position].type == tokenize.STRING:
            value = tokens[position].string.strip("\"'")
            if value.startswith("-"):
                names.append(value)
            position += 1
            if tokens[position].string == ",":
                position += 1
        if names:
            calls.append(names)
    return calls


def frontend_fields(text: str) -> list[str]:
    """``name: type`` lines directly in the body of the FrontendArgs classes."""
    found: list[str] = []
    inside = False
    in_string = False
    for line in text.splitlines():
        if line.count('"""') % 2:
            in_string = not in_string
            continue
        if in_string:
            continue
        if line.startswith("class "):
            inside = any(line.startswith(f"class {name}") and line[6 + len(name)] in "(:" for name in FRONTEND_CLASSES)
            continue
        if inside and line.startswith("    ") and not line.startswith("     ") and ":" in line:
            name, _, rest = line.strip().partition(":")
            if name.isidentifier() and not rest.startswith(" ClassVar") and "(" not in name:
                found.append(name)
        elif inside and line and not line.startswith((" ", "#", ")")):
            inside = False
    return found


class _Parser(argparse.ArgumentParser):
    """argparse's own decisions, raised instead of printed (an ambiguous abbreviation, ...)."""

    def error(self, message):
        raise argparse.ArgumentError(None, message)


def release_parser(wheel: Path) -> tuple[argparse.ArgumentParser, set[str]]:
    parser = _Parser(add_help=True, allow_abbrev=True, exit_on_error=False)
    options: set[str] = set()
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        groups: list[list[str]] = []
        for path in PARSER_FILES:
            if path in names:
                text = archive.read(path).decode("utf-8")
                groups += add_argument_options(text)
                groups += [["--" + field.replace("_", "-")] for field in frontend_fields(text)]
    for group in groups:
        fresh = [name for name in group if name not in options and name not in ("-h", "--help")]
        if fresh:
            parser.add_argument(*fresh, nargs="?", dest="x" + str(len(options)))
            options.update(fresh)
    options.update({"-h", "--help"})
    return parser, options


def accepts(parser: argparse.ArgumentParser, option: str) -> bool:
    try:
        _, rest = parser.parse_known_args([option, "1"])
    except (argparse.ArgumentError, SystemExit):
        return False
    return not rest


def cases(options: set[str], others: set[str]) -> set[str]:
    found = set(options) | (others - options)
    for option in options:
        if option.startswith("--") and len(option) > 4:
            found.add(option[:-1])
            found.add(option + "x")
            found.add(option[:3] + option[4] + option[3] + option[5:])
    # --help (and its abbreviations) prints the help and exits: not a case.
    return {case for case in found if not case.startswith(("--no-", "--disable-")) and not "--help".startswith(case) and case != "-h"}


_GET_KWARGS = re.compile(r"^\s*(\w+) = get_kwargs\((\w+)\)", re.M)
_SPLAT_ONLY = re.compile(r'add_argument\(\s*"(--[\w-]+)"(?:,\s*"-[\w-]+")*,\s*\*\*(\w+)\["(\w+)"\],?\s*\)')
_QUOTED = re.compile(r"""["']([^"']*)["']""")


def _class_field(sources: dict[str, str], cls: str, field: str) -> tuple[str, str] | None:
    """(file, annotation text) of ``field`` in ``class cls``, from the source lines."""
    for path, text in sources.items():
        lines = text.splitlines()
        starts = [i for i, line in enumerate(lines) if re.match(rf"class {cls}\b", line)]
        if not starts:
            continue
        for line in lines[starts[0] + 1 :]:
            if re.match(r"(class |def |@|\w+ = )", line):
                break  # the class body ended
            match = re.match(rf"    {field}: (.+?)(?: = .*)?$", line)
            if match:
                return path, match.group(1).strip()
        return None
    return None


def _literal_values(sources: dict[str, str], path: str, annotation: str, depth: int = 0) -> list[str] | None:
    """Values of an annotation made only of ``Literal[...]`` (or an alias of one) and ``None``."""
    members = [member.strip() for member in annotation.split("|")]
    values: list[str] = []
    for member in members:
        if member == "None":
            continue
        if member.startswith("Literal[") and member.endswith("]"):
            values += _QUOTED.findall(member)
            continue
        if not member.isidentifier() or depth > 3:
            return None
        alias = None
        for text in [sources[path]] + [t for p, t in sources.items() if p != path]:
            alias = re.search(rf"^{member} = (Literal\[.*?\])\n(?!\s)", text, re.M | re.S)
            if alias:
                break
        if alias is None:
            return None
        body = alias.group(1)
        if re.search(r"[A-Za-z_]\w*", _QUOTED.sub("", body[len("Literal[") :])):
            return None  # a Literal of aliases or names: not read here
        values += _QUOTED.findall(body)
    return values or None


def release_choices(wheel: Path) -> dict[str, list[str]]:
    """Option -> choices, where an option spreads exactly one config field typed only ``Literal[...]``."""
    with zipfile.ZipFile(wheel) as archive:
        sources = {
            name: archive.read(name).decode("utf-8")
            for name in archive.namelist()
            if name.startswith(("vllm/config/", "vllm/engine/arg_utils.py")) and name.endswith(".py")
        }
    text = sources["vllm/engine/arg_utils.py"]
    classes = dict(_GET_KWARGS.findall(text))
    found: dict[str, list[str]] = {}
    for option, variable, field in _SPLAT_ONLY.findall(text):
        if variable not in classes or f'{variable}["{field}"][' in text:
            continue  # its kwargs are changed after get_kwargs
        located = _class_field(sources, classes[variable], field)
        if located is None:
            continue
        values = _literal_values(sources, *located)
        if values:
            found[option] = values
    return found


def choice_cases(wheel: Path, release) -> tuple[int, list[str]]:
    """Each value of each option's choices, and two values outside them: argparse and the schema agree?"""
    checked, disagreements = 0, []
    for option, values in release_choices(wheel).items():
        parser = _Parser(add_help=False, exit_on_error=False)
        parser.add_argument(option, choices=values)
        dest = release.dest(option)
        accepted = release.choices.get(dest, {}).get("cli")
        for value in values + [values[0] + "x", "not-a-" + option[2:]]:
            try:
                parser.parse_args([option, value])
                expected = True
            except argparse.ArgumentError:
                expected = False
            judged = accepted is None or value in accepted
            checked += 1
            if judged != expected:
                disagreements.append(f"{option} {value}: argparse {'accepts' if expected else 'rejects'}")
    return checked, disagreements


def rename_cases(version: str, argparser: argparse.ArgumentParser, release) -> tuple[int, list[str]]:
    """Every documented rename VLM301 would name for this release: argparse rejects the old
    flag, and accepts the successor (with the documented value) that the fix writes."""
    checked, wrong = 0, []
    for old, record in schema._data().get("renames", {}).items():
        found = schema.documented_rename(old, release)
        if found is None or release.has_option(record["flag"]):
            continue
        checked += 1
        rewritten = [found.new_flag, found.value] if found.value is not None else [found.new_flag]
        if accepts(argparser, record["flag"]):
            wrong.append(f"{record['flag']}: argparse accepts it, yet the schema offers a rename")
        elif " or " not in found.new_flag:
            try:
                _, rest = argparser.parse_known_args(rewritten)
            except (argparse.ArgumentError, SystemExit):
                rest = rewritten
            if rest:
                wrong.append(f"{record['flag']} -> {' '.join(rewritten)}: argparse rejects the successor")
    return checked, wrong


def documented_messages(versions) -> tuple[int, list[str]]:
    """Each rename's message is in the source of the releases the schema says document it."""
    checked, wrong = 0, []
    releases = {".".join(v.split(".")[:2]): v for v in versions}
    for old, record in schema._data().get("renames", {}).items():
        for release in record["documented"]:
            if release not in releases:
                continue
            checked += 1
            with zipfile.ZipFile(find_wheel(releases[release])) as archive:
                text = "".join(
                    " ".join(archive.read(name).decode("utf-8", "replace").split())
                    for name in archive.namelist()
                    if name.startswith(("vllm/engine/", "vllm/config", "vllm/entrypoints/")) and name.endswith(".py")
                )
            words = [word for word in re.split(r"\W+", record["message"]) if len(word) > 3]
            if not all(word in text for word in words):
                wrong.append(f"{old}: the message is not in vllm {releases[release]}'s source")
    return checked, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("versions", nargs="*")
    args = parser.parse_args(argv)
    versions = args.versions or committed_versions()
    per_release = {}
    for version in versions:
        per_release[version] = release_parser(find_wheel(version))
    every = set().union(*(options for _, options in per_release.values()))
    failures = 0
    for version, (argparser, options) in per_release.items():
        release = schema.schema_for(Version.parse(version.split(".post")[0]))
        assert release.exact, version
        disagreements = []
        generated = cases(options, every)
        for case in sorted(generated):
            expected = accepts(argparser, case)
            if expected != release.has_option(case):
                disagreements.append((case, expected))
        failures += len(disagreements)
        agreed = len(generated) - len(disagreements)
        print(f"vllm {version}: {agreed}/{len(generated)} option cases agree ({len(options)} options)")
        for case, expected in disagreements[:20]:
            print(f"    {case}: argparse {'accepts' if expected else 'rejects'}, schema {'rejects' if expected else 'accepts'}")
        checked, wrong = choice_cases(find_wheel(version), release)
        failures += len(wrong)
        print(f"vllm {version}: {checked - len(wrong)}/{checked} choice cases agree")
        for line in wrong[:20]:
            print(f"    {line}")
        checked, wrong = rename_cases(version, argparser, release)
        failures += len(wrong)
        print(f"vllm {version}: {checked - len(wrong)}/{checked} documented renames agree")
        for line in wrong[:20]:
            print(f"    {line}")
    checked, wrong = documented_messages(versions)
    failures += len(wrong)
    print(f"documented renames: {checked - len(wrong)}/{checked} messages found in the releases that document them")
    for line in wrong[:20]:
        print(f"    {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
