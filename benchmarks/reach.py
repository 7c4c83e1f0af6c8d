"""Reach: how many of the engines real repositories build or launch vllm-lint can judge.

    python benchmarks/reach.py layout --mirrors DIR --corpus CORPUS   # lay the corpus out from git snapshots
    python benchmarks/reach.py sites --corpus CORPUS [REPO ...]        # list the engine sites found
    python benchmarks/reach.py run --corpus CORPUS [--split holdout] [--write-docs]

The corpus (``reach-data/corpus.toml``) lists public repositories that use vLLM, each at
the commit measured.  ``layout`` writes each one's tree under ``CORPUS/owner+name`` from a
bare git directory (``DIR/owner+name/repo``), leaving out blobs the snapshot lacks.  Nothing
of the corpus is committed.

For every **engine site** (a vLLM engine built or launched: ``LLM(...)``, ``EngineArgs(...)``,
``AsyncEngineArgs(...)``, ``*EngineArgs.from_cli_args(...)``, ``from_engine_args(x)`` of an
args object built nowhere in the file, argv lists and command strings that run ``vllm serve``
or vLLM's OpenAI server, the same in shell scripts, Dockerfiles and YAML manifests, containers
of vLLM's image, RL framework launches and configs, and ``--config`` files named by a launch),
``run`` switches sampling distribution replay on there the way a user would (a
``return_sampling_mask=True`` keyword, a ``--return-sampling-mask`` flag, the framework's own
key), lints the repository with and without the change (``--target-version 0.34``, the newest
release, so that replay exists) and sorts the site:

* **reported**: the change brings a replay finding (VLM1xx, VLM2xx) anywhere in the repository;
* **clean**: no finding, and ``explain`` shows every replay setting the engine gets known;
* **silent**: no finding, some replay setting unknown; ``explain``'s reason is recorded.

A silent site is labelled in ``reach-data/labels/*.toml``: *runtime* (the setting really comes
from outside: the command line, the environment, a file read at run time, a caller outside
the project) or *resolvable* (plain code the tool should read: a defect).  A reported site
labelled *runtime* is a false positive.  A place the finder takes for a site that runs no
engine (a test's expected command line, text no program runs) is labelled *not-a-site* and
left out of the counts.  ``run`` prints the table by kind and by split and,
with ``--write-docs``, puts it in ``docs/reach.md``.

Sites are found by this script's own reading of the files (imports of vLLM, argv words, YAML
structure), never by vllm-lint's.  Each repository contributes at most ``--cap`` sites of each
kind (chosen by a stable hash), so that one framework's hundreds of launch scripts do not
outweigh everything else.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import yaml

HERE = Path(__file__).resolve().parent
DATA = HERE / "reach-data"
DOCS = HERE.parent / "docs" / "reach.md"
TARGET = "0.34"
REPLAY_CODES = ("VLM1", "VLM2")
# The replay settings that decide VLM101-VLM107 besides the model (which is runtime data in
# nearly every real engine and decides only VLM103).
REPLAY_SETTINGS = (
    "return_sampling_mask",
    "logprobs_mode",
    "speculative_config",
    "logits_processors",
    "enable_batch_sharded_sampling",
    "env VLLM_USE_V2_MODEL_RUNNER",
)
SKIPPED_DIRS = {".git", "node_modules", "site-packages", "__pycache__", ".venv", "venv", "third_party_vllm"}
MAX_FILE_BYTES = 1_000_000
FLAG = "--return-sampling-mask"
KEYWORD = "return_sampling_mask=True"


# --------------------------------------------------------------------------- corpus


@dataclass(frozen=True)
class Repo:
    name: str  # owner/name
    commit: str
    category: str
    split: str

    @property
    def folder(self) -> str:
        return self.name.replace("/", "+")


def load_corpus() -> list[Repo]:
    with open(DATA / "corpus.toml", "rb") as handle:
        data = tomllib.load(handle)
    return [Repo(r["name"], r["commit"], r["category"], r["split"]) for r in data["repo"]]


def layout(mirrors: Path, corpus: Path, repos: list[Repo]) -> None:
    """Each repository's tree at its commit, from a bare git directory, without missing blobs."""
    corpus.mkdir(parents=True, exist_ok=True)
    for repo in repos:
        target = corpus / repo.folder
        git_dir = mirrors / repo.folder / "repo"
        if target.exists():
            continue
        if not git_dir.exists():
            print(f"{repo.name}: no snapshot at {git_dir}", file=sys.stderr)
            continue
        listing = subprocess.run(
            ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", repo.commit],
            capture_output=True, check=True,
        ).stdout.split(b"\0")
        entries = []
        for item in listing:
            if not item:
                continue
            meta, path = item.split(b"\t", 1)
            mode, kind, sha = meta.split()
            if kind == b"blob":
                entries.append((mode.decode(), sha.decode(), path.decode("utf-8", "surrogateescape")))
        written = missing = 0
        with subprocess.Popen(
            ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        ) as batch:
            for mode, sha, path in entries:
                batch.stdin.write(sha.encode() + b"\n")
                batch.stdin.flush()
                header = batch.stdout.readline().split()
                if len(header) < 3 or header[1] == b"missing":
                    missing += 1
                    continue
                data = batch.stdout.read(int(header[2]))
                batch.stdout.read(1)
                if mode == "160000":
                    continue
                destination = target / path
                destination.parent.mkdir(parents=True, exist_ok=True)
                if mode == "120000":
                    continue  # links are left out: they may point outside the tree
                destination.write_bytes(data)
                if mode == "100755":
                    destination.chmod(0o755)
                written += 1
            batch.stdin.close()
        print(f"{repo.name}: {written} files ({missing} blobs not in the snapshot)")


# --------------------------------------------------------------------------- sites


@dataclass
class Site:
    repo: str
    path: str  # relative to the repository
    line: int
    kind: str  # python-call, python-from-cli-args, python-argv, shell, dockerfile, yaml-container, ...
    what: str  # the call or command, for people
    edit: tuple  # (offset, text): insert text at this byte offset of the file
    explain_line: int = 0

    @property
    def key(self) -> str:
        return f"{self.repo}:{self.path}:{self.line}"


def _stable_rank(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def _walk_files(root: Path):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not _is_vllm_package(Path(folder) / d))
        for name in sorted(files):
            path = Path(folder) / name
            try:
                if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
                    continue
            except OSError:
                continue
            yield path


def _is_vllm_package(folder: Path) -> bool:
    """A copy of vLLM itself (vendored or patched): the classes are defined there, not used."""
    return folder.name == "vllm" and (
        (folder / "engine" / "arg_utils.py").exists() or (folder / "entrypoints" / "llm.py").exists()
    )


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    for index, char in enumerate(text):
        if char == "\n":
            offsets.append(index + 1)
    return offsets


# ---- Python

ENGINE_CLASSES = {"LLM", "EngineArgs", "AsyncEngineArgs"}


def _vllm_names(tree: ast.AST) -> tuple[dict[str, str], set[str]]:
    """Names bound to vLLM's engine classes, and names bound to vLLM modules (whole file)."""
    classes: dict[str, str] = {}
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "vllm" or node.module.startswith("vllm."):
                for alias in node.names:
                    if alias.name in ENGINE_CLASSES:
                        classes[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "vllm" or alias.name.startswith("vllm."):
                    modules.add(alias.asname or alias.name.split(".")[0])
    return classes, modules


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _engine_class(func: ast.AST, classes: dict[str, str], modules: set[str]) -> str | None:
    if isinstance(func, ast.Name):
        return classes.get(func.id)
    dotted = _dotted(func)
    if dotted and "." in dotted:
        root, last = dotted.split(".", 1)[0], dotted.rsplit(".", 1)[1]
        if root in modules and last in ENGINE_CLASSES:
            return last
    return None


LAUNCH_WORDS = re.compile(r"\bvllm\s+serve\b|vllm\.entrypoints\.openai\.api_server\b")
# Words that may stand before the launch in a command: assignments, wrappers, interpreters.
_WRAPPER = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*=\S*|exec|nohup|sudo|-E|time|env|numactl|taskset|setsid|stdbuf|srun|"
    r"uv|run|--with|\S*python[0-9.]*|-m|-u|-O|\S*/bin/\S*|\S*/\.venv/\S*|poetry|pipx|conda|--no-capture-output|"
    r"-n|--name|\S*vllm-env\S*|&&|\|\||;|then|do|else|\(|\{|`|\$\("
)


def in_command_position(text: str, start: int, match: str) -> bool:
    """The launch words start a command: what stands before them on their line (or since the
    last separator) is only assignments and wrappers, and vLLM's server module follows ``-m``."""
    line_start = max(text.rfind("\n", 0, start), text.rfind(";", 0, start), text.rfind("&&", 0, start),
                     text.rfind("|", 0, start), text.rfind("(", 0, start), text.rfind("`", 0, start)) + 1
    words = text[line_start:start].replace("\\\n", " ").split()
    words = [w.strip("\"'") for w in words if not re.fullmatch(r"[rRbBfFuU]{0,2}[\"']{1,3}", w)]
    if match.startswith("vllm.entrypoints"):
        if not words or words[-1] != "-m":
            return False
    return all(_WRAPPER.fullmatch(w) for w in words if w)


def _argv_is_launch(words: list[str | None]) -> bool:
    for index, word in enumerate(words):
        if word is None:
            continue
        if word == "vllm" or word.endswith("/vllm"):
            if index + 1 < len(words) and words[index + 1] == "serve":
                return True
        if word == "vllm.entrypoints.openai.api_server":
            return True
    return False


def python_sites(repo: str, root: Path, path: Path) -> list[Site]:
    data = path.read_bytes()
    if b"vllm" not in data:
        return []
    try:
        text = data.decode("utf-8")
        tree = ast.parse(text)
    except (UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
        return []
    raw = text.encode("utf-8")
    lines = _line_offsets_bytes(raw)

    def offset(line: int, col: int) -> int:  # ast columns are UTF-8 byte offsets
        return lines[line - 1] + col

    if _defines_vllm_classes(tree):
        return []  # a copy or patch of vLLM's own engine code, not a use of it
    classes, modules = _vllm_names(tree)
    relative = str(path.relative_to(root))
    sites: list[Site] = []
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    constructed_args = False
    from_engine_args_calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            engine = _engine_class(node.func, classes, modules)
            if engine is not None:
                if engine != "LLM":
                    constructed_args = True
                if any(k.arg == "return_sampling_mask" for k in node.keywords):
                    continue
                sites.append(Site(repo, relative, node.lineno, "python-call", engine, _call_insertion(node, offset)))
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr == "from_cli_args":
                owner = _engine_class(node.func.value, classes, modules)
                if owner in {"EngineArgs", "AsyncEngineArgs"}:
                    constructed_args = True
                    edit = _from_cli_args_insertion(node, parents, offset, raw)
                    if edit is not None:
                        sites.append(Site(repo, relative, node.lineno, "python-from-cli-args", f"{owner}.from_cli_args", edit))
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr == "from_engine_args" and node.args:
                from_engine_args_calls.append(node)
        elif isinstance(node, (ast.List, ast.Tuple)):
            words = [e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None for e in node.elts]
            if _argv_is_launch(words) and node.elts:
                last = node.elts[-1]
                position = offset(last.end_lineno, last.end_col_offset)
                sites.append(Site(repo, relative, node.lineno, "python-argv", "argv list", (position, f', "{FLAG}"')))
        elif isinstance(node, (ast.Constant, ast.JoinedStr)):
            if isinstance(parents.get(node), (ast.JoinedStr, ast.Expr)):
                continue  # part of an f-string, or a docstring: documentation, not a launch
            site = _python_string_site(repo, relative, node, raw, offset)
            if site is not None:
                sites.append(site)
    if not constructed_args:
        # An args object this file does not build: the user sets the flag on it before the engine starts.
        for node in from_engine_args_calls:
            argument = node.args[0]
            target = _dotted(argument)
            statement = _statement_of(node, parents)
            if target is None or statement is None:
                continue
            indent = raw[offset(statement.lineno, 0): offset(statement.lineno, statement.col_offset)].decode()
            position = offset(statement.lineno, 0)
            sites.append(Site(
                repo, relative, node.lineno, "python-from-engine-args", "from_engine_args",
                (position, f"{indent}{target}.return_sampling_mask = True\n"),
            ))
    return sites


VLLM_OWN_CLASSES = {"LLM", "EngineArgs", "AsyncEngineArgs", "LLMEngine", "AsyncLLMEngine"}


def _defines_vllm_classes(tree: ast.Module) -> bool:
    """A module of vLLM's own engine code (a vendored or patched copy): it defines one of vLLM's
    engine classes and builds them from its own relative imports."""
    defines = any(isinstance(n, ast.ClassDef) and n.name in VLLM_OWN_CLASSES for n in tree.body)
    relative = any(isinstance(n, ast.ImportFrom) and n.level > 0 for n in tree.body)
    return defines and relative


def _line_offsets_bytes(raw: bytes) -> list[int]:
    offsets = [0]
    position = raw.find(b"\n")
    while position != -1:
        offsets.append(position + 1)
        position = raw.find(b"\n", position + 1)
    return offsets


def _call_insertion(call: ast.Call, offset) -> tuple[int, str]:
    arguments = [*call.args, *call.keywords]
    if not arguments:
        return (offset(call.end_lineno, call.end_col_offset) - 1, KEYWORD)
    last = max(arguments, key=lambda a: (a.end_lineno, a.end_col_offset))
    return (offset(last.end_lineno, last.end_col_offset), f", {KEYWORD}")


def _statement_of(node: ast.AST, parents: dict) -> ast.stmt | None:
    while node is not None and not isinstance(node, ast.stmt):
        node = parents.get(node)
    return node


def _from_cli_args_insertion(call: ast.Call, parents, offset, raw: bytes):
    """``x = EngineArgs.from_cli_args(ns)``: ``x.return_sampling_mask = True`` after it; else the
    namespace gets the attribute before the statement."""
    statement = _statement_of(call, parents)
    if statement is None:
        return None
    indent = raw[offset(statement.lineno, 0): offset(statement.lineno, statement.col_offset)].decode()
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is call:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        name = _dotted(targets[0])
        if name is not None:
            end = offset(statement.end_lineno, statement.end_col_offset)
            line_end = raw.find(b"\n", end)
            line_end = len(raw) if line_end == -1 else line_end + 1
            return (line_end, f"{indent}{name}.return_sampling_mask = True\n")
    if call.args and _dotted(call.args[0]) is not None:
        return (offset(statement.lineno, 0), f"{indent}{_dotted(call.args[0])}.return_sampling_mask = True\n")
    return None


def _python_string_site(repo, relative, node, raw: bytes, offset) -> Site | None:
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, str) or not LAUNCH_WORDS.search(node.value):
            return None
    else:
        pieces = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
        if not LAUNCH_WORDS.search(pieces):
            return None
    start = offset(node.lineno, node.col_offset)
    end = offset(node.end_lineno, node.end_col_offset)
    region = raw[start:end].decode("utf-8", "replace")
    match = LAUNCH_WORDS.search(region)
    if match is None:
        return None  # the words are split between implicit concatenations
    if not in_command_position(region, match.start(), match.group()):
        return None
    closing = _closing_quote(region)
    position = shell_command_end(region, match.start(), len(region) - len(closing), folded=False)
    if position is None:
        return None
    byte_position = start + len(region[:position].encode("utf-8"))
    return Site(repo, relative, node.lineno, "python-command-string", "command string", (byte_position, f" {FLAG}"))


def _closing_quote(region: str) -> str:
    for quote in ('"""', "'''", '"', "'"):
        if region.endswith(quote):
            return quote
    return ""


# ---- shell text


def shell_command_end(text: str, start: int, limit: int, folded: bool) -> int | None:
    """Where a command that starts at ``start`` ends (before trailing blanks): an unquoted
    newline not escaped, ``;``, ``&``, ``|``, a redirection, an unbalanced ``)`` or a comment.
    ``folded``: newlines join lines (a YAML folded scalar); a blank line ends the command."""
    index = start
    quote = None
    depth = 0
    end = None
    while index < limit:
        char = text[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 2
                continue
            if char == quote:
                quote = None
            index += 1
            continue
        if char in "'\"":
            quote = char
        elif char == "\\":
            if index + 1 < limit and text[index + 1] == "\n":
                index += 2
                continue
            index += 2
            continue
        elif char == "$" and index + 1 < limit and text[index + 1] == "(":
            depth += 1
            index += 2
            continue
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                end = index
                break
            depth -= 1
        elif char == "\n":
            if not folded:
                end = index
                break
            following = text[index + 1: limit]
            if not following.strip() or following.lstrip(" \t").startswith("\n"):
                end = index
                break
        elif depth == 0 and char in ";&|<>":
            end = index
            if char in "<>":  # 2>&1: the descriptor's digits belong to the redirection
                while end > start and text[end - 1].isdigit():
                    end -= 1
            break
        elif depth == 0 and char == "#" and index > 0 and text[index - 1] in " \t":
            end = index
            break
        index += 1
    if end is None:
        end = limit
    if quote is not None:
        return None
    while end > start and text[end - 1] in " \t\\\n":
        end -= 1
    return end


def shell_sites(repo: str, root: Path, path: Path, kind: str) -> list[Site]:
    data = path.read_bytes()
    if b"vllm" not in data:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    relative = str(path.relative_to(root))
    bodies = _heredoc_bodies(text) if kind == "shell" else []
    sites = []
    seen_ends = set()
    if kind == "shell":
        sites.extend(framework_launch_sites(repo, root, relative, text, bodies))
    for match in LAUNCH_WORDS.finditer(text):
        if any(start <= match.start() < end for start, end in bodies):
            continue  # text fed to another program (a file written, a Python snippet, a message)
        line_start = text.rfind("\n", 0, match.start()) + 1
        prefix = text[line_start: match.start()]
        if prefix.lstrip().startswith("#") or "echo" in prefix.split() or "<<" in prefix:
            continue
        if not _dockerfile_instruction(prefix) and not in_command_position(text, match.start(), match.group()):
            continue
        if kind == "dockerfile" and prefix.lstrip().startswith("[") is False and '"' in prefix and "[" in prefix:
            continue
        end = shell_command_end(text, match.start(), len(text), folded=False)
        if end is None or end in seen_ends:
            continue
        seen_ends.add(end)
        line = text.count("\n", 0, match.start()) + 1
        sites.append(Site(repo, relative, line, kind, text[match.start(): match.end()], (end, f" {FLAG}")))
    if kind == "dockerfile":
        sites = [s for s in sites if not _inside_exec_form(text, s)] + dockerfile_exec_sites(repo, relative, text)
    return sites


HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")


def _heredoc_bodies(text: str) -> list[tuple[int, int]]:
    bodies = []
    for match in HEREDOC.finditer(text):
        body_start = text.find("\n", match.end())
        if body_start == -1:
            continue
        body_start += 1
        strip_tabs, delimiter = match.group(1) == "-", match.group(3)
        position = body_start
        while position < len(text):
            line_end = text.find("\n", position)
            line_end = len(text) if line_end == -1 else line_end
            line = text[position:line_end]
            if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                break
            position = line_end + 1
        bodies.append((body_start, position))
    return bodies


EXEC_FORM = re.compile(r"^(?P<indent>[ \t]*)(?:CMD|ENTRYPOINT)[ \t]+(?P<array>\[.*\])[ \t]*$", re.M | re.I)
VLLM_IMAGE = re.compile(r"(^|[/:])vllm-openai(?=[:@\s\"']|$)|^vllm/vllm-openai|(^|/)vllm/vllm-openai")


def _dockerfile_instruction(prefix: str) -> bool:
    return bool(re.fullmatch(r"[ \t]*(RUN|CMD|ENTRYPOINT)[ \t]+", prefix, re.I))


def _inside_exec_form(text: str, site: Site) -> bool:
    line_start = text.rfind("\n", 0, site.edit[0]) + 1
    return bool(re.match(r"[ \t]*(CMD|ENTRYPOINT)[ \t]+\[", text[line_start:], re.I))


def dockerfile_exec_sites(repo: str, relative: str, text: str) -> list[Site]:
    """``CMD``/``ENTRYPOINT`` exec forms that run vLLM, or give the arguments of a vLLM image's
    ``vllm serve`` entry point (``FROM vllm/vllm-openai`` and only flags)."""
    sites = []
    from_vllm = any(VLLM_IMAGE.search(m.group(1)) for m in re.finditer(r"^[ \t]*FROM[ \t]+(\S+)", text, re.M | re.I))
    for match in EXEC_FORM.finditer(text):
        try:
            words = json.loads(match.group("array"))
        except ValueError:
            continue
        if not all(isinstance(w, str) for w in words):
            continue
        launch = _argv_is_launch(words)
        if not launch and not (from_vllm and words and words[0].startswith("--")):
            continue
        closing = match.start("array") + match.group("array").rfind("]")
        insert = f', "{FLAG}"' if words else f'"{FLAG}"'
        line = text.count("\n", 0, match.start()) + 1
        sites.append(Site(repo, relative, line, "dockerfile", " ".join(words[:3]), (closing, insert)))
    return sites


# ---- RL frameworks: their launches take the engine argument through the framework's own key

# (entry point, the override a user adds, the word that says the rollout is another backend)
FRAMEWORK_LAUNCHES = (
    (re.compile(r"-m[ \t]+(verl\.trainer\.main_ppo|verl\.trainer\.main_generation|recipe\.\w+\.main_\w+)\b"),
     "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True", "verl"),
    (re.compile(r"-m[ \t]+(skyrl\.train\.entrypoints\.main_base|skyrl_train\.entrypoints\.main_base)\b"),
     "generator.inference_engine.engine_init_kwargs.return_sampling_mask=true", "skyrl"),
    (re.compile(r"examples/(nemo_gym/)?run_(grpo|distillation|ppo)\w*\.py\b"),
     "++policy.generation.vllm_kwargs.return_sampling_mask=true", "nemo-rl"),
)
# The entry point is inside a variable's value, not a command that runs it.
ASSIGNED_WORD = re.compile(r"^\s*(?:(?:export|local|readonly|declare)\s+)?[A-Za-z_]\w*=\S*$")
OTHER_BACKEND = re.compile(r"\b(rollout\.name|inference_engine\.backend|generation\.backend)=['\"]?(sglang|hf|megatron|trtllm)\b")


def framework_launch_sites(repo, root: Path, relative: str, text: str, bodies) -> list[Site]:
    sites = []
    for pattern, override, framework in FRAMEWORK_LAUNCHES:
        if framework == "verl" and not _verl_passes_engine_kwargs(root, relative):
            continue
        for match in pattern.finditer(text):
            if any(start <= match.start() < end for start, end in bodies):
                continue
            line_start = text.rfind("\n", 0, match.start()) + 1
            if text[line_start: match.start()].lstrip().startswith("#"):
                continue
            if ASSIGNED_WORD.match(text[line_start: match.start()]):
                continue  # ENTRYPOINT="${ENTRYPOINT:-examples/run_grpo.py}": a value, run elsewhere
            end = shell_command_end(text, match.start(), len(text), folded=False)
            if end is None or OTHER_BACKEND.search(text[match.start(): end]):
                continue
            line = text.count("\n", 0, match.start()) + 1
            sites.append(Site(repo, relative, line, "framework-launch", framework, (end, f" {override}")))
    return sites


def _verl_passes_engine_kwargs(root: Path, relative: str) -> bool:
    """A project that carries its own copy of verl (the nearest ``verl/trainer/config`` above the
    file): only a copy whose rollout config has ``engine_kwargs`` hands engine arguments to vLLM
    (older copies build ``LLM(...)`` from fixed keys, and the user edits that call instead)."""
    folder = (root / relative).parent
    while True:
        config = folder / "verl" / "trainer" / "config"
        if config.is_dir():
            return _has_engine_kwargs(config)
        if folder == root or root not in folder.parents:
            return True
        folder = folder.parent


_ENGINE_KWARGS_CACHE: dict[Path, bool] = {}


def _has_engine_kwargs(config: Path) -> bool:
    if config not in _ENGINE_KWARGS_CACHE:
        found = False
        for path in config.rglob("*.yaml"):
            try:
                if b"engine_kwargs" in path.read_bytes():
                    found = True
                    break
            except OSError:
                continue
        _ENGINE_KWARGS_CACHE[config] = found
    return _ENGINE_KWARGS_CACHE[config]


# The framework's key under which engine arguments pass through, and how a config is recognised.
def framework_config_site(repo, root, relative, text, document) -> Site | None:
    top = _mapping_items(document)
    if top is None:
        return None
    rollout = _path(document, ["actor_rollout_ref", "rollout"])
    if rollout is not None:
        name = _mapping_items(rollout).get("name")
        if isinstance(name, yaml.ScalarNode) and name.value not in ("vllm", ""):
            return None
        if not _verl_passes_engine_kwargs(root, relative):
            return None
        return _yaml_set(repo, relative, text, rollout, ["engine_kwargs", "vllm", "return_sampling_mask"], "verl")
    generation = _path(document, ["policy", "generation"])
    if generation is not None:
        backend = _mapping_items(generation).get("backend")
        if isinstance(backend, yaml.ScalarNode) and backend.value != "vllm":
            return None
        return _yaml_set(repo, relative, text, generation, ["vllm_kwargs", "return_sampling_mask"], "nemo-rl")
    engine = _path(document, ["generator", "inference_engine"])
    if engine is not None:
        backend = _mapping_items(engine).get("backend")
        if isinstance(backend, yaml.ScalarNode) and backend.value != "vllm":
            return None
        return _yaml_set(repo, relative, text, engine, ["engine_init_kwargs", "return_sampling_mask"], "skyrl")
    for mapping in _mappings(document):
        items = _mapping_items(mapping)
        strategy = items.get("strategy_args")
        if strategy is None or _mapping_items(strategy) is None:
            continue
        strategy_items = _mapping_items(strategy)
        name = strategy_items.get("strategy_name")
        if isinstance(name, yaml.ScalarNode) and name.value == "vllm" and "strategy_config" in strategy_items:
            return _yaml_set(repo, relative, text, strategy, ["strategy_config", "return_sampling_mask"], "roll")
    return None


def _mapping_items(node) -> dict | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    return {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}


def _path(node, keys):
    for key in keys:
        items = _mapping_items(node)
        if items is None or key not in items:
            return None
        node = items[key]
    return node if isinstance(node, yaml.MappingNode) else None


def _yaml_set(repo, relative, text, mapping, keys, framework) -> Site | None:
    """``keys`` below ``mapping`` set to true: a new line before the first key of the deepest
    block mapping on the path, the missing mappings written out."""
    node = mapping
    rest = list(keys)
    while len(rest) > 1:
        items = _mapping_items(node)
        child = items.get(rest[0]) if items else None
        if child is None:
            break
        if not isinstance(child, yaml.MappingNode) or child.flow_style or not child.value:
            return None
        node = child
        rest.pop(0)
    if node.flow_style or not node.value:
        return None
    if rest[-1] in (_mapping_items(node) or {}) and len(rest) == 1:
        return None
    first_key = node.value[0][0]
    column = first_key.start_mark.column
    line_start = first_key.start_mark.index - column
    if text[line_start: first_key.start_mark.index].strip():
        return None  # the first key shares its line (a sequence item's mapping): no clean place
    lines = []
    for depth, key in enumerate(rest):
        value = " true" if depth == len(rest) - 1 else ""
        lines.append(" " * (column + 2 * depth) + f"{key}:{value}\n")
    return Site(repo, relative, first_key.start_mark.line + 1, "framework-config", framework, (line_start, "".join(lines)))


# ---- YAML

CONTAINER_KEYS = ("command", "args")


def _is_vllm_image(value: str) -> bool:
    value = value.strip().strip("\"'")
    return bool(re.search(r"(^|/)vllm-openai(:|@|$)|(^|/)vllm/vllm-(openai|tpu|cpu|rocm)", value)) or value.startswith("vllm/vllm")


def yaml_sites(repo: str, root: Path, path: Path) -> list[Site]:
    data = path.read_bytes()
    if b"vllm" not in data:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    relative = str(path.relative_to(root))
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return _text_yaml_sites(repo, relative, text)
    except RecursionError:
        return []
    sites: list[Site] = []
    claimed: set[int] = set()
    for document in documents:
        if document is None:
            continue
        framework = framework_config_site(repo, root, relative, text, document)
        if framework is not None:
            sites.append(framework)
        for mapping in _mappings(document):
            _container_site(repo, relative, text, mapping, sites, claimed)
        for scalar in _command_scalars(document):
            if id(scalar) in claimed:
                continue
            site = _scalar_command_site(repo, relative, text, scalar)
            if site is not None:
                sites.append(site)
        for sequence in _sequences(document):
            if id(sequence) in claimed:
                continue
            words = [n.value if isinstance(n, yaml.ScalarNode) else None for n in sequence.value]
            if _argv_is_launch(words):
                site = _sequence_append(repo, relative, text, sequence, "yaml-argv")
                if site is not None:
                    sites.append(site)
    return sites


def _mappings(node):
    if isinstance(node, yaml.MappingNode):
        yield node
        for key, value in node.value:
            yield from _mappings(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _mappings(item)


def _scalars(node):
    if isinstance(node, yaml.ScalarNode):
        yield node
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _scalars(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _scalars(item)


# Keys whose string a program runs as a command (Kubernetes command/args, compose command, CI
# run/script steps, SkyPilot run, a container's entrypoint); prose keys (description, notes) are not.
COMMAND_KEY = re.compile(r"(?i)(command|commands|cmd|script|scripts|run|args|arguments|entrypoint|exec|setup|start|launch)$")


def _command_scalars(node, key: str = ""):
    """Scalars under a command key, directly or as items of its list."""
    if isinstance(node, yaml.ScalarNode):
        if COMMAND_KEY.search(key or ""):
            yield node
    elif isinstance(node, yaml.MappingNode):
        for k, value in node.value:
            yield from _command_scalars(value, k.value if isinstance(k, yaml.ScalarNode) and isinstance(k.value, str) else "")
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _command_scalars(item, key)


def _sequences(node):
    if isinstance(node, yaml.SequenceNode):
        yield node
        for item in node.value:
            yield from _sequences(item)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _sequences(value)


def _container_site(repo, relative, text, mapping, sites, claimed) -> None:
    """A container of vLLM's image whose arguments are given as a list (Kubernetes ``args``,
    compose ``command``): the flag is one more item."""
    items = {k.value: v for k, v in mapping.value if isinstance(k, yaml.ScalarNode)}
    image = items.get("image")
    if not isinstance(image, yaml.ScalarNode) or not _is_vllm_image(str(image.value)):
        return
    command = items.get("command")
    arguments = items.get("args")
    for node in (arguments, command):
        if node is None:
            continue
        if isinstance(node, yaml.SequenceNode):
            words = [n.value if isinstance(n, yaml.ScalarNode) else None for n in node.value]
            if any(w and LAUNCH_WORDS.search(w) for w in words):
                return  # a shell script in one item: the scalar rule finds it
            if node is command and arguments is not None:
                continue
            site = _sequence_append(repo, relative, text, node, "yaml-container")
            if site is not None:
                claimed.add(id(node))
                sites.append(site)
            return
        if isinstance(node, yaml.ScalarNode) and node is command and arguments is None:
            if LAUNCH_WORDS.search(node.value):
                return  # the scalar rule finds it
            end = node.end_mark.index
            if node.style in ("|", ">"):
                return
            if node.style in ('"', "'"):
                end -= 1
            claimed.add(id(node))
            sites.append(Site(repo, relative, node.start_mark.line + 1, "yaml-container", "image args", (end, f" {FLAG}")))
            return


def _sequence_append(repo, relative, text, sequence, kind) -> Site | None:
    if not sequence.value:
        return None
    last = sequence.value[-1]
    if sequence.flow_style:
        return Site(repo, relative, sequence.start_mark.line + 1, kind, "argv", (last.end_mark.index, f', "{FLAG}"'))
    # A block sequence: a new item after the last one, at its indentation and dash.
    first = sequence.value[0]
    dash_line_start = text.rfind("\n", 0, first.start_mark.index) + 1
    prefix = text[dash_line_start: first.start_mark.index]
    if "-" not in prefix:
        return None
    item_prefix = prefix[: prefix.index("-") + 1] + " "
    end = last.end_mark.index
    if isinstance(last, yaml.ScalarNode) and last.style in ("|", ">"):
        return None
    line_end = text.find("\n", end)
    if line_end == -1:
        return Site(repo, relative, sequence.start_mark.line + 1, kind, "argv", (len(text), f"\n{item_prefix}{FLAG}\n"))
    return Site(repo, relative, sequence.start_mark.line + 1, kind, "argv", (line_end + 1, f"{item_prefix}{FLAG}\n"))


def _scalar_command_site(repo, relative, text, scalar) -> Site | None:
    if not isinstance(scalar.value, str) or not LAUNCH_WORDS.search(scalar.value):
        return None
    start, end = scalar.start_mark.index, scalar.end_mark.index
    region = text[start:end]
    match = LAUNCH_WORDS.search(region)
    if match is None or not in_command_position(region, match.start(), match.group()):
        return None
    limit = len(region)
    if scalar.style in ('"', "'"):
        limit = region.rfind(scalar.style)
    position = shell_command_end(region, match.start(), limit, folded=scalar.style in (">", None, '"', "'"))
    if position is None:
        return None
    line = scalar.start_mark.line + 1 + region.count("\n", 0, match.start())
    return Site(repo, relative, line, "yaml-command", "command", (start + position, f" {FLAG}"))


def _text_yaml_sites(repo, relative, text) -> list[Site]:
    """Templates that are not YAML until rendered (Helm, Jinja): launch words in a line."""
    sites = []
    for match in LAUNCH_WORDS.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.start())
        line_end = len(text) if line_end == -1 else line_end
        prefix = text[line_start: match.start()]
        if prefix.lstrip().startswith("#") or "{{" in text[match.start(): line_end]:
            continue
        if not in_command_position(text, match.start(), match.group()) and not re.fullmatch(r"[ \t]*(-[ \t]*)?[A-Za-z_]*:?[ \t]*[\"']?", prefix):
            continue
        stripped = prefix.strip()
        quote = stripped[-1] if stripped.endswith(("\"", "'")) else ""
        limit = text.find(quote, match.end(), line_end) if quote else line_end
        if limit == -1:
            continue
        end = shell_command_end(text, match.start(), limit, folded=False)
        if end is None:
            continue
        line = text.count("\n", 0, match.start()) + 1
        sites.append(Site(repo, relative, line, "yaml-command", "command (template)", (end, f" {FLAG}")))
    return sites


def toml_sites(repo: str, root: Path, path: Path) -> list[Site]:
    """prime-rl: ``[inference]`` starts vLLM; ``enable_return_sampling_mask`` is its switch."""
    data = path.read_bytes()
    if b"[inference" not in data or path.name == "pyproject.toml":
        return []
    try:
        text = data.decode("utf-8")
        parsed = tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    inference = parsed.get("inference")
    if not isinstance(inference, dict) or "enable_return_sampling_mask" in inference:
        return []
    match = re.search(r"^\[inference\][ \t]*(#.*)?$", text, re.M)
    if match is None:
        return []
    line_end = text.find("\n", match.end())
    position = len(text) if line_end == -1 else line_end + 1
    insertion = "enable_return_sampling_mask = true\n" if line_end != -1 else "\nenable_return_sampling_mask = true\n"
    line = text.count("\n", 0, match.start()) + 1
    return [Site(repo, str(path.relative_to(root)), line, "framework-config", "prime-rl", (position, insertion))]


# ---- all kinds


def file_sites(repo: str, root: Path, path: Path) -> list[Site]:
    if path.name.endswith(".py"):
        try:
            return python_sites(repo, root, path)
        except (OSError, ValueError, RecursionError):
            return []
    sites = _text_file_sites(repo, root, path)
    if sites:
        # The text finders count characters; the edit is applied to the file's bytes.
        text = path.read_bytes().decode("utf-8")
        for site in sites:
            position, insertion = site.edit
            site.edit = (len(text[:position].encode("utf-8")), insertion)
    return sites


def _text_file_sites(repo: str, root: Path, path: Path) -> list[Site]:
    name = path.name
    try:
        if name.endswith((".sh", ".bash")):
            return shell_sites(repo, root, path, "shell")
        if name == "Dockerfile" or name.startswith("Dockerfile.") or name.endswith(".Dockerfile") or name == "Containerfile":
            return shell_sites(repo, root, path, "dockerfile")
        if name.endswith((".yaml", ".yml")):
            return yaml_sites(repo, root, path)
        if name.endswith(".toml"):
            return toml_sites(repo, root, path)
    except (OSError, ValueError, RecursionError):
        return []
    return []


def repo_sites(repo: Repo, corpus: Path, cap: int) -> list[Site]:
    root = corpus / repo.folder
    found: list[Site] = []
    for path in _walk_files(root):
        found.extend(file_sites(repo.name, root, path))
    by_kind: dict[str, list[Site]] = {}
    for site in found:
        by_kind.setdefault(site.kind, []).append(site)
    chosen = []
    for kind, sites in sorted(by_kind.items()):
        unique = {s.key + s.kind + str(s.edit[0]): s for s in sites}
        ranked = sorted(unique.values(), key=lambda s: _stable_rank(f"{s.key}:{s.edit[0]}"))
        chosen.extend(sorted(ranked[:cap], key=lambda s: (s.path, s.line)))
    return chosen


# --------------------------------------------------------------------------- measuring


def _lint(root: Path, target: str = ".") -> list[dict]:
    """Findings in the repository (``target``: one of its files) as ``_finding_key`` sees them."""
    process = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", target, "--target-version", TARGET,
         "--output-format", "json", "--exit-zero"],
        capture_output=True, text=True, cwd=root,
    )
    try:
        findings = json.loads(process.stdout or "[]")
    except ValueError:
        return []
    for finding in findings:
        finding["filename"] = os.path.relpath(os.path.join(root, finding["filename"]), root)
    return findings


def _explain(root: Path, path: str, line: int | None) -> list[dict]:
    target = f"{path}:{line}" if line else path
    process = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "explain", target, "--target-version", TARGET,
         "--output-format", "json"],
        capture_output=True, text=True, cwd=root,
    )
    try:
        return json.loads(process.stdout or "{}").get("engines", [])
    except ValueError:
        return []


def _new_replay_findings(findings: list[dict], baseline: set) -> list[dict]:
    return [f for f in findings if _finding_key(f) not in baseline and (f["code"] or "").startswith(REPLAY_CODES)]


def _finding_key(finding: dict) -> tuple:
    return (finding["filename"], finding["location"]["row"], finding["code"], finding["message"])


def _unknown_reason(engines: list[dict]) -> tuple[bool, str]:
    """Whether an engine at the line (one built for a call of the project, or the construction on
    its own) has every replay setting known, and else the first reason."""
    if not engines:
        return False, "no engine at this line"
    reasons = [_first_unknown(engine) for engine in engines]
    if any(reason is None for reason in reasons):
        return True, ""
    return False, reasons[0]


def _first_unknown(engine: dict) -> str | None:
    """The first replay setting the engine does not get known, with explain's reason."""
    settings = engine.get("settings", {})
    for name in REPLAY_SETTINGS:
        setting = settings.get(name)
        if setting is None:
            continue
        if setting["state"] == "unknown":
            return f"{name}: {setting.get('reason', 'unknown')}"
        if setting["state"] == "choice" and any(a.get("state") == "unknown" for a in setting.get("alternatives", [])):
            return f"{name}: a choice with unknown alternatives"
    return None


def _scratch_copy(root: Path) -> Path:
    """A copy of the repository to change, its files hard links to the corpus's: a changed file
    is written anew (a new inode), so the corpus itself is never touched."""
    scratch = Path(tempfile.mkdtemp(prefix="reach-")) / root.name
    shutil.copytree(root, scratch, symlinks=True, copy_function=os.link)
    return scratch


def _write_new(file: Path, data: bytes) -> None:
    fresh = file.with_name(file.name + ".reach-tmp")
    fresh.write_bytes(data)
    os.replace(fresh, file)


def measure_repo(args: tuple) -> list[dict]:
    repo, corpus, cap = args
    sites = repo_sites(repo, corpus, cap)
    if not sites:
        return []
    root = _scratch_copy(corpus / repo.folder)
    try:
        return _measure_sites(repo, root, sites)
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)


def _measure_sites(repo: Repo, root: Path, sites: list[Site]) -> list[dict]:
    """Each site's file is linted first (most findings land in it); only where that finds no
    replay finding is the whole repository linted, against the repository's own baseline."""
    baseline: set | None = None
    file_baselines: dict[str, set] = {}
    results = []
    for site in sites:
        file = root / site.path
        original = file.read_bytes()
        position, insertion = site.edit
        changed = original[:position] + insertion.encode() + original[position:]
        if site.path not in file_baselines:
            file_baselines[site.path] = {_finding_key(f) for f in _lint(root, site.path)}
        try:
            _write_new(file, changed)
            replay = _new_replay_findings(_lint(root, site.path), file_baselines[site.path])
            if not replay:
                if baseline is None:
                    _write_new(file, original)
                    baseline = {_finding_key(f) for f in _lint(root)}
                    _write_new(file, changed)
                replay = _new_replay_findings(_lint(root), baseline)
            if replay:
                verdict, reason = "reported", ", ".join(sorted({f["code"] for f in replay}))
                where = sorted({f"{f['filename']}:{f['location']['row']}" for f in replay})
            else:
                engines = _explain(root, site.path, site.line)
                if not engines and not site.path.endswith(".py"):
                    # A config's engine is reported at the key or launch it comes from: the file's.
                    engines = _explain(root, site.path, None)
                known, reason = _unknown_reason(engines)
                verdict = "clean" if known else "silent"
                where = []
        finally:
            _write_new(file, original)
        results.append({
            "key": site.key, "repo": repo.name, "split": repo.split, "category": repo.category,
            "kind": site.kind, "what": site.what, "verdict": verdict, "reason": reason, "where": where,
        })
    return results


def unmodified_findings(args: tuple) -> list[dict]:
    """Findings on the repository as it is, each release as the files pin it."""
    repo, corpus = args
    root = corpus / repo.folder
    process = subprocess.run(
        [sys.executable, "-m", "vllm_lint", "check", str(root), "--output-format", "json", "--exit-zero"],
        capture_output=True, text=True, cwd=root,
    )
    try:
        findings = json.loads(process.stdout or "[]")
    except ValueError:
        return []
    return [
        {"key": f"{repo.name}:{os.path.relpath(f['filename'], root)}:{f['location']['row']}", "code": f["code"],
         "message": f["message"]}
        for f in findings
    ]


# --------------------------------------------------------------------------- labels and the table


def load_labels() -> dict:
    """Every file of ``reach-data/labels/`` (one per area of the tool), keyed by site."""
    labels: dict = {}
    for path in sorted((DATA / "labels").glob("*.toml")):
        with open(path, "rb") as handle:
            for key, label in tomllib.load(handle).get("site", {}).items():
                if key in labels:
                    raise SystemExit(f"{path.name}: {key} is labelled twice")
                labels[key] = label
    return labels


def load_toml(name: str) -> dict:
    path = DATA / name
    if not path.exists():
        return {}
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def summarise(results: list[dict], labels: dict) -> dict:
    rows: dict[tuple, dict] = {}
    problems = {"resolvable silent": [], "runtime reported": [], "unlabelled silent": []}
    for result in results:
        label = labels.get(result["key"], {})
        result["label"] = label.get("label", "")
        result["shape"] = label.get("shape", "")
        if result["label"] == "not-a-site":
            continue  # the finder's mistake (a test's expected command, text that is never run)
        for group in (("all", result["kind"]), ("all", "all"), (result["split"], "all")):
            row = rows.setdefault(group, {"sites": 0, "reported": 0, "clean": 0, "runtime": 0, "resolvable": 0, "unlabelled": 0})
            row["sites"] += 1
            if result["verdict"] in ("reported", "clean"):
                row[result["verdict"]] += 1
            elif result["label"] in ("runtime", "resolvable"):
                row[result["label"]] += 1
            else:
                row["unlabelled"] += 1
        if result["verdict"] == "silent":
            if result["label"] == "resolvable":
                problems["resolvable silent"].append(result)
            elif result["label"] != "runtime":
                problems["unlabelled silent"].append(result)
        elif result["verdict"] == "reported" and result["label"] == "runtime":
            problems["runtime reported"].append(result)
    return {"rows": rows, "problems": problems}


def table(summary: dict) -> str:
    lines = ["| sites of | sites | reported | clean | silent: runtime | silent: resolvable | silent: unlabelled |",
             "|---|---|---|---|---|---|---|"]
    rows = summary["rows"]
    order = sorted(rows, key=lambda g: (g[0] != "all", g[1] == "all", g))
    for group in order:
        row = rows[group]
        name = f"split {group[0]}" if group[0] != "all" else ("all" if group[1] == "all" else group[1])
        lines.append(
            f"| {name} | {row['sites']} | {row['reported']} | {row['clean']} | {row['runtime']} | {row['resolvable']} | {row['unlabelled']} |"
        )
    return "\n".join(lines)


def shapes_table(results: list[dict]) -> str:
    counts: dict[tuple, int] = {}
    for result in results:
        if result["verdict"] != "silent":
            continue
        counts[(result["label"] or "unlabelled", result["shape"] or "-")] = counts.get((result["label"] or "unlabelled", result["shape"] or "-"), 0) + 1
    lines = ["| label | shape | silent sites |", "|---|---|---|"]
    for (label, shape), count in sorted(counts.items(), key=lambda item: (item[0][0], -item[1], item[0][1])):
        lines.append(f"| {label} | {shape} | {count} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- commands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    lay = commands.add_parser("layout", help="write each repository's tree from its git snapshot")
    lay.add_argument("--mirrors", type=Path, required=True, help="folder of bare git directories, owner+name/repo")
    lay.add_argument("--corpus", type=Path, required=True)
    show = commands.add_parser("sites", help="list the engine sites found")
    show.add_argument("--corpus", type=Path, required=True)
    show.add_argument("--cap", type=int, default=12)
    show.add_argument("repos", nargs="*")
    run = commands.add_parser("run", help="switch replay on at every site and measure")
    run.add_argument("--corpus", type=Path, required=True)
    run.add_argument("--cap", type=int, default=12, help="sites of one kind per repository (default 12)")
    run.add_argument("--split", choices=("build", "holdout"), help="only this part of the corpus")
    run.add_argument("--repos", nargs="*", default=[], help="only these repositories (owner/name)")
    run.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    run.add_argument("--out", type=Path, default=HERE / "results" / "reach.json")
    run.add_argument("--write-docs", action="store_true", help="put the table in docs/reach.md")
    run.add_argument("--no-unmodified", action="store_true", help="skip linting the repositories as they are")
    args = parser.parse_args(argv)

    repos = load_corpus()
    if args.command == "layout":
        layout(args.mirrors, args.corpus, repos)
        return 0
    if args.command == "sites":
        for repo in repos:
            if args.repos and repo.name not in args.repos:
                continue
            if not (args.corpus / repo.folder).exists():
                continue
            for site in repo_sites(repo, args.corpus, args.cap):
                print(f"{site.key}\t{site.kind}\t{site.what}")
        return 0

    chosen = [r for r in repos if (not args.split or r.split == args.split) and (not args.repos or r.name in args.repos)]
    absent = [r.name for r in chosen if not (args.corpus / r.folder).exists()]
    if absent:
        print(f"not laid out (run layout first): {', '.join(absent)}", file=sys.stderr)
        chosen = [r for r in chosen if r.name not in absent]
    started = time.time()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = [r for batch in pool.map(measure_repo, [(r, args.corpus, args.cap) for r in chosen]) for r in batch]
        unmodified = [] if args.no_unmodified else [
            f for batch in pool.map(unmodified_findings, [(r, args.corpus) for r in chosen]) for f in batch
        ]
    labels = load_labels()
    verified = load_toml("findings.toml").get("finding", {})
    summary = summarise(results, labels)
    diagnostics = [f for f in unmodified if not f["code"]]  # a file that cannot be read: not a finding
    unmodified = [f for f in unmodified if f["code"]]
    unverified = [f for f in unmodified if f"{f['key']}:{f['code']}" not in verified]
    report = {
        "date": time.strftime("%Y-%m-%d"), "seconds": round(time.time() - started), "target": TARGET,
        "repositories": len(chosen), "results": results, "unmodified": unmodified,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    text = table(summary)
    print(f"{len(chosen)} repositories, {len(results)} sites, {report['seconds']} s")
    print(text)
    print()
    print(shapes_table(results))
    for name, items in summary["problems"].items():
        if items:
            print(f"\n{name}: {len(items)}")
            for item in items:
                print(f"  {item['key']}  {item['kind']}  {item['reason']}")
    print(f"\nfindings on the unmodified repositories: {len(unmodified)}, not verified: {len(unverified)}"
          f" (and {len(diagnostics)} files that could not be read)")
    for finding in unverified:
        print(f"  {finding['key']}  {finding['code']}  {finding['message'][:160]}")
    if args.write_docs:
        write_docs(text, shapes_table(results), report, unmodified, unverified)
    return 0


def write_docs(text: str, shapes: str, report: dict, unmodified: list, unverified: list) -> None:
    marker_start, marker_end = "<!-- reach table -->", "<!-- /reach table -->"
    body = (
        f"{marker_start}\nMeasured {report['date']} on {report['repositories']} repositories "
        f"({len(report['results'])} sites, {report['seconds']} s): `python benchmarks/reach.py run --corpus CORPUS --write-docs`.\n\n"
        f"{text}\n\nSilent sites by shape:\n\n{shapes}\n\n"
        f"Findings on the repositories as they are: {len(unmodified)}, of them not verified: {len(unverified)}.\n{marker_end}"
    )
    current = DOCS.read_text() if DOCS.exists() else ""
    if marker_start in current:
        head, rest = current.split(marker_start, 1)
        tail = rest.split(marker_end, 1)[1] if marker_end in rest else ""
        DOCS.write_text(head + body + tail)
    else:
        DOCS.write_text(current + "\n" + body + "\n")


if __name__ == "__main__":
    sys.exit(main())
