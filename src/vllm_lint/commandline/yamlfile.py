"""YAML files: Kubernetes manifests, docker compose, CI scripts, vLLM config files.

* Kubernetes (any mapping with ``image`` and ``command``/``args``: Pods,
  Deployments, Jobs, LeaderWorkerSets, KServe runtimes, ...): ``command``
  replaces the image's entrypoint, ``args`` follow it; ``env`` entries with a
  ``value`` are known, ``valueFrom`` and ``envFrom`` are not; ``$(VAR)`` is
  substituted from ``env``.  With no ``command``, only the vLLM image
  ``vllm/vllm-openai[:tag]`` has a known entrypoint (``vllm serve``), so its
  ``args`` are engine flags.
* Beaker experiment specs (``tasks: - image: {docker|beaker: ...}``):
  ``command`` replaces the image's entrypoint, ``arguments`` follow it (the
  same as Kubernetes' ``command``/``args``); ``envVars`` entries with a
  ``value`` are known, ``secret`` ones are not.  A ``docker`` image
  ``vllm/vllm-openai`` runs ``vllm serve``; a ``beaker`` image's entrypoint
  is unknown.
* docker compose (a top-level ``services``): ``entrypoint`` and ``command``
  as strings (split like a shell would, without expansion; a folded
  ``command: >`` block too, its line breaks whitespace) or lists;
  ``environment`` as a mapping or a ``KEY=VALUE`` list; ``${VAR}``
  interpolation is unknown.
* CI and launcher scripts: string values of ``run`` (GitHub Actions,
  SkyPilot), ``script``/``before_script``/``after_script`` (GitLab),
  ``commands``/``cmds`` are shell scripts; so is the string of any other key
  named for a command (ending in ``command``, ``cmd`` or ``script``: Truss's
  ``docker_server.start_command``, a scenario's ``customCommand``), outside a
  container.  A script runs in the vLLM image its mapping or one above names
  (``image``, Truss ``base_image.image``, SkyPilot ``image_id: docker:...``).
* KubeAI ``Model`` resources with ``engine: VLLM``: the operator's command
  (``kubeai_model``) in ``spec.image``.
* A vLLM ``--config`` file.  A YAML file is one when (a) a vLLM launch of
  the project names it (``vllm serve ... --config serve.yaml`` in a script,
  manifest, Dockerfile or argv list; ``launch.project.config_launches``): it
  is read with the rest of the command line unknown, against the release of
  the launch's image tag; or (b) its structure says so
  (``launch.configfile.standalone_config``): a flat mapping whose keys are
  all options of some release, one of them vLLM's own, that no Python code of
  the project names (a program that names it may read it as its own settings).  Every key is
  then checked against the argument schema (VLM301/303/304).  When every key
  is an option of the target release and no file of the project names it, it
  is read as ``vllm serve MODEL --config FILE`` reads it (the replay rules
  too, the model and the environment unknown).  A file with a replay setting
  among other keys is neither: only options no release accepts are reported
  (VLM301, VLM302).
* Helm templates: ``{{ ... }}`` is unknown text; list items inside
  ``{{ if }}``/``{{ range }}`` may be absent.  The text of a block scalar
  (``key: |``: a chat template, a script) is never YAML structure: its
  template expressions and control lines stay in place as unknown text, which
  the shell reader takes as it takes ``$VAR`` (one value where a value
  stands, any options where an option's name stands; quoted, part of a word).

A container or service on a tagged vLLM image (``vllm/vllm-openai:v0.31.0``)
is checked against that release, unless the target version was set.
"""

from __future__ import annotations

import re

from vllm_lint.facts import UNKNOWN
from vllm_lint.launch.words import (
    JSON,
    NONE,
    YAML_BLOCK,
    Word,
    open_word,
    synthetic,
)
from vllm_lint.launch.yamlsrc import (
    PLACEHOLDER,
    mapping_entries as _merged,
    mapping_value as _get,
    scalar_value as _scalar,
    Templates,
    compose_all,
    scalar_offsets,
    strip_templates,
)

SCRIPT_KEYS = frozenset({"run", "script", "before_script", "after_script", "commands", "cmds"})
# Other keys a program runs as shell: a serving template's `start_command` (Truss
# `docker_server`), a benchmark scenario's `customCommand`, `build_commands`, `setup_script`.
_SCRIPT_SUFFIXES = ("command", "commands", "cmd", "cmds", "script", "scripts")
ENV_KEYS = frozenset({"env", "envs", "environment", "variables", "environment_variables"})
_IMAGE_KEYS = frozenset({"image", "base_image", "image_id", "resources"})  # where a script's image is named
CONFIG_MARKERS = frozenset(
    {
        "--return-sampling-mask",
        "--enable-return-sampling-mask",
        "--return-sampling-mask-logprobs",
        "--enable-trace-replay",
        "--enable-batch-sharded-sampling",
    }
)
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_K8S_VAR = re.compile(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")
_COMPOSE_VAR = re.compile(r"\$\$|\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*")


def collect(ctx) -> None:

    import yaml

    text = ctx.source.text
    templates = Templates()
    if "{{" in text:
        text, templates = strip_templates(text)
    documents = None
    if "{%" in text or "{#" in text:
        # A file rendered with Jinja is not YAML until rendered; valid YAML that merely holds
        # Jinja (a chat template in a block scalar) is read as it is.
        try:
            documents = list(compose_all(text))
        except yaml.YAMLError:
            text, templates = strip_templates(ctx.source.text, jinja=True)
    reader = _Reader(ctx, templates, text)
    for document in documents if documents is not None else compose_all(text):
        if document is not None:
            reader.document(document)


def _keys(node) -> set[str]:
    import yaml

    if not isinstance(node, yaml.MappingNode):
        return set()
    return {k.value for k, _ in _merged(node) if isinstance(k, yaml.ScalarNode)}


def _line(node) -> int:
    return node.start_mark.line + 1


class _Reader:
    def __init__(self, ctx, templates: Templates, text: str) -> None:
        self.ctx = ctx
        self.templates = templates
        self.text = text  # the file as composed: each template expression as unknown characters in place
        self._installed: dict[int, tuple] = {}  # per mapping: the vLLM its scripts installed so far

    # -------------------------------------------------------------- documents

    def document(self, root) -> None:
        import yaml

        keys = _keys(root)
        if "services" in keys and isinstance(_get(root, "services"), yaml.MappingNode):
            for _name, service in _get(root, "services").value:
                if isinstance(service, yaml.MappingNode):
                    self.compose_service(service)
            return
        from vllm_lint.commandline.operators import kaito_config_map, production_stack_values

        if kaito_config_map(self, root) or production_stack_values(self, root):
            return  # a platform's map of a server's options
        if isinstance(root, yaml.MappingNode) and not keys & {"apiVersion", "kind"}:
            if self._config_document(root):
                return
        self.walk(root, env_above=False)

    def _config_document(self, root) -> bool:
        """Read the document as a vLLM ``--config`` file when it is one; True when it was.

        * A launch of the project names it (``vllm serve ... --config serve.yaml`` in a script,
          manifest, Dockerfile or argv list): the launch decides; its image tag, when every
          launch agrees on one, is the release (unless the target version was set).  The rest
          of the command line is the launch's, unknown here.
        * Its structure says so (``configfile.standalone_config``) and no Python code of the
          project names it (``project.read_by_program``): read as
          ``vllm serve MODEL --config FILE`` when every key is an option of the target release
          and no file names it, else with the rest of the command line unknown.
        * A replay setting among other keys: only options no release has are reported.
        """
        from vllm_lint.launch.configfile import config_like, flat_mapping, only_options
        from vllm_lint.launch.project import config_launches, read_by_program

        templated = bool(self.templates.lines) or PLACEHOLDER in self.ctx.source.text
        markers = self._is_vllm_config(root)
        flat = None if templated else flat_mapping(root)
        standalone = flat is not None and config_like(flat) and only_options(flat)
        plain = self.ctx.path not in ("-", "stdin", "<stdin>")
        # Only a file shaped like a config may be one a launch names (the search reads the project).
        if plain and (markers or flat is not None):
            launches, release = config_launches(self.ctx.path)
            if launches:
                version = None
                if release is not None and not getattr(self.ctx, "explicit_version", False):
                    from vllm_lint.versions import Version

                    version = Version.parse(release)
                self.ctx.add_config_document(root, whole=False, schema=True, version=version)
                return True
        if standalone and not (plain and read_by_program(self.ctx.path)):
            # A program of the project that names the file may read it as its own settings.
            self.ctx.add_config_document(root, whole=self._is_serve_config(root), schema=True)
            return True
        if markers:
            self.ctx.add_config_document(root, whole=self._is_serve_config(root))
            return True
        return False

    def _is_serve_config(self, root) -> bool:
        """Every top-level key is a `vllm serve` option of the release (more than one), no file names it."""
        import yaml

        from vllm_lint.launch.options import is_serve_option
        from vllm_lint.launch.project import named_elsewhere

        if self.templates.lines or PLACEHOLDER in self.ctx.source.text:
            return False
        keys = []
        for key_node, _value in root.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
                return False
            keys.append(key_node.value)
        if len(set(keys)) < 2 or not all(is_serve_option(key, self.ctx.version) for key in keys):
            return False
        return self.ctx.path not in ("-", "stdin", "<stdin>") and not named_elsewhere(self.ctx.path)

    def _is_vllm_config(self, root) -> bool:
        from vllm_lint.launch.flags import _normalise

        for key in _keys(root):
            if _normalise("--" + key) in CONFIG_MARKERS:
                return True
        return False

    def walk(self, node, env_above: bool) -> None:
        import yaml

        # Each node with the environment above it (open or not), the vLLM image its scripts run
        # in, and the image they run in whatever it is.
        stack = [(node, env_above, None, None)]
        while stack:
            current, above, image, named = stack.pop()
            if isinstance(current, yaml.MappingNode):
                keys = _keys(current)
                has_env = bool(keys & ENV_KEYS)
                container = "image" in keys and bool(keys & {"command", "args", "arguments"})
                if container:
                    self.container(current)
                elif "apiVersion" in keys and "spec" in keys and _kubeai_model(current):
                    self.kubeai_model(current)
                    continue
                if keys & _IMAGE_KEYS:
                    image = _image_of(current) or image
                    named = _named_image(current) or named
                # A SkyPilot task's ``setup`` runs before its ``run``, wherever it is written.
                skypilot = "setup" in keys and "run" in keys
                entries = sorted(current.value, key=lambda item: _scalar(item[0]) != "setup") if skypilot else current.value
                for key_node, value_node in entries:
                    key = _scalar(key_node)
                    if key in SCRIPT_KEYS or (skypilot and key == "setup") or (not container and _script_key(key, value_node)):
                        self.scripts(current, value_node, above or has_env, image, named)
                    elif isinstance(value_node, (yaml.MappingNode, yaml.SequenceNode)):
                        stack.append((value_node, above or has_env, image, named))
            elif isinstance(current, yaml.SequenceNode):
                for item in current.value:
                    stack.append((item, above, image, named))

    # ---------------------------------------------------------------- words

    def words_of(self, sequence) -> list[Word] | None:
        """argv words of a YAML list (exec form); None when it is not a list."""
        import yaml

        if not isinstance(sequence, yaml.SequenceNode):
            return None
        style = JSON if sequence.flow_style else YAML_BLOCK
        events = self.templates.events(_line(sequence), sequence.end_mark.line + 1) if self.templates.lines else []
        words: list[Word] = []
        depth = 0
        event_index = 0
        for item in sequence.value:
            while event_index < len(events) and events[event_index][0] < _line(item):
                depth = _apply_event(events[event_index][1], depth, words)
                event_index += 1
            word = self.item_word(item, style)
            word.maybe = depth > 0
            words.append(word)
        while event_index < len(events):
            depth = _apply_event(events[event_index][1], depth, words)
            event_index += 1
        for index, word in enumerate(words):
            word.extra.setdefault("items", words)
            word.extra.setdefault("index", index)
        return words

    def item_word(self, node, style: str) -> Word:
        import yaml

        start, end = node.start_mark.index, node.end_mark.index
        if not isinstance(node, yaml.ScalarNode):
            return Word(None, start, end, style=NONE)
        value = node.value
        offs = self.offsets(node)
        if PLACEHOLDER in value:
            prefix = value.split(PLACEHOLDER, 1)[0]
            word = Word(None, start, end, prefix=prefix, style=style, multiline=node.style == "|")
            # As ``sh -c``'s script, the text around the template's expressions is read.
            word.extra["script"] = (value, offs)  # offsets that do not match the text are dropped where it is read
            return word
        word = Word(value, start, end, offs=offs, style=style, multiline=node.style == "|")
        word.quote = node.style if node.style in ('"', "'") else ""
        word.extra["yaml_style"] = node.style
        return word

    def offsets(self, node) -> list[int] | None:
        """Where each character of a scalar is written; a template expression's characters are
        found where the composed text holds them (the file's text is as long)."""
        text = self.text if PLACEHOLDER in node.value and len(self.text) == len(self.ctx.source.text) else self.ctx.source.text
        return scalar_offsets(text, node)

    def string_words(self, node) -> list[Word] | None:
        """A command written as one string (compose): split as a shell would, without expansion."""
        from vllm_lint.launch import shell

        value = _scalar(node)
        if value is None:
            return None
        if PLACEHOLDER in value:
            return [open_word(node.start_mark.index, node.end_mark.index)]
        offs = scalar_offsets(self.ctx.source.text, node)
        mapper = shell.Mapper(offs) if offs is not None else None
        try:
            tokens = shell.lex(value)
        except shell.ShellSyntaxError:
            return None
        # compose splits the string as shlex does: a line break (a literal block, or the one a
        # folded ``command: >`` ends with) is whitespace there.
        tokens = [token for token in tokens if not isinstance(token, shell.Newline)]
        if any(not isinstance(token, shell.RawWord) for token in tokens):
            return None  # operators: compose passes them as words; not followed
        words: list[Word] = []
        state = shell.ShellState()
        for raw in tokens:
            if mapper is None:
                expanded = shell.expand(raw, state, shell.Mapper(shift=0), multiline=False)
                for word in expanded:
                    word.start, word.end, word.offs, word.style = node.start_mark.index, node.end_mark.index, None, NONE
                words.extend(expanded)
            else:
                words.extend(shell.expand(raw, state, mapper, multiline=node.style == "|"))
        return words

    # ----------------------------------------------------------- kubernetes

    def container(self, node) -> None:
        import yaml

        image_node = _get(node, "image")
        # Beaker tasks: image {docker: name} or {beaker: name}, arguments, envVars; no $(VAR) substitution.
        beaker = isinstance(image_node, yaml.MappingNode) or bool(_keys(node) & {"arguments", "envVars"})
        if isinstance(image_node, yaml.MappingNode):
            image_node = _get(image_node, "docker")
        env, env_open = self.k8s_env(node, substitute=not beaker)
        image = _scalar(image_node)
        rendered = self._helm_image(image, image_node) or self._kustomized_image(image)
        command = _get(node, "command")
        args = _get(node, "args")
        arguments = _get(node, "arguments")  # Beaker's name for args
        if args is not None and arguments is not None:
            return
        args = args if args is not None else arguments
        argv: list[Word] = []
        if command is not None:
            words = self.words_of(command)
            if words is None:
                return
            argv.extend(words)
        elif image is not None and _server_image(rendered or image):
            argv.extend(_entrypoint(image_node))
        else:
            return
        if args is not None:
            words = self.words_of(args)
            if words is None:
                return
            argv.extend(words)
        if not beaker:
            argv = [_substitute_k8s(word, env, env_open) for word in argv]
        self._launch_in(rendered or image, argv, env, env_open, node)

    def _helm_image(self, image: str | None, image_node) -> str | None:
        """A templated image rendered from its chart's values.yaml and Chart.yaml, when it can be."""
        self.ctx.image_tag_at = ""
        if image is None or PLACEHOLDER not in image or self.ctx.path in ("-", "stdin", "<stdin>"):
            return None
        from vllm_lint.launch.helm import rendered_image_and_tag_source

        written = self.ctx.source.text[image_node.start_mark.index : image_node.end_mark.index]
        rendered, self.ctx.image_tag_at = rendered_image_and_tag_source(written, self.ctx.path)
        return rendered

    def _kustomized_image(self, image: str | None) -> str | None:
        """The image the kustomizations that build this manifest give the container (their
        ``images`` entry's ``newTag``/``newName``/``digest``); when overlays disagree on the
        release, an image that names none (each overlay is one way to deploy it)."""
        if image is None or PLACEHOLDER in image or self.ctx.path in ("-", "stdin", "<stdin>"):
            return None
        from vllm_lint.launch.kustomize import kustomized_images
        from vllm_lint.launch.launchers import image_release

        built = kustomized_images(image, self.ctx.path)
        if not built:
            return None
        releases = {(version.major, version.minor) if version else None for version in (image_release(name) for name, _override in built)}
        if len(releases) > 1:
            return built[0][0].rpartition(":")[0] + ":overlays"  # no one release
        self.ctx.image_tag_at = ", ".join(override.where for _name, override in built)
        return built[0][0]

    def k8s_env(self, node, substitute: bool = True) -> tuple[dict[str, object], bool]:
        """``env`` (Kubernetes) or ``envVars`` (Beaker): ``name`` with ``value``; anything else is unknown."""
        import yaml

        env: dict[str, object] = {}
        env_open = _get(node, "envFrom") is not None
        entries = _get(node, "env")
        beaker = _get(node, "envVars")
        if entries is not None and beaker is not None:
            return env, True
        entries = entries if entries is not None else beaker
        if entries is None:
            return env, env_open
        if not isinstance(entries, yaml.SequenceNode):
            return env, True
        if self.templates.events(_line(entries), entries.end_mark.line + 1):
            env_open = True
        for entry in entries.value:
            name = _scalar(_get(entry, "name"))
            if name is None or PLACEHOLDER in name:
                env_open = True
                continue
            value = _scalar(_get(entry, "value"))
            if value is None or PLACEHOLDER in value:
                env[name] = UNKNOWN  # valueFrom, or a template
            else:
                env[name] = _expand_k8s_text(value, env) if substitute else value
        return env, env_open

    # --------------------------------------------------------------- compose

    def compose_service(self, node) -> None:
        import yaml

        env, env_open = self.compose_env(node)
        image = _scalar(_get(node, "image"))
        entrypoint = _get(node, "entrypoint")
        command = _get(node, "command")
        argv: list[Word] = []
        built = None
        if entrypoint is not None:
            words = self.words_of(entrypoint) if isinstance(entrypoint, yaml.SequenceNode) else self.string_words(entrypoint)
            if words is None:
                return
            argv.extend(words)
        elif image is not None and _server_image(image):
            argv.extend(_entrypoint(_get(node, "image")))
        elif command is not None and (built := self._built_server(_get(node, "build"))) is not None:
            # Built here from vLLM's server image, whose `vllm serve` entrypoint it keeps.
            argv.extend(_entrypoint(_get(node, "build")))
        elif command is None:
            return
        if command is not None:
            words = self.words_of(command) if isinstance(command, yaml.SequenceNode) else self.string_words(command)
            if words is None:
                return
            argv.extend(words)
        argv = [_compose_word(word) for word in argv]
        if built is None:
            self._launch_in(image, argv, env, env_open, node)
            return
        saved = self.ctx.installed, self.ctx.installed_at
        if built.installed is not None and not getattr(self.ctx, "explicit_version", False):
            self.ctx.installed, self.ctx.installed_at = built.installed, built.installed_at
        self.ctx.image_tag_at = built.at  # the release is named in the Dockerfile
        try:
            self._launch_in(built.base, argv, env, env_open, node, _get(node, "build"))
        finally:
            self.ctx.installed, self.ctx.installed_at = saved

    def _built_server(self, build):
        """A compose service's ``build:`` (a context folder, or ``context``/``dockerfile``/
        ``target``): the vLLM server image its Dockerfile builds from, when the build keeps
        that image's entrypoint (``dockerfile.built_server_image``); None otherwise."""
        import os

        import yaml

        if build is None or self.ctx.path in ("-", "stdin", "<stdin>"):
            return None
        if isinstance(build, yaml.ScalarNode):
            context, dockerfile, target = _scalar(build), "Dockerfile", None
        elif isinstance(build, yaml.MappingNode):
            context = _scalar(_get(build, "context")) or "."
            dockerfile = _scalar(_get(build, "dockerfile")) or "Dockerfile"
            target = _scalar(_get(build, "target"))
        else:
            return None
        parts = (context, dockerfile, target or "")
        if context is None or any("$" in part or PLACEHOLDER in part or "://" in part for part in parts):
            return None  # interpolated, or a remote context
        folder = os.path.join(os.path.dirname(os.path.abspath(self.ctx.path)), context)
        path = os.path.join(folder, dockerfile)
        try:
            if os.path.getsize(path) > 1_000_000:
                return None
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError, ValueError):
            return None
        from vllm_lint.commandline.dockerfile import built_server_image
        from vllm_lint.config import display_path

        return built_server_image(text, display_path(path), target)

    def _launch_in(self, image: str | None, argv: list[Word], env: dict[str, object], env_open: bool, node, image_node=None) -> None:
        """Launch a container's command; a tagged vLLM image names the release it runs."""
        self.ctx.image = image
        image_node = image_node or _get(node, "image") or _get(_get(node, "spec"), "image")
        self.ctx.image_line = _line(image_node) if image_node is not None else 0
        before = len(self.ctx.records)
        try:
            self.ctx.launch_words(argv, env, env_open, node)
        finally:
            self.ctx.image = None
            self.ctx.image_tag_at = ""
            self.ctx.image_line = 0
        self._release_of_image(image, before)

    def _release_of_image(self, image: str | None, before: int) -> None:
        """Commands that run in an image whose vLLM the file does not name (a custom or dev
        build, ``rocm/vllm-dev:open-mi300-08052025``, a templated name) run that image's
        release, not the one the folder pins: only what no known release accepts is reported
        about their arguments.  ``vllm/vllm-openai`` untagged or ``latest`` is the newest; a
        rebuild's ``latest`` (``lmcache/vllm-openai:latest``) is whatever its owner built."""
        if image is None or not self.ctx.image_names_no_release(image):
            return
        for record in self.ctx.records[before:]:
            record.facts.release_unknown = True

    def compose_env(self, node) -> tuple[dict[str, object], bool]:
        import yaml

        env: dict[str, object] = {}
        env_open = _get(node, "env_file") is not None
        entries = _get(node, "environment")
        if entries is None:
            return env, env_open
        if isinstance(entries, yaml.MappingNode):
            for key_node, value_node in entries.value:
                name = _scalar(key_node)
                value = _scalar(value_node)
                if name is None:
                    env_open = True
                elif value is None or value_node.tag == "tag:yaml.org,2002:null" or _COMPOSE_VAR.search(value) or PLACEHOLDER in value:
                    env[name] = UNKNOWN
                else:
                    env[name] = value
        elif isinstance(entries, yaml.SequenceNode):
            for item in entries.value:
                text = _scalar(item)
                if text is None:
                    env_open = True
                    continue
                name, eq, value = text.partition("=")
                env[name] = value if eq and not _COMPOSE_VAR.search(value) and PLACEHOLDER not in value else UNKNOWN
        else:
            env_open = True
        return env, env_open

    # ---------------------------------------------------------------- scripts

    def scripts(self, owner, value_node, env_above: bool, image: str | None = None, named: str | None = None) -> None:
        import yaml

        env: dict[str, object] = {}
        env_open = env_above
        for key in ENV_KEYS:
            block = _get(owner, key)
            if block is None:
                continue
            if isinstance(block, yaml.MappingNode):
                for key_node, item in block.value:
                    name, value = _scalar(key_node), _scalar(item)
                    if name is None:
                        env_open = True
                    else:
                        env[name] = value if value is not None and "$" not in value and PLACEHOLDER not in value else UNKNOWN
            elif isinstance(block, yaml.SequenceNode) and all(isinstance(item, yaml.ScalarNode) for item in block.value):
                # dstack's `env: [NAME=VALUE, NAME]`: a bare name takes its value from where the task is started.
                for item in block.value:
                    name, eq, value = (_scalar(item) or "").partition("=")
                    if not _ENV_NAME.match(name):
                        env_open = True
                    else:
                        env[name] = value if eq and "$" not in value and PLACEHOLDER not in value else UNKNOWN
            else:
                env_open = True
        nodes = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
        self.ctx.image = image
        # A mapping's scripts run one after another on one machine (SkyPilot's setup, then run):
        # what an earlier one installs, later ones run.
        self.ctx.installed, self.ctx.installed_at = self._installed.get(id(owner), (None, ""))
        before = len(self.ctx.records)
        try:
            for node in nodes:
                if isinstance(node, yaml.ScalarNode):  # a template's expressions are unknown text
                    offs = self.offsets(node)
                    self.ctx.shell_script(node.value, offs, node.start_mark.index, env, env_open, multiline=node.style == "|")
            self._release_of_image(image or named, before)
        finally:
            self.ctx.image = None
            self._installed[id(owner)] = (self.ctx.installed, self.ctx.installed_at)
            self.ctx.installed, self.ctx.installed_at = None, ""

    # ---------------------------------------------------------------- KubeAI

    def kubeai_model(self, node) -> None:
        """A KubeAI ``Model`` with ``engine: VLLM``: the operator starts
        ``python3 -m vllm.entrypoints.openai.api_server --model=REF --served-model-name=NAME``
        (``--load-format=runai_streamer`` for an ``s3://`` url), then ``spec.args``, then
        ``--enable-lora`` when the model has adapters, with ``spec.env`` as the environment,
        in ``spec.image``; without one, in the image the operator is configured with: when no
        image tag names the release, only options no known release has are reported."""
        import yaml

        spec = _get(node, "spec")
        engine = _get(spec, "engine")
        name = _scalar(_get(_get(node, "metadata"), "name"))
        url = _scalar(_get(spec, "url")) or ""
        args = _get(spec, "args")
        anchor = Word(engine.value, engine.start_mark.index, engine.end_mark.index, style=NONE)
        words = [synthetic(text, anchor) for text in ("python3", "-m", "vllm.entrypoints.openai.api_server")]
        scheme, _sep, rest = url.partition("://")
        if _get(spec, "cacheProfile") is not None or PLACEHOLDER in url or not rest:
            model = None  # a cache directory the operator chooses
        elif scheme == "pvc":
            model = "/model"
        elif scheme in ("s3", "gs", "oss"):
            model = url
        else:
            model = rest
        words.append(synthetic("--model=" + model, anchor) if model is not None else Word(None, anchor.start, anchor.end, prefix="--model=", style=NONE))
        if name is not None and PLACEHOLDER not in name:
            words.append(synthetic("--served-model-name=" + name, anchor))
        else:
            words.append(Word(None, anchor.start, anchor.end, prefix="--served-model-name=", style=NONE))
        if scheme == "s3" and _get(spec, "cacheProfile") is None:
            words.append(synthetic("--load-format=runai_streamer", anchor))
        if args is not None:
            arg_words = self.words_of(args)
            if arg_words is None:
                return
            words.extend(arg_words)
        env: dict[str, object] = {}
        env_open = _get(spec, "envFrom") is not None
        if _get(spec, "adapters") is not None:
            words.append(synthetic("--enable-lora", anchor))
            env["VLLM_ALLOW_RUNTIME_LORA_UPDATING"] = "True"
        entries = _get(spec, "env")
        if isinstance(entries, yaml.MappingNode):
            for key_node, value_node in entries.value:
                key, value = _scalar(key_node), _scalar(value_node)
                if key is None or PLACEHOLDER in key:
                    env_open = True
                else:
                    env[key] = value if value is not None and PLACEHOLDER not in value else UNKNOWN
        elif entries is not None:
            env_open = True
        image = _scalar(_get(spec, "image"))
        from vllm_lint.launch.launchers import image_release

        before = len(self.ctx.records)
        self._launch_in(image, words, env, env_open, node)
        if image is None or image_release(image) is None:
            # The operator's configured image (or an image that names no release) runs it.
            for record in self.ctx.records[before:]:
                record.facts.release_unknown = True


def _script_key(key: str | None, value_node) -> bool:
    """A key whose string (or list of strings, for a plural name) a program runs as shell:
    its name ends in command, cmd or script (``start_command``, ``customCommand``)."""
    import yaml

    if key is None:
        return False
    name = key.lower().replace("_", "").replace("-", "")
    if not name.endswith(_SCRIPT_SUFFIXES):
        return False
    if isinstance(value_node, yaml.ScalarNode):
        return value_node.tag == "tag:yaml.org,2002:str"
    return isinstance(value_node, yaml.SequenceNode) and name.endswith("s")


def _image_of(node) -> str | None:
    """The vLLM image a mapping's scripts run in: its ``image`` (dstack, SkyPilot's
    ``image_id: docker:...``) or ``base_image.image`` (Truss); None for another image."""
    import yaml

    base = _get(node, "base_image")
    candidates = [_get(node, "image"), _get(base, "image") if isinstance(base, yaml.MappingNode) else base]
    image_id = _image_id(node)
    for candidate in candidates:
        text = _scalar(candidate)
        if text is not None and _vllm_image(text) and PLACEHOLDER not in text:
            return text.strip()
    if image_id is not None and image_id.startswith("docker:") and _vllm_image(image_id[7:]):
        return image_id[7:].strip()
    return None


def _named_image(node) -> str | None:
    """The image a mapping's scripts run in, whatever it is (``image``, ``base_image.image``,
    SkyPilot's ``image_id: docker:...``)."""
    import yaml

    base = _get(node, "base_image")
    for candidate in (_get(node, "image"), _get(base, "image") if isinstance(base, yaml.MappingNode) else base):
        text = _scalar(candidate)
        if text is not None and text.strip():
            return text.strip()
    image_id = _image_id(node)
    if image_id is not None and image_id.startswith("docker:"):
        return image_id[7:].strip()
    return None


def _image_id(node) -> str | None:
    """SkyPilot's ``image_id``, of the task or of its ``resources`` (where the task YAML
    reference puts it); None when ``resources`` lists several candidates (``any_of``)."""
    image_id = _scalar(_get(node, "image_id")) or _scalar(_get(_get(node, "resources"), "image_id"))
    return image_id


def _kubeai_model(node) -> bool:
    """A KubeAI ``Model`` resource served by vLLM (``spec.engine: VLLM``)."""
    api = _scalar(_get(node, "apiVersion"))
    return (
        api is not None
        and api.startswith("kubeai.org/")
        and _scalar(_get(node, "kind")) == "Model"
        and _scalar(_get(_get(node, "spec"), "engine")) == "VLLM"
    )


def _apply_event(kind: str, depth: int, words: list[Word]) -> int:
    if kind == "open":
        return depth + 1
    if kind == "close":
        return max(0, depth - 1)
    if kind == "emit":
        words.append(open_word(maybe=depth > 0))
    return depth


def _vllm_image(image: str) -> bool:
    from vllm_lint.launch.launchers import is_vllm_image

    image = image.strip()
    if PLACEHOLDER in image:
        # vllm/vllm-openai:{{ .Values.tag }}: a templated tag is still the vLLM image.
        repository, colon, _tag = image.partition(":")
        return bool(colon) and PLACEHOLDER not in repository and is_vllm_image(repository)
    return is_vllm_image(image)


def _server_image(image: str) -> bool:
    """The image's entrypoint is vLLM's server: vLLM's image (a templated tag too), a rebuild
    named after it, or an image the project declares (``images.starts_vllm_server``)."""
    from vllm_lint.images import starts_vllm_server

    return _vllm_image(image) or (PLACEHOLDER not in image and starts_vllm_server(image))


def _entrypoint(image_node) -> list[Word]:
    """The vLLM server image's ENTRYPOINT ["vllm", "serve"], located at the image (or at the
    ``build:`` that builds it)."""
    text = image_node.value if isinstance(image_node.value, str) else "build"
    anchor = Word(text, image_node.start_mark.index, image_node.end_mark.index, style=NONE)
    return [synthetic("vllm", anchor), synthetic("serve", anchor)]


def _substitute_k8s(word: Word, env: dict[str, object], env_open: bool = True) -> Word:
    """Kubernetes replaces $(VAR) in command and args with the container's env; a reference
    to a variable the container does not define stays as written (``$(date)`` in a script)."""
    if word.text is None or "$(" not in word.text:
        return word
    text = _expand_k8s_text(word.text, env, env_open)
    if text == word.text:
        return word  # nothing replaced: the word keeps its place in the file
    if text is UNKNOWN:
        return Word(None, word.start, word.end, prefix=word.text.split("$(", 1)[0], style=word.style, maybe=word.maybe, extra=word.extra)
    return Word(text, word.start, word.end, offs=_k8s_offsets(word, env, env_open), style=word.style, maybe=word.maybe, quote=word.quote, extra=word.extra)


def _k8s_offsets(word: Word, env: dict[str, object], env_open: bool) -> list[int] | None:
    """Where each character of the substituted text is written: the text around a reference
    keeps its place (so a flag in a script after ``$(MODEL)`` can still be fixed)."""
    if word.offs is None or len(word.offs) != len(word.text):
        return None
    offs: list[int] = []
    position = 0
    for match in _K8S_VAR.finditer(word.text):
        offs.extend(word.offs[position : match.start()])
        replaced = _expand_k8s_text(match.group(0), env, env_open)
        offs.extend([-1] * len(replaced) if isinstance(replaced, str) else [])
        position = match.end()
    offs.extend(word.offs[position:])
    return offs


def _expand_k8s_text(text: str, env: dict[str, object], env_open: bool = True) -> object:
    unknown = False

    def replace(match: re.Match) -> str:
        nonlocal unknown
        if match.group(0) == "$$":
            return "$"
        if match.group(1) not in env and not env_open:
            return match.group(0)  # not a variable of the container: Kubernetes leaves it
        value = env.get(match.group(1), UNKNOWN)
        if not isinstance(value, str):
            unknown = True
            return ""
        return value

    result = _K8S_VAR.sub(replace, text)
    return UNKNOWN if unknown else result


def _compose_word(word: Word) -> Word:
    """compose interpolates ${VAR} / $VAR in every value: unknown here."""
    if word.text is None or "$" not in word.text:
        return word
    if "$" in word.text.replace("$$", ""):
        return Word(None, word.start, word.end, prefix=word.text.split("$", 1)[0], style=word.style, maybe=word.maybe, extra=word.extra)
    return Word(word.text.replace("$$", "$"), word.start, word.end, offs=None, style=word.style, maybe=word.maybe, extra=word.extra)
