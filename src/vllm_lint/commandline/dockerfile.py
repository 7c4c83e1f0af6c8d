"""Dockerfiles: RUN, CMD and ENTRYPOINT, with ENV and the image's entrypoint.

Each stage (``FROM``) starts from its base: the vLLM image
``vllm/vllm-openai`` has ``ENTRYPOINT ["vllm", "serve"]``, a stage named
earlier in the file passes on its state, any other base is taken to have no
entrypoint of its own.  ``ENV`` (both syntaxes) applies to later
instructions; ``ARG`` values are unknown, except that a ``FROM`` line reads the
defaults of the ``ARG``s declared before the first ``FROM``
(``FROM vllm/vllm-openai:v${VLLM_VERSION}``).  The commands of a stage built on a
tagged vLLM image (``FROM vllm/vllm-openai:v0.31.0``) are checked against that
release, and those after a ``RUN pip install vllm==X`` against the release it
installs, unless the target version was set.  Exec form (a JSON array) is read
without a shell; shell form runs ``/bin/sh -c``.  At the end of each stage the
command the container runs is ENTRYPOINT + CMD, as Docker composes them.
``RUN`` commands are read as well.  Heredoc ``RUN <<EOF`` bodies are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vllm_lint.dockerfiles import Instruction, argument_defaults, declared_arguments, exec_form, instructions, substituted
from vllm_lint.facts import UNKNOWN
from vllm_lint.launch import shell
from vllm_lint.images import starts_vllm_server
from vllm_lint.launch.launchers import is_vllm_build
from vllm_lint.launch.words import JSON, NONE, Word, synthetic

_ENV_PAIR = re.compile(r"^[ \t]*[A-Za-z_][A-Za-z0-9_.-]*=")


@dataclass
class Command:
    form: str  # exec | shell
    words: list[Word] | None = None
    text: str = ""
    offs: list[int] = field(default_factory=list)
    start: int = 0


@dataclass
class Stage:
    name: str | None = None
    env: dict[str, object] = field(default_factory=dict)
    env_open: bool = False
    args: set[str] = field(default_factory=set)
    # Values ``$NAME`` has in the stage's instructions (the Dockerfile reference's variable
    # substitution): ``ARG NAME=default``, a global ARG's default redeclared by ``ARG NAME``, ``ENV``.
    values: dict[str, str] = field(default_factory=dict)
    entrypoint: Command | None = None
    cmd: Command | None = None
    cmd_inherited: bool = False
    shell_ok: bool = True
    image: str | None = None  # the vLLM image the stage is built on, whose tag may name the release
    installed: object = None  # the vLLM a ``RUN pip install vllm==X`` of the stage installs (a Version)
    installed_at: str = ""

    def copy(self, name: str | None) -> Stage:
        return Stage(
            name, dict(self.env), self.env_open, set(), {k: v for k, v in self.env.items() if isinstance(v, str)},
            self.entrypoint, self.cmd, True, self.shell_ok, self.image, self.installed, self.installed_at,
        )


def exec_words(text: str, offs: list[int]) -> list[Word] | None:
    """The words of an exec-form JSON array, located; None when it is not one (shell form)."""
    values = exec_form(text)
    if values is None:
        return None
    words: list[Word] = []
    index = text.index("[") + 1
    count = len(text)
    for value in values:
        while index < count and text[index] != '"':
            index += 1
        start = index
        index += 1
        chars: list[str] = []
        char_offs: list[int] = []
        while index < count and text[index] != '"':
            c = text[index]
            if c == "\\" and index + 1 < count:
                nxt = text[index + 1]
                if nxt in '"\\/':
                    chars.append(nxt)
                    char_offs.append(offs[index + 1])
                    index += 2
                    continue
                chars.append("?")
                char_offs.append(-1)
                index += 2
                if nxt == "u":
                    index += 4
                continue
            chars.append(c)
            char_offs.append(offs[index])
            index += 1
        end = index + 1
        index += 1
        word_offs = char_offs if "".join(chars) == value else None
        words.append(Word(value, offs[start], offs[end - 1] + 1, offs=word_offs, style=JSON, quote='"', multiline=False))
    for position, word in enumerate(words):
        word.extra["items"] = words
        word.extra["index"] = position
    return words


def collect(ctx) -> None:
    stages: dict[str, Stage] = {}
    stage: Stage | None = None
    global_args: dict[str, str] = {}  # ARG NAME=default before the first FROM: FROM lines may use them
    for instruction in instructions(ctx.source.text):
        keyword = instruction.keyword
        if keyword == "FROM":
            if stage is not None:
                _finish(ctx, stage)
            stage = _from(ctx, instruction, stages, global_args)
            ctx.image = stage.image  # the commands of this stage run in its image
            ctx.image_line = ctx.source.position(instruction.start)[0]
            ctx.installed, ctx.installed_at = stage.installed, stage.installed_at
            continue
        if stage is None:
            if keyword == "ARG":
                global_args.update(argument_defaults(instruction.text))
            stage = Stage()
        if keyword == "ENV":
            _env(instruction, stage)
            stage.values.update({k: v for k, v in stage.env.items() if isinstance(v, str)})
        elif keyword == "ARG":
            declared_arguments(instruction.text, stage.values, global_args)
            for name in re.findall(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)", instruction.text):
                stage.args.add(name)
        elif keyword == "SHELL":
            words = exec_words(instruction.text, instruction.offs)
            stage.shell_ok = bool(words) and words[0].text is not None and words[0].text.rsplit("/", 1)[-1] in ("sh", "bash", "dash", "ash")
        elif keyword == "RUN" and not instruction.heredoc:
            command = _command(instruction)
            env = dict(stage.env)
            for name in stage.args:
                env.setdefault(name, UNKNOWN)
            _run(ctx, command, env, stage.env_open, stage.shell_ok)
            installed = pip_installed_vllm(substituted(instruction.text, stage.values))
            if installed is not None:
                stage.installed = ctx.installed = installed
                stage.installed_at = ctx.installed_at = f"the RUN pip install at {ctx.path}:{ctx.source.position(instruction.start)[0]}"
        elif keyword == "ENTRYPOINT":
            stage.entrypoint = _command(instruction)
            if stage.cmd_inherited:
                stage.cmd = None
        elif keyword == "CMD":
            stage.cmd = _command(instruction)
            stage.cmd_inherited = False
    if stage is not None:
        _finish(ctx, stage)


def pip_installed_vllm(text: str):
    """The vLLM a ``RUN pip install ... vllm==X ...`` installs (a Version standing for what it admits), or None."""
    if "vllm" not in text:
        return None
    from vllm_lint.pins import admitted_releases, pip_install_requirements
    from vllm_lint.versions import Version

    found = None
    for requirement, _offset in pip_install_requirements(text):
        admitted = admitted_releases(requirement)
        if admitted is not None:
            releases, version = admitted
            found = version if len(releases) == 1 else Version.admitting(releases)
    return found


def _substituted(image: str, args: dict[str, str]) -> str:
    """``vllm/vllm-openai:v${VLLM_VERSION}`` with the defaults of the ARGs declared before FROM."""
    return substituted(image, args)


def _from(ctx, instruction: Instruction, stages: dict[str, Stage], global_args: dict[str, str] | None = None) -> Stage:
    parts = [(m.group(0), m.start()) for m in re.finditer(r"\S+", instruction.text)]
    parts = [p for p in parts if not p[0].startswith("--")]
    if not parts:
        return Stage()
    written, position = parts[0]
    image = _substituted(written, global_args or {}) if "$" in written else written
    name = parts[2][0].lower() if len(parts) >= 3 and parts[1][0].lower() == "as" else None
    base = stages.get(image.lower())
    if base is not None:
        stage = base.copy(name)
    else:
        stage = Stage(name)
        if is_vllm_build(image):
            stage.image = image  # its tag may name the release
        if starts_vllm_server(image):
            start = instruction.offs[position]
            anchor = Word(image, start, start + len(written), style=NONE)
            stage.entrypoint = Command("exec", [synthetic("vllm", anchor), synthetic("serve", anchor)])
        elif "$" in image:
            stage.entrypoint = Command("unknown")
    if name:
        stages[name] = stage
    return stage


@dataclass
class BuiltServer:
    """An image a Dockerfile builds whose entrypoint is still vLLM's server."""

    base: str  # the vLLM server image it is built from (its tag may name the release)
    at: str = ""  # where: the ``FROM`` line, ``engine/Dockerfile:2``
    installed: object = None  # the vLLM a ``RUN pip install vllm==X`` of its stages installs
    installed_at: str = ""


def built_server_image(text: str, path: str, target: str | None = None) -> BuiltServer | None:
    """The vLLM server image the Dockerfile builds ``FROM`` (its ``target`` stage, else the last),
    when no ``ENTRYPOINT`` of the stages it is built on replaces the base image's ``vllm serve``;
    None for any other image (a compose service's ``build:`` runs the image built here)."""
    global_args: dict[str, str] = {}
    stages: dict[str, BuiltServer | None] = {}
    current: BuiltServer | None = None
    name: str | None = None
    started = False
    for instruction in instructions(text):
        keyword = instruction.keyword
        if keyword == "FROM":
            started = True
            parts = [part for part in instruction.text.split() if not part.startswith("--")]
            if not parts:
                return None
            image = _substituted(parts[0], global_args) if "$" in parts[0] else parts[0]
            earlier = stages.get(image.lower())
            if image.lower() in stages:
                current = BuiltServer(earlier.base, earlier.at, earlier.installed, earlier.installed_at) if earlier else None
            elif "$" not in image and starts_vllm_server(image):
                current = BuiltServer(image, f"{path}:{text.count(chr(10), 0, instruction.start) + 1}")
            else:
                current = None
            name = parts[2].lower() if len(parts) >= 3 and parts[1].lower() == "as" else None
        elif keyword == "ARG" and not started:
            global_args.update(argument_defaults(instruction.text))
        elif keyword == "ENTRYPOINT":
            current = None
        elif keyword == "RUN" and current is not None:
            installed = pip_installed_vllm(instruction.text)
            if installed is not None:
                line = text.count("\n", 0, instruction.start) + 1
                current.installed, current.installed_at = installed, f"the RUN pip install at {path}:{line}"
        if name is not None:
            stages[name] = current
    if target is not None:
        return stages.get(target.lower())
    return current


def _env(instruction: Instruction, stage: Stage) -> None:
    text = instruction.text
    known = shell.ShellState(vars={k: v for k, v in stage.env.items()})
    for name in stage.args:
        known.vars.setdefault(name, UNKNOWN)
    if not _ENV_PAIR.match(text):
        match = re.match(r"\s*(\S+)\s+(.*)$", text, re.DOTALL)
        if match:
            value = match.group(2).strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            stage.env[match.group(1)] = UNKNOWN if "$" in value else value
        return
    try:
        tokens = shell.lex(text)
    except shell.ShellSyntaxError:
        stage.env_open = True
        return
    for token in tokens:
        if not isinstance(token, shell.RawWord):
            continue
        prefix = token.plain_prefix()
        match = re.match(r"([A-Za-z_][A-Za-z0-9_.-]*)=", prefix)
        if not match:
            continue
        value = shell.assignment_value(token, match.end(), known)
        stage.env[match.group(1)] = shell.env_value(value)
        known.vars[match.group(1)] = value


def _command(instruction: Instruction) -> Command:
    words = exec_words(instruction.text, instruction.offs)
    if words is not None:
        return Command("exec", words)
    return Command("shell", text=instruction.text, offs=instruction.offs, start=instruction.start)


def _run(ctx, command: Command, env: dict[str, object], env_open: bool, shell_ok: bool) -> None:
    before = len(ctx.records)
    if command.form == "exec":
        ctx.launch_words(command.words, env, env_open, None)
    elif command.form == "shell" and shell_ok:
        ctx.shell_script(command.text, command.offs, command.start, env, env_open, multiline=True)
    _in_image(ctx, before)


def _in_image(ctx, before: int) -> None:
    """Commands in a rebuilt vLLM image whose tag names no release run its owner's build."""
    if ctx.image is not None and ctx.image_names_no_release(ctx.image):
        for record in ctx.records[before:]:
            record.facts.release_unknown = True


def _finish(ctx, stage: Stage) -> None:
    before = len(ctx.records)
    try:
        _container_command(ctx, stage)
    finally:
        _in_image(ctx, before)


def _container_command(ctx, stage: Stage) -> None:
    entrypoint, cmd = stage.entrypoint, stage.cmd
    if entrypoint is not None and entrypoint.form == "unknown":
        return
    env = dict(stage.env)
    if entrypoint is not None and entrypoint.form == "exec":
        argv = list(entrypoint.words)
        if cmd is not None and cmd.form == "exec":
            argv.extend(cmd.words)
        elif cmd is not None and cmd.form == "shell":
            return  # ENTRYPOINT [...] + /bin/sh -c "...": not a launcher's flags
        ctx.launch_words(argv, env, stage.env_open, None)
        return
    if entrypoint is not None:  # shell form: CMD is ignored
        if stage.shell_ok:
            ctx.shell_script(entrypoint.text, entrypoint.offs, entrypoint.start, env, stage.env_open, multiline=True)
        return
    if cmd is None:
        return
    if cmd.form == "exec":
        ctx.launch_words(cmd.words, env, stage.env_open, None)
    elif stage.shell_ok:
        ctx.shell_script(cmd.text, cmd.offs, cmd.start, env, stage.env_open, multiline=True)
