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
must agree with argparse, 100 %.  ``--no-x``/``--disable-x`` forms come from
argparse actions the tokenizer cannot see, so they are checked one way only:
the schema may accept them, the cases above never include them.
"""

from __future__ import annotations

import argparse
import io
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
        print(f"vllm {version}: {agreed}/{len(generated)} cases agree ({len(options)} options)")
        for case, expected in disagreements[:20]:
            print(f"    {case}: argparse {'accepts' if expected else 'rejects'}, schema {'rejects' if expected else 'accepts'}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
