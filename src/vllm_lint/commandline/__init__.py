"""The command-line front end: servers started from shell scripts, Dockerfiles,
Kubernetes manifests, docker compose files and vLLM ``--config`` files.
(Argv lists built in Python are read by ``python/subprocesses.py``; both use
the launch semantics in ``vllm_lint.launch``.)

Each launcher's flags become the same front-end-neutral ``EngineFacts`` the
Python front end builds (``source="command-line"``, vLLM's field names), and
the same rule modules report on them.  Findings point at the flag (or YAML
key); findings about a missing setting or the runner variable point at
``--return-sampling-mask`` (else at the launcher, ``vllm serve``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from vllm_lint.facts import ABSENT, UNKNOWN, EngineFacts, Span, reading
from vllm_lint.findings import FileError, Finding
from vllm_lint.launch.words import Source, Word
from vllm_lint.noqa import NoqaReport

# Every command-line finding needs one of these settings written somewhere: the
# replay flags themselves, or a --config file that may hold them.
_RELEVANT = re.compile(rb"sampling.mask|trace.replay|batch.sharded.sampling")
# vLLM, Dynamo, or python (a project's server wrapper: python -m pkg.server / python server.py).
_LAUNCHER = re.compile(rb"vllm|dynamo|python")
_VLLM = re.compile(rb"vllm|dynamo")
_SERVER = re.compile(rb"serve|api_server|vllm-openai")  # the vLLM image runs `vllm serve`
_KUBEAI_VLLM = re.compile(rb"engine:[ \t]*[\"']?VLLM\b")  # a KubeAI Model served by vLLM
_KAITO_VLLM = re.compile(rb"inference_config\.yaml:[^\n]*\n(?:[ \t]*(?:#[^\n]*)?\n|[ \t]+[^\n]*\n)*?[ \t]+vllm:")  # KAITO's options


def may_have_findings(data: bytes, kind: str) -> bool:
    """A cheap test on the raw bytes, before any parsing."""
    if kind == "yaml":
        if _RELEVANT.search(data) is not None or (_VLLM.search(data) is not None and _SERVER.search(data) is not None):
            return True
        if _KUBEAI_VLLM.search(data) is not None or (b"inference_config" in data and _KAITO_VLLM.search(data) is not None):
            return True
        from vllm_lint.launch.configfile import may_be_config_bytes

        return may_be_config_bytes(data)  # a vLLM --config file: its top-level keys say so
    if _LAUNCHER.search(data) is None:
        return False
    if _RELEVANT.search(data) is not None:
        return True
    if _VLLM.search(data) is not None and _SERVER.search(data) is not None:
        return True  # a server launch: every flag is checked against the schema
    # --config files may hold the settings (read for vLLM's own launchers only).
    return kind == "shell" and b"--config" in data and _VLLM.search(data) is not None


def _chart_image(data: bytes, path: str) -> bool:
    """A Helm template whose image comes from its chart's values, where vLLM's image is named."""
    if b".Values." not in data or b"image:" not in data or path in ("-", "stdin", "<stdin>"):
        return False
    from vllm_lint.launch.helm import chart_names_vllm_image

    return chart_names_vllm_image(path)


@dataclass
class EngineRecord:
    facts: EngineFacts
    parsed: object
    argv: list[Word]
    noqa_line: int | None = None  # the last line of a command split over lines
    version: object = None  # the release it is checked against, when not the file's
    version_from: str = ""  # where that release is named (an image tag, a RUN pip install)
    version_origin: str = ""  # the same, short: file:line
    release_image: str | None = None  # the image whose tag names that release (not a pip install)
    # The launch's words as written in this file, the program's too (``ENTRYPOINT`` and ``CMD``,
    # a manifest's ``command`` and ``args``): ``explain FILE:LINE`` selects it on any of their lines.
    words: list = field(default_factory=list)


@dataclass
class Context:
    """One linted file: its text, target version and the engines found in it."""

    source: Source
    version: object
    path: str
    newline: str = "\n"
    resolve_configs: bool = True
    records: list[EngineRecord] = field(default_factory=list)
    config_entries: dict = field(default_factory=dict)
    _configs: dict = field(default_factory=dict)
    _wrappers: object = None
    # The user chose the version (--target-version, target-version): image tags do not change it.
    explicit_version: bool = False
    # The image the commands being read run in (a Dockerfile stage's base, a container's image).
    image: str | None = None
    # Where a Helm chart writes the tag of that image, when the template renders it ("../values.yaml:4").
    image_tag_at: str = ""
    image_line: int = 0  # the line of this file that names that image (FROM, image:), when known
    origin: str = ""  # where the file's own release is written (``config.Target.origin``)
    # A Dockerfile stage's own ``RUN pip install vllm==X``: the vLLM its later commands run (over the image's).
    installed: object = None
    installed_at: str = ""  # where: "the RUN pip install at Dockerfile:7"
    container: str | None = None  # the running container the commands run in (`docker exec NAME ...`)
    # Findings told in an RL framework's terms (vllm_lint.frameworks), and the packs that applied.
    framework_findings: list = field(default_factory=list)
    frameworks_applied: list = field(default_factory=list)
    framework_launches: bool = False
    version_source: str = ""  # where the target version came from (a pack may use its framework's pinned vLLM)
    # ``vllm-lint explain`` only: the engines framework launches build, with their anchors' line ranges.
    framework_engines: list | None = None

    @property
    def wrappers(self):
        """Server wrappers of this file's project (``python -m project.server ...``)."""
        if self._wrappers is None:
            from vllm_lint.launch.wrappers import WrapperFinder

            self._wrappers = WrapperFinder(self.path)
        return self._wrappers

    def version_from(self, image: str | None) -> str:
        """Where the release ``version_in`` gives is named, when not the file's."""
        if self.explicit_version:
            return ""
        if self.installed is not None:
            return self.installed_at
        if image_version(image) is None:
            return ""
        if self.image_tag_at:
            return f"the tag of the image {image} (set at {self.image_tag_at})"
        return f"the tag of the image {image}" + (f" at {self.path}:{self.image_line}" if self.image_line else "")

    def version_origin(self, image: str | None) -> str:
        """Where the release ``version_in`` gives is written, short (``Dockerfile:7``,
        ``chart/values.yaml:4``, ``deploy.yaml:12``), when not the file's; "" otherwise."""
        from vllm_lint.config import display_path

        def shown(place: str) -> str:
            path, colon, line = place.rpartition(":")
            return f"{display_path(path)}:{line}" if colon and line.isdigit() else place

        if self.explicit_version:
            return ""
        if self.installed is not None:
            at = re.search(r" at (\S+:\d+)$", self.installed_at)
            return shown(at.group(1)) if at else display_path(self.path)
        if image_version(image) is None:
            return ""
        if self.image_tag_at:
            return ", ".join(shown(place.strip()) for place in self.image_tag_at.split(","))
        return f"{display_path(self.path)}:{self.image_line}" if self.image_line else display_path(self.path)

    def image_names_no_release(self, image: str) -> bool:
        """Commands in ``image`` run a vLLM neither the user nor the image's tag names (nor a
        ``pip install`` before them): a custom or dev build, a rebuild tagged ``latest``, a
        templated name.  Only upstream's ``vllm/vllm-openai`` untagged or ``latest`` is the newest."""
        return not (self.explicit_version or self.installed is not None or image_version(image) is not None)

    def version_in(self, image: str | None):
        """The release a command running in ``image`` is checked against, unless the user chose
        one: the vLLM a Dockerfile stage installs, else the image tag's (``vllm/vllm-openai:v0.31.0``),
        else the file's."""
        if self.explicit_version:
            return self.version
        return self.installed or image_version(image) or self.version

    # --------------------------------------------------------------- engines

    def launch_words(self, words: list[Word], env: dict, env_open: bool, node=None, command_range=None, guarded: bool = False) -> None:
        from vllm_lint.launch.launchers import Launch, Script, find_launch

        if not guarded:
            self._pip_install(words)
        found = find_launch(words, env, env_open, self.wrappers)
        if isinstance(found, (Script, Launch)) and found.container is not None and self.container is None:
            # `docker exec CONTAINER ...`: what the host installed does not run there.
            saved = self.installed, self.installed_at, self.container
            self.installed, self.installed_at, self.container = None, "", found.container
            try:
                self._launch_found(found, words, command_range)
            finally:
                self.installed, self.installed_at, self.container = saved
        else:
            self._launch_found(found, words, command_range)

    def _launch_found(self, found, words: list[Word], command_range) -> None:
        from vllm_lint.launch.launchers import Launch, Script

        if isinstance(found, Script):
            self.script_word(found.word, found.env, found.env_open)
        elif isinstance(found, Launch):
            count = len(self.records)
            self.add_launch(found, command_range)
            if len(self.records) > count:
                self.records[-1].words = list(words)
        elif self.framework_launches:
            self.framework_launch(words, command_range)

    def _pip_install(self, words: list[Word]) -> None:
        """``pip install vllm==X`` (``uv pip``, ``python -m pip``) in a script: the commands
        after it run that release (a SkyPilot task's ``setup`` before its ``run``, a dstack
        task's ``commands``), unless the user chose the version."""
        from vllm_lint.launch.launchers import basename

        if self.explicit_version or len(words) < 3 or any(word.text is None for word in words[:4]):
            return
        program = basename(words[0].text)
        if not (program.startswith(("pip", "python")) or program == "uv"):
            return
        from vllm_lint.commandline.dockerfile import pip_installed_vllm

        known = [word for word in words if word.text is not None]
        installed = pip_installed_vllm(" ".join(shell_quoted(word.text) for word in known))
        if installed is not None:
            self.installed = installed
            line = self.source.position(words[0].start)[0] if words[0].start >= 0 else None
            self.installed_at = f"the pip install at {self.path}" + (f":{line}" if line else "")

    def framework_launch(self, words: list[Word], command_range=None) -> None:
        """An RL framework's entry point with Hydra overrides (``python3 -m verl.trainer.main_ppo k=v``)."""
        from vllm_lint.frameworks import lint_launch

        findings, applied = lint_launch(words, self.source, self.path, self.version, version_source=self.version_source)
        noqa_line = None
        if command_range is not None and command_range[0] >= 0 and command_range[1] > command_range[0]:
            noqa_line = self.source.position(command_range[1])[0]
        self.framework_findings.extend((finding, noqa_line) for finding in findings)
        self.frameworks_applied.extend(applied)
        if self.framework_engines is not None:
            from vllm_lint.frameworks.engine import launch_engines

            lines = None
            if command_range is not None and command_range[0] >= 0 and command_range[1] > command_range[0]:
                lines = (self.source.position(command_range[0])[0], self.source.position(command_range[1])[0])
            for built in launch_engines(words, self.source, self.path, self.version, version_source=self.version_source):
                self.framework_engines.append((built, lines))

    def script_word(self, word: Word, env: dict, env_open: bool) -> None:
        """``sh -c SCRIPT``: read the script where its word is written.  What the outer shell
        expanded to a value unknown here (``sh -c "vllm serve m --port ${PORT}"``) is, in the
        script, a variable of its own whose value is unknown (``shell.OUTER_VALUE``)."""
        if word.text is not None and "scripts" not in word.extra:
            self._script_text(word.text, word.offs, word, env, env_open)
            return
        # One script per way a command text it expands was set (``bash -c "$CMD"`` after branches).
        for text, offs in word.extra.get("scripts") or [word.extra["script"]]:
            self._script_text(text, offs, word, env, env_open)

    def _script_text(self, text: str, offs, word: Word, env: dict, env_open: bool) -> None:
        from vllm_lint.launch.shell import OUTER_VALUE

        if OUTER_VALUE in text:
            env = dict(env)
            for name in re.findall(re.escape(OUTER_VALUE) + r"\w+", text):
                env[name] = UNKNOWN
        offs = offs if offs is not None and len(offs) == len(text) else None
        self.shell_script(text, offs, word.start, env, env_open, multiline=word.multiline)

    def shell_script(self, text: str, offs, fallback: int, env: dict, env_open: bool, multiline: bool = True) -> None:
        from vllm_lint.launch import shell

        state = shell.ShellState(
            vars={k: v for k, v in env.items() if isinstance(v, str) or v is ABSENT},
            env=dict(env),
            env_open=env_open,
            exported=set(env),
        )
        if offs is None:
            mapper = shell.Mapper([fallback] * len(text)) if fallback >= 0 else shell.Mapper([-1] * len(text))
            editable = False
        else:
            mapper = shell.Mapper(offs)
            editable = True

        def on_command(command) -> None:
            if not editable:
                for word in command.words:
                    word.extra["editable"] = False
            words = [_outer_value_unknown(word) for word in command.words]
            self.launch_words(words, command.env, command.env_open, None, (command.start, command.end), command.guarded)

        try:
            shell.analyse(text, on_command, mapper, state, multiline)
        except shell.ShellSyntaxError:
            return  # an embedded script the shell would reject: vLLM never starts

    def add_launch(self, launch, command_range=None) -> None:
        """A launch's engine, checked against the release it runs (a Ray job's runtime
        environment may install its own)."""
        anchor = self._anchor_span(launch.anchor)
        saved = self.installed, self.installed_at
        if launch.installs is not None and not self.explicit_version:
            from vllm_lint.commandline.dockerfile import pip_installed_vllm

            installed = pip_installed_vllm(f"pip install {shell_quoted(launch.installs)}")
            if installed is not None:
                line = self.source.position(launch.anchor[0].start)[0] if launch.anchor and launch.anchor[0].start >= 0 else None
                self.installed = installed
                self.installed_at = "the Ray job's runtime environment (pip) at " + f"{self.path}" + (f":{line}" if line else "")
        try:
            self._add_launch(launch, anchor, command_range)
        finally:
            self.installed, self.installed_at = saved

    def _add_launch(self, launch, anchor, command_range=None) -> None:
        from vllm_lint.images import extends_serve_options
        from vllm_lint.launch.flags import ParseFailure, interpret, word_origin

        version = self.version_in(launch.image or self.image)
        try:
            parsed = interpret(
                launch.args,
                launch.dialect,
                version,
                lambda word: word_origin(word, self.source, anchor),
                lambda word, dialect: self.load_config(word, dialect, version),
            )
        except ParseFailure:
            return
        self._record(parsed, launch.dialect.name, anchor, launch.env, launch.env_open, launch.args, command_range)
        self.records[-1].version = version
        self.records[-1].version_from = self.version_from(launch.image or self.image)
        self.records[-1].version_origin = self.version_origin(launch.image or self.image)
        image = launch.image or self.image
        if self.installed is None:
            self.records[-1].release_image = image
        if extends_serve_options(image):
            self.records[-1].facts.extended_parser = True
        if self.container is not None and image is None and not self.explicit_version and self.installed is None:
            # Run in a container (`docker exec`) whose image this file does not name.
            self.records[-1].facts.release_unknown = True
            self.records[-1].version_from = f"it runs in the container {self.container}, whose image is not named here"

    def _record(self, parsed, kind: str, anchor: Span, env: dict, env_open: bool, argv: list[Word], command_range=None) -> None:
        mask = parsed.mask_word
        if mask is not None and mask.located and mask.start >= 0:
            anchor = self.source.span(mask.start, mask.end)
        facts = EngineFacts(kind=kind, anchor=anchor, open=parsed.open, source="command-line")
        facts.fields = parsed.fields
        facts.written = parsed.written
        facts.options = parsed.options
        facts.assumed = tuple(passed_through(word, after, self.source) for word, after in parsed.assumed)
        for key, value in env.items():
            facts.env[key] = value if isinstance(value, str) or value is ABSENT else UNKNOWN
        facts.env_open = env_open
        noqa_line = None
        if command_range is not None and command_range[0] >= 0 and command_range[1] > command_range[0]:
            first_line, _ = self.source.position(command_range[0])
            last_line, _ = self.source.position(command_range[1])
            if last_line > first_line:
                noqa_line = last_line
        self.records.append(EngineRecord(facts, parsed, list(argv), noqa_line))

    def _anchor_span(self, words: list[Word]) -> Span:
        located = [w for w in words if w.start >= 0 and w.path is None]
        if not located:
            return Span(1, 0)
        first, last = located[0], located[-1]
        first_line, _ = self.source.position(first.start)
        last_line, _ = self.source.position(last.end)
        if first_line == last_line:
            return self.source.span(first.start, last.end)
        return self.source.span(first.start, first.end)

    def add_config_document(self, root, whole: bool = False, schema: bool = False, version=None) -> None:
        """A vLLM config file linted on its own.

        ``whole``: read as ``vllm serve MODEL --config FILE`` reads it (the model
        and the environment unknown), the command line read as adding nothing, which
        the findings say (``Assumption``); otherwise (or with the strict reading,
        ``assume-pass-through = "anything"``) the rest of the command line is
        unknown too.  ``schema``: the file is a vLLM config (its structure or a
        launch says so), so every key is checked against the argument schema;
        ``version``: the release a launch of it runs (its image tag).
        """
        from vllm_lint.facts import UNKNOWN, Assumption, Reading
        from vllm_lint.launch.configfile import config_words
        from vllm_lint.launch.flags import SERVE, Dialect, interpret, word_origin
        from vllm_lint.launch.words import open_word

        version = version or self.version
        words = config_words(self.source, root, SERVE, version, None, self.config_entries)
        if not words:
            return
        anchor = self.source.span(words[0].start, words[0].end)
        dialect = Dialect("config-file" if schema else "config", config="none", positional_model=False)
        whole = whole and Reading.lenient()
        argv = words if whole else words + [open_word()]
        try:
            parsed = interpret(argv, dialect, version, lambda w: word_origin(w, self.source, anchor), self.load_config)
        except Exception:  # noqa: BLE001 - a config vLLM cannot read: nothing to report
            return
        if whole:
            parsed.fields.setdefault("model", UNKNOWN)  # the command line names it
        self._record(parsed, "config", anchor, {}, whole, words)
        if whole:
            self.records[-1].facts.assumed = (Assumption("the command line that reads this file", verb="sets"),)
        self.records[-1].version = version

    # ---------------------------------------------------------- config files

    def load_config(self, word: Word, dialect, version=None) -> list[Word] | None:
        """The options of ``--config PATH``, read relative to this file; None (unknown) if not found."""
        from vllm_lint.launch.configfile import read_config_file

        version = version or self.version

        if not self.resolve_configs or word.text is None or not word.text:
            return None
        if self.path in ("-", "stdin", "<stdin>"):
            return None
        if os.path.isabs(word.text) and not _in_project_of(word.text, self.path):
            return None  # a path on the machine the command runs on
        full = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(self.path)), word.text))
        key = (full, dialect.config, version)
        if key not in self._configs:
            display = os.path.normpath(os.path.join(os.path.dirname(self.path), word.text))
            if os.path.isabs(word.text):
                display = os.path.relpath(full) if not os.path.relpath(full).startswith("..") else full
            self._configs[key] = read_config_file(full, dialect, version, display)
        words = self._configs[key]
        if words is None:
            return None
        return [_copy_word(w) for w in words]

    # -------------------------------------------------------------- findings

    def findings(self) -> tuple[list[Finding], NoqaReport]:
        """The findings no directive silences, and a report of the directives."""
        from vllm_lint.checker import check_facts, describe_release
        from vllm_lint.commandline.fixes import build_disable_replay_fix, build_fix
        from vllm_lint.noqa import line_suppressions

        suppressions = line_suppressions(self.source.text.splitlines())
        report = NoqaReport(list(suppressions.directives))
        result: list[Finding] = []
        seen: set[tuple] = set()
        for record in self.records:
            found = check_facts([record.facts], [], record.version or self.version)
            describe_release(
                found, record.version or self.version, record.version_origin or self.origin, self.path,
                say=bool(record.version_origin) or not self.explicit_version,
            )
            for finding in found:
                key = (finding.code, finding.span.line, finding.span.col, finding.message)
                if key in seen:
                    continue
                seen.add(key)
                finding.path = self.path
                # The last line of a command split over lines covers all of it.
                last = record.noqa_line if record.noqa_line is not None and finding.span.line <= record.noqa_line else None
                matched = suppressions.matching(finding.code, finding.span.line, last)
                if matched:
                    report.suppressed.append((finding, matched))
                    continue
                origin = finding.origin
                if origin is not None and origin.path is not None and origin.path != "<implicit>":
                    finding.message += f" (set in {origin.path}, line {origin.span.line})"
                try:
                    finding.fix = build_fix(finding, record, self)
                    # The edits --fix-mode disable-replay would make instead (removing the mask).
                    finding.disable_replay_fix = build_disable_replay_fix(finding, record, self)
                except (ValueError, TypeError, KeyError, IndexError, AttributeError):  # pragma: no cover
                    finding.fix = finding.disable_replay_fix = None  # a fix we cannot compute is not offered
                result.append(finding)
        describe_release(
            [finding for finding, _line in self.framework_findings], self.version, self.origin, self.path, say=not self.explicit_version
        )
        for finding, noqa_line in self.framework_findings:
            key = (finding.code, finding.span.line, finding.span.col, finding.message)
            if key in seen:
                continue
            seen.add(key)
            finding.path = self.path
            last = noqa_line if noqa_line is not None and finding.span.line <= noqa_line else None
            matched = suppressions.matching(finding.code, finding.span.line, last)
            if matched:
                report.suppressed.append((finding, matched))
                continue
            result.append(finding)
        result.sort(key=lambda f: (f.span.line, f.span.col, f.code))
        return result, report


def image_version(image: str | None):
    """The release a vLLM image runs: its tag's (``vllm/vllm-openai:v0.31.0``); upstream's
    ``vllm/vllm-openai`` untagged or ``latest`` is its newest release, which the newest the
    rules know stands for; None for any other image, or a tag that names no release."""
    from vllm_lint.launch.launchers import image_release, is_vllm_image
    from vllm_lint.versions import NEWEST_VERSION

    release = image_release(image)
    if release is not None or image is None:
        return release
    tag = image.split("@", 1)[0].rpartition("/")[2].partition(":")[2]
    return NEWEST_VERSION if is_vllm_image(image) and tag in ("", "latest") else None


def _outer_value_unknown(word: Word) -> Word:
    """A word of a script template that holds an outer value's reference as text (inside the
    script's single quotes: `sh -c "... --name '${NAME}'"`): its text is that unknown value."""
    if word.text is None or "__vllm_lint_outer_" not in word.text:
        return word
    prefix = word.text.split("${__vllm_lint_outer_", 1)[0]
    return Word(None, word.start, word.end, prefix=prefix, style=word.style, maybe=word.maybe, extra=dict(word.extra, editable=False))


def shell_quoted(text: str) -> str:
    """A word as one word of a command line (``vllm>=0.10,<0.11`` quoted)."""
    return f'"{text}"' if re.search(r"[\s<>|&;]", text) else text


def passed_through(word: Word, decided_after: set, source: Source | None):
    """The assumption a script's own arguments stand for: ``the arguments passed through at $@, line 31``."""
    from vllm_lint.facts import Assumption

    where = ""
    if source is not None and word.located and word.end > word.start:
        line = source.position(word.start)[0]
        where = f" at {source.text[word.start : word.end]}, line {line},"
    return Assumption(f"the arguments passed through{where}", decided_after=frozenset(decided_after))


def _copy_word(word: Word) -> Word:
    copy = Word(
        word.text, word.start, word.end, word.offs, word.open, word.maybe, word.prefix, word.style, word.path, word.kind, word.multiline, word.quote, dict(word.extra)
    )
    return copy


def lint_command_file(path: str, data: bytes, kind: str, version_for):
    """Lint a shell script, Dockerfile or YAML file (``lint.lint_file`` calls this)."""
    from vllm_lint.sources import FileResult, not_analysable

    result = FileResult(path, kind=kind)
    # Files that cannot hold a finding are skipped before anything else, binary ones too
    # (an executable with a shell shebang and an appended zip is not the user's script).
    analysed, framework_config, framework_launch = _prefilter(data, kind, path, declared_images(version_for))
    if not analysed:
        return result
    result.error = not_analysable(path, data)
    if result.error is not None:
        return result
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        result.error = FileError(path, f"invalid utf-8 bytes at offset {error.start}")
        return result
    text = text.removeprefix("\ufeff")
    result.source = text
    result.newline = "\r\n" if "\r\n" in text[:10000] else "\n"
    target = version_for(path)
    ctx = Context(Source(path, text), target[0], path, result.newline, resolve_configs=kind == "shell")
    ctx.explicit_version = getattr(target, "explicit", False)
    ctx.framework_launches = framework_launch
    ctx.version_source = target[1]
    ctx.origin = getattr(target, "origin", "")
    try:
        with reading(target):
            if framework_config:
                _framework_config(ctx, kind, data)
            analyse(ctx, kind)
            result.findings, result.noqa = ctx.findings()
    except RecursionError:
        result.error = FileError(path, "too deeply nested to analyse")
        return result
    except ParseError as error:
        result.error = FileError(path, error.reason, error.line, error.col)
        return result
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:  # pragma: no cover - a bug, not the file
        result.error = FileError(path, f"internal error while reading this file: {type(error).__name__}: {error}")
        return result
    _review_config_fixes(kind, text, result.findings)
    _spans_in_bytes(result.findings, text)
    result.frameworks = ctx.frameworks_applied
    return result


def launch_releases(path: str, kind: str, version_for) -> list[tuple[int, object, str, bool]]:
    """``--show-settings``: the release each launch of a command file runs, as ``check`` reads
    it: ``(line, version, where it is named, whether the release is unknown)`` for each launch
    whose release is not the file's (an image's tag, a ``pip install`` before it, a custom image)."""
    return [
        (record.facts.anchor.line, record.version or version, record.version_from or record.version_origin, record.facts.release_unknown)
        for record, version in _launch_records(path, kind, version_for)
    ]


def launch_release_places(path: str, kind: str, version_for) -> list[tuple[object, str, str | None]]:
    """``upgrade --bump-pins``: for each launch of a command file whose release an image tag or a
    ``pip install`` names, ``(version, places, image)``: where that release is written
    (``Dockerfile:1``, ``chart/values.yaml:4``, several joined by ``, ``), and the image whose
    tag names it (None for a ``pip install``)."""
    return [
        (record.version or version, record.version_origin, record.release_image)
        for record, version in _launch_records(path, kind, version_for)
        if record.version_origin and not record.facts.release_unknown
    ]


def _launch_records(path: str, kind: str, version_for) -> list:
    """The launch records of a command file whose release is not the file's, with the file's version."""
    from vllm_lint.sources import read_file

    try:
        text = read_file(path).decode("utf-8").removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError, MemoryError):
        return []
    target = version_for(path)
    ctx = Context(Source(path, text), target[0], path, resolve_configs=kind == "shell")
    ctx.explicit_version = getattr(target, "explicit", False)
    try:
        with reading(target):
            analyse(ctx, kind)
    except (ParseError, RecursionError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return []
    return [(record, ctx.version) for record in ctx.records if record.version_origin or record.facts.release_unknown]


def _review_config_fixes(kind: str, text: str, findings: list[Finding]) -> None:
    """A fix that edits a YAML or TOML file must leave it parsing to the same structure but
    for the fixed value (``fix.structure``): checked before it is offered."""
    edits_config = kind in ("yaml", "toml") or any(
        fix is not None and fix.elsewhere for f in findings for fix in (f.fix, f.disable_replay_fix)
    )
    if not edits_config or not any(f.fix is not None or f.disable_replay_fix is not None for f in findings):
        return
    from vllm_lint.fix.structure import review_fixes
    from vllm_lint.sources import read_file

    def read_other(path: str) -> str | None:
        try:
            return read_file(path).decode("utf-8").removeprefix("\ufeff")
        except (OSError, UnicodeDecodeError):
            return None

    review_fixes(kind, text, findings, read_other)


def _spans_in_bytes(findings: list[Finding], text: str) -> None:
    """The command-line readers count columns in characters; findings carry UTF-8 byte
    columns, as Python's ``ast`` gives them, and output converts them back."""
    if text.isascii():
        return
    from vllm_lint.columns import byte_column, source_lines

    lines = source_lines(text)

    def column(line: int | None, col: int | None) -> int | None:
        if line is None or col is None or not 0 < line <= len(lines):
            return col
        return byte_column(lines[line - 1], col)

    for finding in findings:
        span = finding.span
        finding.span = Span(span.line, column(span.line, span.col), span.end_line, column(span.end_line, span.end_col))


def needs_analysis(data: bytes, kind: str, path: str, server_images: tuple[str, ...] = ()) -> bool:
    """Whether ``lint_command_file`` reads the file at all (the byte prefilter); ``server_images``:
    the images the project declares as starting vLLM's server."""
    return _prefilter(data, kind, path, server_images)[0]


def declared_images(version_for) -> tuple[str, ...]:
    """The ``server-images`` of the resolver whose ``for_path`` is ``version_for``."""
    return getattr(getattr(version_for, "__self__", None), "server_images", ())


def _prefilter(data: bytes, kind: str, path: str, server_images: tuple[str, ...] = ()) -> tuple[bool, bool, bool]:
    """(analysed at all, may hold a framework config, may launch a framework's entry point)."""
    framework_config, framework_launch = _framework_prefilter(data, kind, path)
    analysed = (
        framework_config
        or framework_launch
        or (kind != "toml" and may_have_findings(data, kind))
        or (kind == "yaml" and _chart_image(data, path))
        or (kind != "toml" and bool(server_images) and _declared_image_launch(data, server_images))
    )
    return analysed, framework_config, framework_launch


def _declared_image_launch(data: bytes, server_images: tuple[str, ...]) -> bool:
    """A file that names an image the project declares as vLLM's server may pass it engine flags."""
    from vllm_lint.images import declared_names_in

    return declared_names_in(data, server_images)


def _framework_prefilter(data: bytes, kind: str, path: str) -> tuple[bool, bool]:
    """Whether the bytes may hold an RL framework's config, or a launch of its entry point."""
    from vllm_lint.frameworks import may_be_config, may_be_launch
    from vllm_lint.frameworks.pack import PackError

    try:
        config = kind in ("yaml", "toml") and may_be_config(data, path)
    except PackError:
        config = True  # reported once, when the file is read
    try:
        launch = kind in ("shell", "yaml", "dockerfile") and may_be_launch(data, path)
    except PackError:
        launch = False  # the declared pack's diagnostic comes with its config files
    return config, launch


def _framework_config(ctx: Context, kind: str, data: bytes) -> None:
    from vllm_lint.frameworks import lint_config
    from vllm_lint.frameworks.engine import ConfigSyntaxError
    from vllm_lint.frameworks.pack import PackError

    try:
        findings, applied = lint_config(ctx.source, ctx.path, kind, ctx.version, data, ctx.version_source)
    except ConfigSyntaxError as error:
        raise ParseError(error.reason, error.line, error.col) from None
    except PackError as error:
        raise ParseError(f"framework pack: {error}") from None
    ctx.framework_findings.extend((finding, None) for finding in findings)
    ctx.frameworks_applied.extend(applied)


class ParseError(Exception):
    def __init__(self, reason: str, line: int = 1, col: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.col = col


def analyse(ctx: Context, kind: str) -> None:
    """Collect the engines of a file into ``ctx``; raises ParseError."""
    from vllm_lint.launch import shell

    if kind == "shell":
        try:
            _shell_file(ctx)
        except shell.ShellSyntaxError as error:
            line, col = ctx.source.position(error.index)
            raise ParseError(f"{error} (line {line})", line, col) from None
        return
    if kind == "dockerfile":
        from vllm_lint.commandline import dockerfile

        try:
            dockerfile.collect(ctx)
        except shell.ShellSyntaxError as error:
            line, col = ctx.source.position(max(error.index, 0))
            raise ParseError(f"{error} (line {line})", line, col) from None
        return
    if kind == "yaml":
        import yaml

        from vllm_lint.commandline import yamlfile
        from vllm_lint.launch.yamlsrc import AliasError

        try:
            yamlfile.collect(ctx)
        except AliasError as error:
            raise ParseError(f"invalid YAML: {error.reason} (line {error.line})", error.line) from None
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
            line = mark.line + 1 if mark is not None else 1
            col = mark.column if mark is not None else 0
            problem = getattr(error, "problem", None) or str(error).splitlines()[0]
            raise ParseError(f"invalid YAML: {problem} (line {line})", line, col) from None
        return


def _in_project_of(path: str, script: str) -> bool:
    """An absolute path inside the project of ``script``: one the script computed from its own
    location (``"$(dirname "$0")/../configs/serve.yaml"``), as nobody writes the checkout's path."""
    from vllm_lint.launch.project import project_root

    root = project_root(script) or os.path.dirname(os.path.abspath(script))
    return os.path.commonpath([os.path.abspath(root), os.path.normpath(path)]) == os.path.abspath(root)


def _shell_file(ctx: Context) -> None:
    from vllm_lint.launch import shell

    text = ctx.source.text

    def on_command(command) -> None:
        ctx.launch_words(command.words, command.env, command.env_open, None, (command.start, command.end), command.guarded)

    shell.analyse(text, on_command, shell.Mapper(), shell.ShellState(script=ctx.path), True)
