"""Which argv starts a vLLM engine, and where its engine flags begin.

Recognised, after wrappers (``env``, ``nohup``, ``exec``, ``time``, ``nice``,
``timeout``, ``setsid``, ``uv run`` and the like):

* ``vllm serve [MODEL] ...``
* ``python[3[.X]] [-u ...] -m vllm.entrypoints.openai.api_server ...``
* ``python -m vllm.entrypoints.cli.main serve ...``
* ``python -m dynamo.vllm ...`` (NVIDIA Dynamo's vLLM worker forwards engine flags)
* ``python -m project.module ...`` / ``python path/to/module.py ...`` where the
  module is the project's own wrapper of vLLM's OpenAI server (``wrappers``):
  found from the linted file's project, when the caller passes a ``WrapperFinder``
* ``docker run [options] IMAGE FLAGS`` for an image whose entrypoint is ``vllm serve``
  (``vllm/vllm-openai[:tag]``, a rebuild named after it, a declared ``server-images`` entry)
* ``docker exec [options] CONTAINER COMMAND``: the command, in the container's environment
  (unknown, but for ``-e``) and in an image the command does not name, so its release is unknown.
* ``sh|bash -c SCRIPT``: the script is read as a shell script; what the calling shell expanded
  in it to values unknown here (``sh -c "vllm serve m --port ${PORT}"``) stays an unknown value
  of the script (``shell.OUTER_VALUE``).
* ``ray job submit [options] -- COMMAND``: the command runs as a Ray job, in the
  cluster's environment and the job's runtime environment, not the shell's: the
  variables ``--runtime-env-json '{"env_vars": {...}}'`` sets are known, the rest
  is unknown, and a ``vllm`` its ``pip`` list installs is the release the job runs.
  Without ``--`` the command is not followed.
* ``sudo [options] [VAR=value ...] COMMAND``: without ``-E``/``--preserve-env``
  sudo starts the command in a fresh environment, so variables set before it
  do not reach vLLM; what the sudoers policy keeps is not visible, so the rest
  of that environment is unknown.  ``VAR=value`` after sudo is set.

Anything else (``python -m sglang.launch_server``, ``vllm bench``, an unknown
program) is not a vLLM engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vllm_lint.facts import ABSENT, UNKNOWN
from vllm_lint.launch.flags import API_SERVER, DYNAMO, SERVE, Dialect
from vllm_lint.launch.words import Word
from vllm_lint.images import VLLM_IMAGE, image_release, is_vllm_build, is_vllm_image, starts_vllm_server  # noqa: F401 - the names front ends import from here

_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)?)?$")
_PIP = re.compile(r"^pip(?:\d+(?:\.\d+)?)?$")  # not an engine, but what it installs is the release later commands run
_SHELLS = frozenset({"sh", "bash", "dash", "ash", "ksh"})
_PYTHON_FLAGS_WITH_VALUE = frozenset({"-W", "-X", "--check-hash-based-pycs"})
_RUNNERS = frozenset({"uv", "poetry", "pdm", "pixi", "hatch", "rye", "pipenv"})
MODULES = {
    "vllm.entrypoints.openai.api_server": API_SERVER,
    "dynamo.vllm": DYNAMO,
}


@dataclass
class Launch:
    dialect: Dialect
    args: list[Word]
    anchor: list[Word]  # the launcher's own words (vllm serve; python -m module)
    env: dict[str, object]
    env_open: bool
    image: str | None = None  # docker run's vLLM image, whose tag may name the release
    installs: str | None = None  # the vLLM requirement a Ray job's runtime environment installs
    container: str | None = None  # `docker exec CONTAINER ...`: runs there, in an image the file does not name


@dataclass
class Script:
    """``sh -c SCRIPT``: a script to read with the shell reader."""

    word: Word
    env: dict[str, object]
    env_open: bool
    container: str | None = None  # `docker exec CONTAINER sh -c SCRIPT`: the script runs there


_WRAPPERS = frozenset({"env", "nohup", "exec", "command", "setsid", "time", "builtin", "nice", "timeout", "stdbuf", "docker", "vllm", "sudo", "ray"})


def might_launch(program: str) -> bool:
    """A command starting with this word may start a vLLM engine, or install the vLLM later
    commands run (cheap, before expansion)."""
    name = basename(program)
    return name in _WRAPPERS or name in _SHELLS or name in _RUNNERS or _PYTHON.match(name) is not None or _PIP.match(name) is not None


def basename(text: str) -> str:
    return text.rstrip("/").rsplit("/", 1)[-1]


def find_launch(words: list[Word], env: dict[str, object], env_open: bool, wrappers=None) -> Launch | Script | None:
    """The engine (or the ``sh -c`` script) a command starts; ``wrappers`` finds project server modules."""
    installs: list[str] = []  # what a Ray job's runtime environment installs with pip
    found = _find_launch(words, env, env_open, wrappers, installs)
    if installs and isinstance(found, Launch):
        found.installs = installs[-1]
    return found


def _find_launch(words: list[Word], env: dict[str, object], env_open: bool, wrappers, installs: list[str]) -> Launch | Script | None:
    env = dict(env)
    index = 0
    count = len(words)
    while index < count:
        word = words[index]
        if word.open or word.maybe:
            return None
        text = word.text
        if text is None:
            # An unknown program: "$PYTHON" -m vllm... still runs that module.
            if index + 2 < count and words[index + 1].text == "-m":
                return _python(words, index, env, env_open, wrappers)
            return None
        name = basename(text)
        if name == "env":
            index += 1
            while index < count:
                option = words[index]
                if option.text is None or option.open:
                    return None
                if option.text in ("-i", "--ignore-environment", "-"):
                    env, env_open = {}, False
                elif option.text in ("-u", "--unset") and index + 1 < count and words[index + 1].text:
                    index += 1
                    env[words[index].text] = ABSENT
                elif option.text.startswith("--unset="):
                    env[option.text.split("=", 1)[1]] = ABSENT
                elif option.text == "--":
                    index += 1
                    break
                elif option.text.startswith("-"):
                    return None  # -S, -C: not followed
                elif "=" in option.text and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", option.text):
                    key, value = option.text.split("=", 1)
                    env[key] = value
                else:
                    break
                index += 1
            continue
        if name in ("nohup", "exec", "command", "setsid", "time", "builtin"):
            index += 1
            while index < count and words[index].text is not None and words[index].text.startswith("-"):
                if words[index].text == "-a" and name == "exec":
                    index += 1
                index += 1
            continue
        if name == "nice":
            index += 1
            if index < count and words[index].text == "-n":
                index += 2
            elif index < count and words[index].text is not None and words[index].text.startswith("-"):
                index += 1
            continue
        if name == "timeout":
            index += 1
            while index < count and words[index].text is not None and words[index].text.startswith("-"):
                if words[index].text in ("-s", "-k", "--signal", "--kill-after"):
                    index += 1
                index += 1
            index += 1  # the duration
            continue
        if name == "stdbuf":
            index += 1
            while index < count and words[index].text is not None and words[index].text.startswith("-"):
                index += 1
            continue
        if name == "sudo":
            after = _sudo(words, index + 1, env, env_open)
            if after is None:
                return None
            index, env, env_open = after
            continue
        if name == "ray":
            command = _ray_job_command(words, index + 1)
            if command is None:
                return None
            index, env, env_open = command[0], command[1], True
            installs.extend(command[2])
            continue
        if name in _RUNNERS and index + 1 < count and words[index + 1].text == "run":
            index += 2
            if index < count and words[index].text == "--":
                index += 1
            if index < count and words[index].text is not None and words[index].text.startswith("-"):
                return None  # runner options we do not read
            continue
        if name == "docker":
            if _docker_subcommand(words, index) == "exec":
                return _docker_exec(words, index, env, env_open, wrappers, installs)
            return _docker(words, index)
        if name == "vllm":
            if index + 1 < count and words[index + 1].text == "serve":
                return Launch(SERVE, words[index + 2 :], words[index : index + 2], env, env_open)
            return None
        if _PYTHON.match(name):
            return _python(words, index, env, env_open, wrappers)
        if name in _SHELLS:
            return _shell(words, index, env, env_open)
        return None
    return None


def _ray_job_command(words: list[Word], index: int) -> tuple[int, dict[str, object], list[str]] | None:
    """``ray job submit [options] -- COMMAND``: the index of COMMAND, the variables its
    ``--runtime-env-json`` sets (``{"env_vars": {...}}``: the job's runtime environment, over the
    cluster's) and the vLLM its ``pip`` list installs; None for another ray command, or no
    ``--`` (which words are options' values is not read)."""
    if [word.text for word in words[index : index + 2]] != ["job", "submit"]:
        return None
    env: dict[str, object] = {}
    installs: list[str] = []
    for position in range(index + 2, len(words)):
        text = words[position].text
        if text == "--" and not words[position].open:
            return position + 1, env, installs
        value = None
        if text == "--runtime-env-json" and position + 1 < len(words):
            value = words[position + 1].text
        elif text is not None and text.startswith("--runtime-env-json="):
            value = text.partition("=")[2]
        if value is not None:
            variables, requirements = _runtime_env(value)
            env.update(variables)
            installs.extend(requirements)
    return None


def _runtime_env(text: str) -> tuple[dict[str, object], list[str]]:
    """A Ray runtime environment written as JSON: its ``env_vars`` (a value that is not a
    string is unknown) and the vLLM requirements of its ``pip`` (a list, or ``{"packages": [...]}``);
    nothing for JSON that cannot be read."""
    import json

    from vllm_lint.facts import UNKNOWN

    try:
        runtime_env = json.loads(text)
    except (ValueError, RecursionError):
        return {}, []
    if not isinstance(runtime_env, dict):
        return {}, []
    variables = runtime_env.get("env_vars")
    found = {str(name): value if isinstance(value, str) else UNKNOWN for name, value in variables.items()} if isinstance(variables, dict) else {}
    pip = runtime_env.get("pip")
    packages = pip.get("packages") if isinstance(pip, dict) else pip
    requirements = [item for item in packages if isinstance(item, str) and "vllm" in item.lower()] if isinstance(packages, list) else []
    return found, requirements


# sudo's options that take a value (-u user, --group=group, ...); the others are flags.
_SUDO_VALUE = frozenset("CDgpRrTtUu")
_SUDO_LONG_VALUE = frozenset(
    {"--close-from", "--chdir", "--group", "--host", "--prompt", "--chroot", "--role", "--type", "--command-timeout", "--other-user", "--user"}
)
# Options after which sudo runs no command of ours (a shell, an editor, a listing, help).
_SUDO_NO_COMMAND = frozenset("eilsvVhK")
_SUDO_NO_COMMAND_LONG = frozenset({"--edit", "--login", "--list", "--shell", "--validate", "--version", "--help", "--remove-timestamp"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def _sudo(words: list[Word], index: int, env: dict[str, object], env_open: bool):
    """Skip sudo's options and assignments: (index of the command, its environment), or None."""
    count = len(words)
    preserve: bool | set[str] = False
    while index < count:
        option = words[index]
        text = option.text
        if text is None or option.open:
            return None
        if text == "--":
            index += 1
            break
        if text.startswith("--"):
            name, eq, value = text.partition("=")
            if name in _SUDO_NO_COMMAND_LONG:
                return None
            if name == "--preserve-env":
                if eq:
                    kept = set(value.split(","))
                    preserve = kept if preserve is False else (preserve | kept if isinstance(preserve, set) else True)
                else:
                    preserve = True
            elif name in _SUDO_LONG_VALUE and not eq:
                index += 1
            index += 1
            continue
        if text.startswith("-") and len(text) > 1:
            letters = text[1:]
            for position, letter in enumerate(letters):
                if letter in _SUDO_NO_COMMAND:
                    return None
                if letter == "E":
                    preserve = True
                if letter in _SUDO_VALUE:
                    if position == len(letters) - 1:
                        index += 1  # the value is the next word
                    break  # the rest of this word is the value
            index += 1
            continue
        break
    # The command's environment: the caller's (-E), some of it (--preserve-env=A,B),
    # or a fresh one whose contents the sudoers policy decides (unknown to us).
    if preserve is True:
        result, result_open = dict(env), env_open
    else:
        kept = preserve if isinstance(preserve, set) else set()
        result = {key: value for key, value in env.items() if key in kept}
        for key in kept - set(env):
            result[key] = UNKNOWN if env_open else ABSENT
        result_open = True
    while index < count and words[index].text is not None and _ASSIGNMENT.match(words[index].text):
        key, value = words[index].text.split("=", 1)
        result[key] = value
        index += 1
    if index < count and (words[index].text is None or words[index].open):
        return None
    return index, result, result_open


def _python(words: list[Word], index: int, env, env_open, wrappers=None) -> Launch | None:
    count = len(words)
    position = index + 1
    while position < count:
        option = words[position].text
        if option is None or words[position].open:
            return None
        if option == "-m":
            position += 1
            break
        if option.startswith("-m") and len(option) > 2:
            module = option[2:]
            return _module(words, index, position, module, position + 1, env, env_open, wrappers)
        if option in _PYTHON_FLAGS_WITH_VALUE:
            position += 2
            continue
        if option.startswith("-") and option != "-" and not option.startswith("-c"):
            position += 1
            continue
        if option.startswith("-c") or wrappers is None:
            return None  # -c code, or a script nobody can look up
        wrapper = wrappers.script(option)  # python path/to/server.py
        if wrapper is None:
            return None
        env, env_open = wrapper.environment(env, env_open)
        return Launch(wrapper.dialect, words[position + 1 :], words[index : position + 1], env, env_open)
    if position >= count or words[position].text is None:
        return None
    return _module(words, index, position, words[position].text, position + 1, env, env_open, wrappers)


def _module(words, index, module_index, module, rest, env, env_open, wrappers=None) -> Launch | None:
    if module == "vllm.entrypoints.cli.main":
        if rest < len(words) and words[rest].text == "serve":
            return Launch(SERVE, words[rest + 1 :], words[index : rest + 1], env, env_open)
        return None
    dialect = MODULES.get(module)
    if dialect is None:
        wrapper = wrappers.module(module) if wrappers is not None else None
        if wrapper is None:
            return None
        dialect = wrapper.dialect
        env, env_open = wrapper.environment(env, env_open)
    return Launch(dialect, words[rest:], words[index:rest], env, env_open)


def _shell(words: list[Word], index: int, env, env_open) -> Script | None:
    count = len(words)
    position = index + 1
    command_mode = False
    while position < count:
        option = words[position].text
        if words[position].open:
            return None
        if option is None:
            break  # the script, with values the outer shell expanded
        if option in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            position += 2
            continue
        if option.startswith("--"):
            position += 1
            continue
        if option.startswith(("-", "+")) and len(option) > 1:
            if "c" in option[1:]:
                command_mode = True
            position += 1
            continue
        break
    if not command_mode or position >= count:
        return None
    script = words[position]
    if script.open or (script.text is None and "script" not in script.extra):
        return None
    return Script(script, env, env_open)  # with the outer shell's unknown values in place


# docker run options that take a value (the rest are flags); enough to find the image.
_DOCKER_VALUE_OPTIONS = frozenset(
    ["-a", "--attach", "--add-host", "--annotation", "--blkio-weight", "--blkio-weight-device", "--cap-add", "--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-period", "--cpu-quota", "--cpu-rt-period", "--cpu-rt-runtime", "-c", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--device", "--device-cgroup-rule", "--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops", "--dns", "--dns-option", "--dns-search", "--domainname", "--entrypoint", "-e", "--env", "--env-file", "--expose", "--gpus", "--group-add", "--health-cmd", "--health-interval", "--health-retries", "--health-start-interval", "--health-start-period", "--health-timeout", "-h", "--hostname", "--ip", "--ip6", "--ipc", "--isolation", "--kernel-memory", "-l", "--label", "--label-file", "--link", "--link-local-ip", "--log-driver", "--log-opt", "--mac-address", "-m", "--memory", "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount", "--name", "--network", "--net", "--network-alias", "--net-alias", "--oom-score-adj", "--pid", "--pids-limit", "--platform", "-p", "--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "--ulimit", "-u", "--user", "--userns", "--uts", "-v", "--volume", "--volume-driver", "--volumes-from", "-w", "--workdir"]
)


# docker exec options that take a value; the rest are flags.
_DOCKER_EXEC_VALUE_OPTIONS = frozenset(["--detach-keys", "-e", "--env", "--env-file", "-u", "--user", "-w", "--workdir"])


def _docker_subcommand(words: list[Word], index: int) -> str | None:
    position = index + 1
    if position < len(words) and words[position].text == "container":
        position += 1
    return words[position].text if position < len(words) else None


def _docker_exec(words: list[Word], index: int, env, env_open, wrappers, installs: list[str]) -> Launch | Script | None:
    """``docker exec [options] CONTAINER COMMAND...``: the command runs in a running container,
    with that container's environment (unknown here) and ``-e`` variables, and the vLLM of an
    image this command does not name."""
    count = len(words)
    position = index + 2 if words[index + 1].text == "exec" else index + 3
    container_env: dict[str, object] = {}
    container_open = True  # the container's own environment
    while position < count:
        word = words[position]
        text = word.text
        if word.open:
            return None
        if text is None or not text.startswith("-"):
            break  # the container
        name, eq, inline = text.partition("=")
        if name in ("-e", "--env"):
            value = inline if eq else (words[position + 1].text if position + 1 < count else None)
            if value is not None and "=" in value:
                key, val = value.split("=", 1)
                container_env[key] = val
            elif value is not None:
                container_env[value] = env.get(value, UNKNOWN) if not env_open or value in env else UNKNOWN
        position += 2 if name in _DOCKER_EXEC_VALUE_OPTIONS and not eq else 1
    if position + 1 >= count or words[position].open:
        return None
    container = words[position].text or "the container"  # `"$CONTAINER"`: which one does not matter
    found = _find_launch(words[position + 1 :], container_env, container_open, wrappers, installs)
    if isinstance(found, (Launch, Script)):
        found.container = container
    return found


def _docker(words: list[Word], index: int) -> Launch | None:
    count = len(words)
    position = index + 1
    if position < count and words[position].text == "container":
        position += 1
    if position >= count or words[position].text != "run":
        return None
    position += 1
    env: dict[str, object] = {}
    env_open = False
    while position < count:
        word = words[position]
        text = word.text
        if text is None or word.open:
            return None
        if not text.startswith("-"):
            break
        name, eq, inline = text.partition("=")
        if name == "--entrypoint":
            return None
        if name in ("-e", "--env"):
            value = inline if eq else (words[position + 1].text if position + 1 < count else None)
            if value is None:
                env_open = True
            elif "=" in value:
                key, val = value.split("=", 1)
                env[key] = val
            else:
                env[value] = UNKNOWN  # passed through from the host
        elif name == "--env-file":
            env_open = True
        if name in _DOCKER_VALUE_OPTIONS and not eq:
            position += 2
        else:
            position += 1
    if position >= count or not starts_vllm_server(words[position].text):
        return None
    return Launch(SERVE, words[position + 1 :], words[position : position + 1], env, env_open, words[position].text)
