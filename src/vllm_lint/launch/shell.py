"""A small POSIX shell reader: words with positions, variables, exports.

It is not a shell.  It splits a script into simple commands, expands the
words it can (quotes, escapes, ``$VAR`` whose value the script set), and keeps
the rest unknown: an unquoted ``$VAR`` of unknown value may expand to any
number of words, so it becomes an ``open`` word.  Its ``channel`` says how the
author plainly means it (``Reading``, unless the strict reading is chosen):
``"value"`` for a ``$VAR``/``$(cmd)`` that is one value where one value stands,
``"pass-through"`` for the script's own arguments (``"$@"``, ``${@:2}``; in a
function called with the script's arguments).  A function the script calls is
read once per call with ``$1``, ``$#``, ``"$@"`` bound to the call's words
(``Interpreter._call``).  A value
computed by ``$((...))`` is one word (``ONE_WORD``).  An array the script
assigns (``ARGS=( ... )``, ``ARGS+=( ... )``) holds the words its elements
expand to (``ArrayValue``), and ``"${ARGS[@]}"`` expands to them.  A variable holding command text
(``CMD="vllm serve '${MODEL}' ..."``, ``CMD="$CMD --flag"``) keeps that text, one per
way branches set it (``CommandText``, ``LocatedText``), for a shell that reads it again
(``bash -c "$CMD"``, ``eval "$CMD"``, ``exec $CMD``).  Control structures are
followed far enough for a must-analysis: branches are joined (a variable
keeps its value only when every branch agrees), loops forget what they
assign, ``source``/``eval`` forget everything (``eval`` once its text is read), subshells and pipeline
elements do not leak their assignments.

The environment follows the Python front end's convention: a variable the
script does not set is taken as unset.
"""

from __future__ import annotations

import copy
import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from vllm_lint.facts import ABSENT, UNKNOWN, Reading
from vllm_lint.launch.launchers import might_launch
from vllm_lint.launch.words import SHELL, Word, open_word
from vllm_lint.launch.yamlsrc import PLACEHOLDER

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLAIN = re.compile(r"[^\s'\"\\$`;&|()<>" + re.escape(PLACEHOLDER) + "]+")  # a run of characters that need no attention
_PLAIN_QUOTED = re.compile(r'[^"\\$`' + re.escape(PLACEHOLDER) + "]+")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")
_ELEMENT_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\[[^\]]*\]\+?=")
_SPECIAL = "@*#?$!-0123456789"
OPERATORS = ("&&", "||", ";;&", ";;", ";&", "|&", "&>>", "&>", "<<<", "<<-", "<<", ">>", "<&", ">&", "<>", ">|", "|", "&", ";", "(", ")", "<", ">")
REDIRECTIONS = frozenset({"&>>", "&>", "<<<", "<<-", "<<", ">>", "<&", ">&", "<>", ">|", "<", ">"})
TERMINATORS = frozenset({"&&", "||", ";;&", ";;", ";&", "|&", "|", "&", ";"})
RESERVED = frozenset(
    {"if", "then", "elif", "else", "fi", "for", "select", "while", "until", "do", "done", "case", "esac", "function", "{", "}", "!", "time", "in"}
)
ASSIGNING_BUILTINS = frozenset({"export", "local", "declare", "typeset", "readonly"})


class ShellSyntaxError(ValueError):
    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


# ------------------------------------------------------------------ lexing


@dataclass(slots=True)
class Lit:
    text: str
    idx: list[int]  # text index of each character
    quoted: bool


@dataclass(slots=True)
class Var:
    name: str
    op: str  # "" | ":-" | "-" | ":=" | "=" | ":+" | "+" | "?" (anything else: unknown)
    arg: str | None
    quoted: bool
    start: int


@dataclass(slots=True)
class Unknown:
    quoted: bool
    start: int
    split: bool = True  # unquoted: may expand to several words
    empty: bool = False  # expands to nothing (a comment in backticks)
    many: bool = False  # "${ARRAY[@]}": several words even when quoted
    arguments: bool = False  # "${@:2}": the positional parameters
    first_argument: int | None = None  # "${@:2}": 2 (the first parameter it expands)
    array: str | None = None  # "${NAME[@]}": the array it expands
    elements: list | None = None  # NAME=( ... ): the words of the array literal


@dataclass(slots=True)
class PathOf(Unknown):
    """A command substitution that computes a path from the script's own location:
    ``$(dirname "$0")``, ``$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)`` (``of`` None: the
    script's folder), ``$(realpath "$SCRIPT_DIR/../..")``, ``$(cd "$DIR/.." && pwd)``
    (``of``: the word naming the path).  Its value is known when the script's path and the
    word are; otherwise it is an unknown word like any other substitution."""

    of: object = None  # RawWord | None
    op: str = "realpath"  # what is done to ``of``: realpath, readlink, cd (&& pwd), dirname, basename


class ArrayValue(tuple):
    """A shell array's elements as the words they expanded to when it was assigned."""

# A variable whose value is unknown but one word without blanks (``$((30000 + rank))``).
ONE_WORD = type("OneWord", (), {"__repr__": lambda self: "ONE_WORD"})()


class CommandText:
    """A variable's value that is command text built from written pieces and values unknown here
    (``CMD="vllm serve '${MODEL}' --port ${PORT}"``): unknown where it is expanded as a value,
    but read as a script where another shell reads its text again (``bash -c "cd /srv && ${CMD}"``,
    ``eval "$CMD"``).  ``texts``: one (text, offsets) per way branches may have set it, each
    unknown value a reference to a variable of its own (``OUTER_VALUE``), each written character
    at its offset in the file (-1: from a value)."""

    __slots__ = ("texts",)

    def __init__(self, texts: tuple) -> None:
        self.texts = texts

    def __repr__(self) -> str:
        return f"CommandText({[text for text, _ in self.texts]!r})"


class LocatedText(str):
    """A variable's known value of several words, with where each character is written in the
    file (-1: from another value), so that a shell reading it again as a script
    (``bash -c "$CMD"``) reports a flag where the assignment writes it."""

    __slots__ = ("offs",)

    def __new__(cls, text: str, offs) -> LocatedText:
        value = super().__new__(cls, text)
        value.offs = tuple(offs)
        return value


def _texts(value: object) -> tuple | None:
    """The command texts a variable holds: (text, offsets) per way it was set."""
    if isinstance(value, CommandText):
        return value.texts
    if isinstance(value, LocatedText):
        return ((str(value), value.offs),)
    if isinstance(value, str):
        return ((value, (-1,) * len(value)),)
    return None


# Words before a command that run it: ``exec $CMD``, ``nohup $CMD &``.
_COMMAND_PREFIXES = frozenset({"exec", "nohup", "command"})
# What a shell reads differently in a script than in an unquoted expansion's words.
_RESCANNED = re.compile(r"[\\'\"`$*?\[~]|[;&|<>()]")
# How many ways branches may set one command text before it is simply unknown.
_MAX_COMMAND_TEXTS = 16
# Positional parameters no one can count (``shift`` past an expansion of any number of words).
UNKNOWN_ARGUMENTS = (open_word(),)


def _one_argument(word: Word) -> bool:
    """A word a call passes is one positional parameter: written, or an expansion read as one value."""
    return not word.open or word.extra.get("channel") == "value"


def _parameter(arguments: tuple, number: int) -> Word | None:
    """``$number`` of a call's words: the word, ABSENT past the last, None when no one can tell."""
    if number < 1 or not all(_one_argument(word) for word in arguments[:number]):
        return None
    if number > len(arguments):
        return ABSENT
    return arguments[number - 1]


def _shifted(arguments: tuple, count: int) -> tuple:
    """The parameters after the first ``count`` (``shift count``, ``${@:count+1}``)."""
    if all(_one_argument(word) for word in arguments[:count]):
        return arguments[count:]
    # An expansion of any number of words comes first: what follows it is some of the rest.
    rest = [word for word in arguments if not _one_argument(word)]
    if all(word.extra.get("channel") == "pass-through" for word in rest):
        return (rest[0],)
    return UNKNOWN_ARGUMENTS


def _argument_words(arguments: tuple, raw: RawWord, part, start: int, end: int) -> list[Word]:
    """The words ``"$@"``/``$@``/``$*``/``"${@:2}"`` become in a call whose words are bound: a word
    the call wrote keeps its place (a finding or fix on it goes to the call); an expansion of
    unknown words stands where the body writes it, read as the call's own was."""
    if isinstance(part, Unknown) and part.first_argument is None:
        return [open_word(start, end)]
    if isinstance(part, Unknown) and part.first_argument is not None:
        if part.first_argument < 1:
            return [open_word(start, end)]  # ${@:0}: $0 first
        arguments = _shifted(arguments, part.first_argument - 1)
    if any(not (isinstance(other, Lit) and not other.text) for other in raw.parts if other is not part):
        return [open_word(start, end)]  # "--flag=$@", "x$*": joined with text
    quoted = part.quoted
    words: list[Word] = []
    for word in arguments:
        if word.open or (word.text is None and not quoted):
            channel = word.extra.get("channel") if word.open else ("value" if Reading.lenient() else None)
            rest = open_word(start, end)
            if channel is not None:
                rest.extra["channel"] = channel
            words.append(rest)
        elif quoted or not any(ch in word.text for ch in " \t\n"):
            words.append(_copy_word(word))
        else:
            # Unquoted: a written value with blanks is split again.
            for match in re.finditer(r"[^ \t\n]+", word.text):
                offs = word.offs[match.start() : match.end()] if word.offs is not None else None
                piece = Word(match.group(0), word.start, word.end, offs=offs, style=SHELL, multiline=word.multiline)
                piece.extra["editable"] = False
                words.append(piece)
    return words


def _expands(commands: list[list[RawWord]]) -> bool:
    """Some word of the commands expands something (``[ -f "$1" ]``, not ``true``)."""
    return any(not isinstance(part, Lit) for raws in commands for raw in raws for part in raw.parts)


def _copy_word(word: Word) -> Word:
    clone = copy.copy(word)
    clone.extra = dict(word.extra)
    return clone


# The variables a script template (``Word.extra["script"]``) names for what the outer shell
# expanded to values unknown here: unknown inside the script too.
OUTER_VALUE = "__vllm_lint_outer_"
_OUTER_REFERENCE = re.compile(r"\$\{" + OUTER_VALUE + r"\w+\}")
# Names that say a variable holds several words: where a flag stands, any number of them.
_LIST_NAME = re.compile(r"ARGS|FLAGS|OPTS|OPTIONS|PARAMS|EXTRA|CMD|CLI", re.IGNORECASE)


@dataclass(eq=False, slots=True)
class RawWord:
    parts: list
    start: int
    end: int

    def literal(self) -> str | None:
        """The text when the word is one unquoted literal (reserved words, assignments)."""
        if len(self.parts) == 1 and isinstance(self.parts[0], Lit) and not self.parts[0].quoted:
            return self.parts[0].text
        return None

    def plain_prefix(self) -> str:
        """Leading unquoted literal text."""
        if self.parts and isinstance(self.parts[0], Lit) and not self.parts[0].quoted:
            return self.parts[0].text
        return ""


@dataclass(eq=False, slots=True)
class Op:
    op: str
    start: int
    end: int


@dataclass(eq=False, slots=True)
class Newline:
    start: int


class _Builder:
    __slots__ = ("end", "parts", "start")

    def __init__(self, start: int) -> None:
        self.parts: list = []
        self.start = start
        self.end = start

    def lit(self, ch: str, index: int, quoted: bool) -> None:
        parts = self.parts
        if parts and isinstance(parts[-1], Lit) and parts[-1].quoted == quoted:
            parts[-1].text += ch
            parts[-1].idx.append(index)
        else:
            parts.append(Lit(ch, [index], quoted))

    def run(self, text: str, start: int, end: int, quoted: bool) -> None:
        """Characters ``text[start:end]``, written contiguously."""
        parts = self.parts
        if parts and isinstance(parts[-1], Lit) and parts[-1].quoted == quoted:
            parts[-1].text += text[start:end]
            parts[-1].idx.extend(range(start, end))
        else:
            parts.append(Lit(text[start:end], list(range(start, end)), quoted))

    def quoted_empty(self, index: int) -> None:
        """``""`` or ``''``: a word even when empty."""
        self.parts.append(Lit("", [], True))


def lex(text: str, start: int = 0, stop: int | None = None) -> list:
    """Tokens of a script (of ``text[start:stop]``): RawWord, Op, Newline.  Raises ShellSyntaxError."""
    tokens: list = []
    i = start
    n = len(text) if stop is None else stop
    word: _Builder | None = None
    heredocs: list[tuple[str, bool]] = []
    expect_delimiter: bool | None = None  # after << / <<-: the next word is a delimiter

    def finish(end: int) -> None:
        nonlocal word, expect_delimiter
        if word is not None:
            raw = RawWord(word.parts, word.start, end)
            tokens.append(raw)
            if expect_delimiter is not None:
                delimiter = "".join(p.text for p in raw.parts if isinstance(p, Lit))
                heredocs.append((delimiter, expect_delimiter))
                expect_delimiter = None
            word = None

    while i < n:
        c = text[i]
        if c in " \t\r":
            finish(i)
            i += 1
            continue
        if c == "\n":
            finish(i)
            tokens.append(Newline(i))
            i += 1
            if heredocs:
                i = _skip_heredocs(text, i, heredocs)
                heredocs = []
            continue
        if c == "\\":
            if i + 1 < n and text[i + 1] == "\n":
                i += 2
                continue
            if i + 2 < n and text[i + 1] == "\r" and text[i + 2] == "\n":
                i += 3
                continue
            if word is None:
                word = _Builder(i)
            if i + 1 < n:
                word.lit(text[i + 1], i + 1, True)
            i += 2
            continue
        if c == "#" and word is None:
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated single quote", i)
            if word is None:
                word = _Builder(i)
            word.quoted_empty(i)
            if end > i + 1:
                _quoted_run(text, i + 1, end, word)
            i = end + 1
            continue
        if c == '"':
            if word is None:
                word = _Builder(i)
            i = _double_quoted(text, i, word)
            continue
        if c == "$":
            if word is None:
                word = _Builder(i)
            i = _dollar(text, i, word, quoted=False)
            continue
        if c == "`":
            if word is None:
                word = _Builder(i)
            i = _backtick(text, i, word, quoted=False)
            continue
        if c in ";&|()<>":
            if c == "(" and word is not None and _ASSIGNMENT.fullmatch(word.parts[0].text if word.parts and isinstance(word.parts[0], Lit) else ""):
                end = _matching(text, i, "(", ")")  # an array assignment: NAME=(...)
                word.parts.append(Unknown(True, i, split=False, elements=_array_elements(text, i + 1, end)))
                i = end + 1
                continue
            if c in "<>" and i + 1 < n and text[i + 1] == "(":
                end = _matching(text, i + 1, "(", ")")  # process substitution: one unknown word
                if word is None:
                    word = _Builder(i)
                word.parts.append(Unknown(True, i, split=False))
                i = end + 1
                continue
            if c in "<>" and word is not None and len(word.parts) == 1 and isinstance(word.parts[0], Lit) and not word.parts[0].quoted and word.parts[0].text.isdigit():
                word = None  # a file descriptor number: 2>&1
            finish(i)
            op = next(o for o in OPERATORS if text.startswith(o, i))
            tokens.append(Op(op, i, i + len(op)))
            if op in ("<<", "<<-"):
                expect_delimiter = op == "<<-"
            i += len(op)
            continue
        if word is None:
            word = _Builder(i)
        if c == PLACEHOLDER:
            i = _template_text(text, i, word, quoted=False)
            continue
        match = _PLAIN.match(text, i)
        end = match.end() if match else i + 1
        word.run(text, i, end, False)
        i = end
    finish(n)
    return tokens


def _array_elements(text: str, start: int, end: int) -> list | None:
    """The words of an array literal; None when it holds more than words (``[i]=x``, operators)."""
    try:
        tokens = lex(text, start, end)
    except ShellSyntaxError:
        return None
    elements = []
    for token in tokens:
        if isinstance(token, Newline):
            continue
        if not isinstance(token, RawWord) or token.plain_prefix().startswith("["):
            return None
        elements.append(token)
    return elements


def _skip_heredocs(text: str, i: int, heredocs: list[tuple[str, bool]]) -> int:
    n = len(text)
    for delimiter, strip_tabs in heredocs:
        while i < n:
            end = text.find("\n", i)
            if end < 0:
                end = n
            line = text[i:end].rstrip("\r")
            if strip_tabs:
                line = line.lstrip("\t")
            i = end + 1
            if line == delimiter:
                break
    return min(i, n)


def _template_text(text: str, i: int, word: _Builder, quoted: bool) -> int:
    """A template expression (``yamlsrc.PLACEHOLDER``: Helm's ``{{ .Values.model }}`` in a script a
    chart renders) is text the shell never sees: unknown, and unquoted it may be any words."""
    end = i
    while end < len(text) and text[end] == PLACEHOLDER:
        end += 1
    word.parts.append(Unknown(quoted, i, split=not quoted))
    return end


def _quoted_run(text: str, start: int, end: int, word: _Builder) -> None:
    """Quoted characters ``text[start:end]``; a template expression among them is unknown text."""
    i = start
    while i < end:
        mark = text.find(PLACEHOLDER, i, end)
        if mark < 0:
            word.run(text, i, end, True)
            return
        if mark > i:
            word.run(text, i, mark, True)
        i = _template_text(text, mark, word, quoted=True)


def _double_quoted(text: str, i: int, word: _Builder) -> int:
    n = len(text)
    word.quoted_empty(i)
    i += 1
    while i < n:
        c = text[i]
        if c == '"':
            return i + 1
        if c == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if nxt == "\n":
                i += 2
                continue
            if nxt in '$`"\\':
                word.lit(nxt, i + 1, True)
                i += 2
                continue
            word.lit(c, i, True)
            i += 1
            continue
        if c == "$":
            i = _dollar(text, i, word, quoted=True)
            continue
        if c == "`":
            i = _backtick(text, i, word, quoted=True)
            continue
        if c == PLACEHOLDER:
            i = _template_text(text, i, word, quoted=True)
            continue
        match = _PLAIN_QUOTED.match(text, i)
        end = match.end() if match else i + 1
        word.run(text, i, end, True)
        i = end
    raise ShellSyntaxError("unterminated double quote", word.start)


_WORD_BREAKS = frozenset(" \t\r\n;&|()<>")


def _matching(text: str, i: int, open_: str, close: str, comments: bool = True) -> int:
    """Index of the bracket closing the one at ``i`` (quotes, nesting and comments respected).

    Inside ``( ... )`` (array literals, ``$( ... )``, subshells) a ``#`` at the
    start of a word begins a comment to the end of the line, whatever it holds
    (``# router's note``); inside ``${ ... }`` and ``$(( ... ))`` it does not.
    """
    depth = 0
    n = len(text)
    k = i
    while k < n:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == "#" and comments and k > i and text[k - 1] in _WORD_BREAKS:
            end = text.find("\n", k)
            k = n if end < 0 else end
            continue
        if c == "'":
            end = text.find("'", k + 1)
            if end < 0:
                break
            k = end + 1
            continue
        if c == '"':
            k += 1
            while k < n and text[k] != '"':
                k += 2 if text[k] == "\\" else 1
            k += 1
            continue
        if c == "`":
            end = text.find("`", k + 1)
            if end < 0:
                break
            k = end + 1
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return k
        k += 1
    raise ShellSyntaxError(f"unterminated {open_}", i)


# The script's own path: "$0", "${BASH_SOURCE[0]}", $BASH_SOURCE (optionally resolved first).
_SELF = r'"?(?:\$0|\$\{0\}|\$\{BASH_SOURCE(?:\[0\])?\}|\$BASH_SOURCE)"?'
_SELF_RESOLVED = r'(?:' + _SELF + r'|"?\$\((?:realpath|readlink\s+-f)\s+' + _SELF + r'\s*\)"?)'
_DIRNAME = r'"?\$\(\s*dirname\s+(?:--\s+)?' + _SELF_RESOLVED + r'\s*\)"?'
_QUIET = r'(?:\s*(?:&>|>|2>)\s*/dev/null(?:\s+2>&1)?)?'
_SCRIPT_DIR = re.compile(
    r'\s*(?:dirname\s+(?:--\s+)?' + _SELF_RESOLVED
    + r'|cd\s+(?:-P\s+)?(?:--\s+)?' + _DIRNAME + _QUIET + r'\s*&&\s*pwd(?:\s+-P)?)\s*'
)
_RESOLVE = re.compile(
    r'\s*(?:(?P<op>realpath|readlink\s+-f|basename|dirname)\s+(?:--\s+)?(?P<path>.+?)'
    + r'|cd\s+(?:-P\s+)?(?:--\s+)?(?P<dir>.+?)' + _QUIET + r'\s*&&\s*pwd(?:\s+-P)?)\s*'
)


def _path_substitution(inner: str, quoted: bool, start: int) -> PathOf | None:
    """``$( ... )`` that computes a path from the script's location (``PathOf``), or None."""
    if not any(word in inner for word in ("dirname", "realpath", "readlink", "pwd", "basename")):
        return None
    if _SCRIPT_DIR.fullmatch(inner):
        return PathOf(quoted, start, split=not quoted)
    match = _RESOLVE.fullmatch(inner)
    if match is None:
        return None
    path = match.group("path") if match.group("path") is not None else match.group("dir")
    try:
        tokens = lex(path)
    except ShellSyntaxError:
        return None
    if len(tokens) != 1 or not isinstance(tokens[0], RawWord):
        return None
    operation = (match.group("op") or "cd").split()[0]
    return PathOf(quoted, start, split=not quoted, of=tokens[0], op=operation)


def _path_value(part: PathOf, state: ShellState) -> object:
    """The path a ``PathOf`` substitution prints, or UNKNOWN."""
    import os

    if state.script is None:
        return UNKNOWN
    if part.of is None:
        return os.path.dirname(os.path.abspath(state.script))
    value = assignment_value(part.of, 0, state)
    if not isinstance(value, str) or not value:
        return UNKNOWN
    if part.op == "basename":
        return os.path.basename(value.rstrip("/")) or UNKNOWN
    if not os.path.isabs(value):
        return UNKNOWN  # relative to the directory the script runs in, which is not known
    value = os.path.normpath(value)
    return os.path.dirname(value) if part.op == "dirname" else value


def _dollar(text: str, i: int, word: _Builder, quoted: bool) -> int:
    n = len(text)
    nxt = text[i + 1] if i + 1 < n else ""
    if nxt == PLACEHOLDER:
        return _template_text(text, i + 1, word, quoted)  # GitHub Actions' ${{ ... }} is all template
    if nxt == "(":
        if i + 2 < n and text[i + 2] == "(":
            end = _matching(text, i + 1, "(", ")", comments=False)  # $(( arithmetic ))
            word.parts.append(Unknown(quoted, i, split=False))
            return end + 1
        end = _matching(text, i + 1, "(", ")")
        word.parts.append(_path_substitution(text[i + 2 : end], quoted, i) or Unknown(quoted, i, split=True))
        return end + 1
    if nxt == "{":
        end = _matching(text, i + 1, "{", "}", comments=False)
        word.parts.append(_braced(text[i + 2 : end], quoted, i))
        return end + 1
    if nxt == "'" and not quoted:
        k = i + 2
        chars: list[tuple[str, int]] = []
        while k < n and text[k] != "'":
            if text[k] == "\\":
                word.parts.append(Unknown(True, i, split=False))
                end = k
                while end < n and text[end] != "'":
                    end += 2 if text[end] == "\\" else 1
                if end >= n:
                    raise ShellSyntaxError("unterminated $'...'", i)
                return end + 1
            chars.append((text[k], k))
            k += 1
        if k >= n:
            raise ShellSyntaxError("unterminated $'...'", i)
        word.quoted_empty(i)
        for ch, index in chars:
            word.lit(ch, index, True)
        return k + 1
    if nxt == '"' and not quoted:
        return _double_quoted(text, i + 1, word)
    if nxt and nxt in _SPECIAL:
        word.parts.append(Var(nxt, "", None, quoted, i))
        return i + 2
    match = _NAME.match(text, i + 1)
    if match:
        word.parts.append(Var(match.group(0), "", None, quoted, i))
        return match.end()
    word.lit("$", i, quoted)
    return i + 1


_BRACED = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:(:?[-=+?])(.*))?$", re.DOTALL)


def _braced(inner: str, quoted: bool, start: int):
    if re.search(r"\[[@*]\]", inner) and not inner.startswith("#"):
        name = inner[:-3] if inner.endswith("[@]") and _NAME.fullmatch(inner[:-3]) else None
        return Unknown(quoted, start, many=True, array=name)  # an array's elements
    if inner.startswith("@:") or (inner.startswith("*:") and not quoted):
        first = re.fullmatch(r"[@*]:\s*([0-9]+)", inner)
        # ${@:2}: some of the script's arguments
        return Unknown(quoted, start, many=True, arguments=True, first_argument=int(first.group(1)) if first else None)
    match = _BRACED.match(inner)
    if not match or inner.startswith(("#", "!")) and len(inner) > 1:
        return Unknown(quoted, start, split=not inner.startswith("#"))
    name, op, arg = match.group(1), match.group(2) or "", match.group(3)
    if arg is not None and re.search(r"[$`\"'\\" + re.escape(PLACEHOLDER) + "]", arg):
        return Unknown(quoted, start)  # a default with expansions or quotes
    return Var(name, op, arg, quoted, start)


def _backtick(text: str, i: int, word: _Builder, quoted: bool) -> int:
    n = len(text)
    k = i + 1
    while k < n and text[k] != "`":
        k += 2 if text[k] == "\\" else 1
    if k >= n:
        raise ShellSyntaxError("unterminated backquote", i)
    inner = text[i + 1 : k].strip()
    empty = not inner or inner.startswith("#")  # `# comment`: expands to nothing
    word.parts.append(Unknown(quoted, i, split=True, empty=empty))
    return k + 1


# ------------------------------------------------------------------- state


@dataclass
class ShellState:
    """Shell variables and the environment exported to commands."""

    vars: dict[str, object] = field(default_factory=dict)  # str | ABSENT (unset) | UNKNOWN
    env: dict[str, object] = field(default_factory=dict)  # str | ABSENT | UNKNOWN
    env_open: bool = False
    exported: set[str] = field(default_factory=set)
    allexport: bool = False
    script: str | None = None  # the script file's path, where its own location can be computed
    # The positional parameters of a function call being read (``Interpreter._call``): the words the call
    # passed; None outside one (``$1`` unknown, ``$@`` the script's arguments or a caller's).
    positional: tuple | None = None

    def copy(self) -> ShellState:
        return ShellState(dict(self.vars), dict(self.env), self.env_open, set(self.exported), self.allexport, self.script, self.positional)

    def lookup(self, name: str) -> object:
        return self.vars.get(name, UNKNOWN)

    def assign(self, name: str, value: object, export: bool = False) -> None:
        self.vars[name] = value
        if export or self.allexport:
            self.exported.add(name)
        if name in self.exported:
            self.env[name] = env_value(value)
        else:
            # It may have come from the environment, which this assignment then changes.
            self.env[name] = UNKNOWN

    def export(self, name: str) -> None:
        self.exported.add(name)
        if name in self.vars:
            self.env[name] = env_value(self.vars[name])

    def unset(self, name: str) -> None:
        self.vars[name] = ABSENT
        self.env[name] = ABSENT
        self.exported.discard(name)

    def forget(self, names) -> None:
        if "*" in names:
            self.forget_all()
            return
        for name in names:
            self.vars[name] = UNKNOWN
            self.env[name] = UNKNOWN

    def forget_all(self) -> None:
        self.vars = {}
        self.env = {}
        self.env_open = True


_MISSING = object()


def env_value(value: object) -> object:
    """A variable's value as the environment holds it: text, ABSENT or UNKNOWN."""
    return UNKNOWN if value is ONE_WORD or isinstance(value, (ArrayValue, CommandText)) else value


def join(states: list[ShellState]) -> ShellState:
    if len(states) == 1:
        return states[0]
    result = ShellState()
    result.env_open = any(s.env_open for s in states)
    result.allexport = all(s.allexport for s in states)
    result.exported = set().union(*(s.exported for s in states))
    first_positional = states[0].positional
    if all(s.positional is first_positional for s in states):
        result.positional = first_positional
    else:
        result.positional = UNKNOWN_ARGUMENTS  # ``shift`` in one branch only
    for name in set().union(*(s.vars.keys() for s in states)):
        values = [s.vars.get(name, _MISSING) for s in states]
        first = values[0]
        if first is not _MISSING and all(v is first or (isinstance(v, str) and v == first) for v in values):
            result.vars[name] = first
        elif any(isinstance(v, (CommandText, LocatedText)) for v in values) and all(isinstance(v, (CommandText, str)) for v in values):
            result.vars[name] = _command_alternatives(values)
        else:
            result.vars[name] = UNKNOWN
    for name in set().union(*(s.env.keys() for s in states)):
        values = [s.env.get(name, UNKNOWN if s.env_open else ABSENT) for s in states]
        first = values[0]
        if all(v is first or (isinstance(v, str) and v == first) for v in values):
            result.env[name] = first
        else:
            result.env[name] = UNKNOWN
    return result


def _command_alternatives(values: list) -> object:
    """The command texts branches set (each arm its own reading); UNKNOWN past a few."""
    texts: list = []
    for value in values:
        for text in _texts(value):
            if text not in texts:
                texts.append(text)
    return CommandText(tuple(texts)) if len(texts) <= _MAX_COMMAND_TEXTS else UNKNOWN


# --------------------------------------------------------------- expansion


class Mapper:
    """Maps script text indices to file offsets (identity, or through a word's offsets)."""

    def __init__(self, base: list[int] | None = None, shift: int = 0) -> None:
        self.base = base
        self.shift = shift

    def __call__(self, index: int) -> int:
        if self.base is None:
            return index + self.shift
        if 0 <= index < len(self.base):
            return self.base[index]
        return -1


def expand(raw: RawWord, state: ShellState, mapper: Mapper, multiline: bool = True, script_arguments: bool = True) -> list[Word]:
    """The words a shell word becomes (several when an unquoted value splits).

    ``script_arguments``: ``$@`` holds the script's own arguments (at the top level, or in a
    function every call of which passes them on); else whatever a caller passed."""
    start = mapper(raw.start)
    last = mapper(raw.end - 1)
    end = last + 1 if last >= 0 else -1
    if start < 0:
        end = -1
    words: list[Word] = []
    chars: list[str] = []
    offs: list[int] = []
    suffix: list[str] = []  # literal text after the last unknown part
    unknown = False
    present = False  # a quoted part makes a word even when empty

    # A fix may edit the word in place only when the file holds it exactly:
    # no character from a variable's value, no escapes of an enclosing string.
    in_place = start >= 0 and (mapper.base is None or end - start == raw.end - raw.start)

    def emit() -> None:
        nonlocal chars, offs, unknown, present, suffix
        if chars or present or unknown:
            text = None if unknown else "".join(chars)
            word = Word(text, start, end, offs=None if unknown else offs, prefix="".join(chars) if unknown else "", style=SHELL, multiline=multiline)
            if unknown:
                word.suffix = "".join(suffix)
            if not words and (
                unknown or any(isinstance(p, Var) and isinstance(state.lookup(p.name), LocatedText) for p in raw.parts)
            ):
                templates = _script_templates(raw, state, mapper)
                if templates:
                    word.extra["script"] = templates[0]
                    word.extra["scripts"] = templates
            if not in_place or -1 in offs:
                word.extra["editable"] = False
            words.append(word)
        chars, offs, unknown, present, suffix = [], [], False, False, []

    lenient = Reading.lenient()

    def open_rest(position: int, channel: str | None = None, after_text: bool = False) -> Word:
        """The unknown words an unquoted expansion splits into; the last ends with the literal rest.
        ``channel``: how it is read (module docstring); ``after_text``: the word began before it."""
        word = open_word(start, end)
        rest = raw.parts[position + 1 :]
        if rest and all(isinstance(p, Lit) for p in rest):
            word.suffix = "".join(p.text for p in rest)
        if channel is not None and lenient:
            word.extra["channel"] = channel
            if after_text:
                word.extra["glued"] = True
        return word

    for position, part in enumerate(raw.parts):
        if isinstance(part, Lit):
            if part.quoted:
                present = True
            if unknown:
                suffix.extend(part.text)
            else:
                chars.extend(part.text)
                if mapper.base is None and mapper.shift == 0:
                    offs.extend(part.idx)
                else:
                    offs.extend(mapper(index) for index in part.idx)
            continue
        if isinstance(part, Unknown) and part.empty:
            continue
        arguments = (isinstance(part, Var) and (part.name == "@" or (part.name == "*" and not part.quoted))) or (
            isinstance(part, Unknown) and part.arguments
        )
        if arguments and state.positional is not None:
            if chars or unknown:
                unknown = True
                emit()
            words.extend(_argument_words(state.positional, raw, part, start, end))
            return words
        if not chars and not unknown and isinstance(part, Var) and part.name.isdigit() and state.positional is not None:
            given = _given_word(raw, part, state)
            if given is not None:
                return [given]
        if isinstance(part, Unknown) and part.array and all(isinstance(p, Lit) and not p.text for p in raw.parts if p is not part):
            elements = _array_words(state.lookup(part.array), part.quoted)
            if elements is not None:
                return elements
        if arguments or (isinstance(part, Unknown) and part.many):
            # "$@" / $@ / $* / "${ARRAY[@]}": any number of words (none at all: "$@" alone
            # is no word when there are no arguments).
            if chars or unknown:
                unknown = True
                emit()
            words.append(open_rest(position, "pass-through" if arguments and script_arguments else None))
            return words
        if isinstance(part, Var):
            value = _var_value(part, state)
            splits = not part.quoted and part.name not in ("#", "?", "$", "!", "-")
        elif isinstance(part, PathOf):
            value = _path_value(part, state)
            splits = not part.quoted
        else:
            value = UNKNOWN
            splits = not part.quoted and part.split
        if value is ONE_WORD:
            splits = False  # $((...)): a number, never split
        if not splits:
            present = True
            if value is UNKNOWN or value is ONE_WORD:
                unknown = True
                suffix = []
            elif value is not ABSENT and not unknown:
                chars.extend(value)
                offs.extend([-1] * len(value))
            elif value is not ABSENT:
                suffix.extend(value)
            continue
        # An unquoted expansion is split into words.
        if value is UNKNOWN:
            after_text = bool(chars or present or unknown)
            if after_text:
                unknown = True
                emit()
            listed = isinstance(part, Var) and _LIST_NAME.search(part.name) is not None
            words.append(open_rest(position, None if listed else "value", after_text))
            return words  # the rest of this word belongs to the unknown words
        if value is ABSENT:
            continue
        for ch in value:
            if ch in " \t\n":
                emit()
            elif not unknown:
                chars.append(ch)
                offs.append(-1)
            else:
                suffix.append(ch)
    emit()
    return words


def _script_templates(raw: RawWord, state: ShellState, mapper: Mapper, skip: int = 0) -> list[tuple[str, list[int]]]:
    """The word as a script another shell reads (``sh -c "vllm serve m --port ${PORT}"``): its
    text with each expansion of unknown value as a reference to a variable of its own
    (``OUTER_VALUE``), and where each character is written; a variable holding a command text
    (``bash -c "cd /srv && ${CMD}"``) is its text, one script per way it was set.  Empty when an
    expansion splits.  ``skip``: characters of the first literal to leave out (``NAME=``)."""
    texts: list[tuple[list[str], list[int]]] = [([], [])]
    first = True
    for part in raw.parts:
        if isinstance(part, Lit):
            idx = part.idx[skip:] if first else part.idx
            chars = part.text[skip:] if first else part.text
            first = False
            located = idx if mapper.base is None and mapper.shift == 0 else [mapper(index) for index in idx]
            for text, offs in texts:
                text.extend(chars)
                offs.extend(located)
            continue
        first = False
        if isinstance(part, Unknown) and part.empty:
            continue
        if isinstance(part, Var):
            held = state.lookup(part.name) if part.op == "" and _NAME.fullmatch(part.name) else None
            if isinstance(held, (CommandText, LocatedText)) and (part.quoted or skip):
                texts = [(text + list(more), offs + list(more_offs)) for text, offs in texts for more, more_offs in _texts(held)]
                if len(texts) > _MAX_COMMAND_TEXTS:
                    return []
                continue
            value = _var_value(part, state)
            splits = not skip and not part.quoted and part.name not in ("#", "?", "$", "!", "-")
        else:
            value, splits = UNKNOWN, not skip and not part.quoted and part.split
        if value is ONE_WORD:
            splits = False
        if splits or (isinstance(part, Unknown) and (part.many or part.arguments or part.array)) or (isinstance(part, Var) and part.name in ("@", "*")):
            return []
        for text, offs in texts:
            if value is UNKNOWN or value is ONE_WORD:
                # Named after the outer variable too: a name that says it holds several words still does.
                named = part.name if isinstance(part, Var) and re.fullmatch(r"\w+", part.name) else ""
                reference = "${%s%d_%s}" % (OUTER_VALUE, len(text), named)
                text.extend(reference)
                offs.extend([-1] * len(reference))
            elif isinstance(value, str):
                text.extend(value)
                offs.extend([-1] * len(value))
    return [("".join(text), offs) for text, offs in texts]


def command_text(raw: RawWord, skip: int, state: ShellState, mapper: Mapper) -> CommandText | LocatedText | None:
    """``CMD="vllm serve '${MODEL}' --port ${PORT}"``, ``CMD="$CMD --flag"``: the value as
    command text, when it is made of several words (a blank written in it) and holds a value
    not known here or a command text already."""
    if not any(isinstance(part, Lit) and any(ch in " \t\n" for ch in part.text) for part in raw.parts):
        return None
    texts = _script_templates(raw, state, mapper, skip)
    return _command_value(texts) if texts else None


def _command_value(texts) -> object:
    """A variable's command texts: one read as written (``LocatedText``), or the texts its ways of
    being set give (``CommandText``); UNKNOWN past a few."""
    if len(texts) == 1 and OUTER_VALUE not in texts[0][0]:
        return LocatedText(*texts[0])
    return CommandText(tuple((text, tuple(offs)) for text, offs in texts)) if len(texts) <= _MAX_COMMAND_TEXTS else UNKNOWN


def _array_words(value: object, quoted: bool) -> list[Word] | None:
    """The words ``"${NAME[@]}"`` expands to, when NAME holds an array the script assigned;
    unquoted, only when no element would split further."""
    if not isinstance(value, ArrayValue):
        return None
    if not quoted and any(word.text is not None and any(ch in word.text for ch in " \t\n*?[") for word in value):
        return None
    return [copy.copy(word) for word in value]


def _given_word(raw: RawWord, part: Var, state: ShellState) -> Word | None:
    """``"$1"``, ``${2}``, ``${1:-x}`` alone as a word, in a call that wrote that parameter: the
    call's word itself, so that a finding on its value points at the call."""
    if any(not (isinstance(other, Lit) and not other.text) for other in raw.parts if other is not part):
        return None
    word = _parameter(state.positional, int(part.name))
    if not isinstance(word, Word) or not word.known:
        return None
    if part.op not in ("", ":-", "-", ":=", "=", ":?", "?") or (part.op.startswith(":") and not word.text):
        return None
    if not part.quoted and any(ch in word.text for ch in " \t\n*?["):
        return None  # split again: the expansion's words
    return _copy_word(word)


def _positional_value(name: str, arguments: tuple) -> object:
    """``$1``, ``$#``, ``$*`` of a call whose words are bound."""
    if name.isdigit():
        word = _parameter(arguments, int(name)) if name != "0" else None
        if word is None:
            return UNKNOWN
        if word is ABSENT:
            return ABSENT
        return word.text if word.known else UNKNOWN
    if not all(_one_argument(word) for word in arguments):
        return UNKNOWN
    if name == "#":
        return str(len(arguments))
    if name in ("@", "*") and all(word.known for word in arguments):
        return " ".join(word.text for word in arguments)
    return UNKNOWN


def _var_value(part: Var, state: ShellState) -> object:
    name = part.name
    if state.positional is not None and (name.isdigit() or name in "#@*"):
        value = _positional_value(name, state.positional)
        return _with_operator(part, value) if value is not UNKNOWN else value
    if name in ("@", "*") or name.isdigit() or name in "#?$!-":
        return UNKNOWN
    value = state.lookup(name)
    if isinstance(value, CommandText):
        return UNKNOWN
    if isinstance(value, ArrayValue):
        # $NAME of an array is its first element.
        value = value[0].text if value else ""
        if value is None:
            return UNKNOWN  # an unknown (or open) word
    return _with_operator(part, value)


def _with_operator(part: Var, value: object) -> object:
    """``${NAME:-default}`` and the other operators applied to NAME's value."""
    op = part.op
    if op == "":
        return value
    if value is ONE_WORD:
        # Never empty: the defaults do not apply; ``:+``/``+`` give their word.
        return (part.arg or "") if op in (":+", "+") else value
    if value is UNKNOWN:
        return UNKNOWN
    is_set = value is not ABSENT
    non_empty = is_set and value != ""
    arg = part.arg or ""
    if op in (":-", ":="):
        return value if non_empty else arg
    if op in ("-", "="):
        return value if is_set else arg
    if op == ":+":
        return arg if non_empty else ""
    if op == "+":
        return arg if is_set else ""
    if op in (":?", "?"):
        return value if (non_empty if op == ":?" else is_set) else UNKNOWN
    return UNKNOWN


def assignment_value(raw: RawWord, skip: int, state: ShellState) -> object:
    """The value of ``NAME=value`` (no field splitting): a string, ONE_WORD (unknown text
    without blanks, from ``$((...))``) or UNKNOWN."""
    chars: list[str] = []
    first = True
    one_word = False
    for part in raw.parts:
        if isinstance(part, Lit):
            chars.append(part.text[skip:] if first else part.text)
            first = False
            continue
        first = False
        if isinstance(part, PathOf):
            value = _path_value(part, state)
            if value is UNKNOWN:
                return UNKNOWN
            chars.append(value)
            continue
        if isinstance(part, Unknown):
            if part.empty:
                continue
            if part.split or part.quoted or part.many:
                return UNKNOWN
            one_word = True  # $(( ... )), ${#name}: a number
            continue
        value = _var_value(part, state)
        if value is UNKNOWN:
            return UNKNOWN
        if value is ONE_WORD:
            one_word = True
        elif value is not ABSENT:
            chars.append(value)
    text = "".join(chars)
    if one_word:
        return ONE_WORD if not any(ch in text for ch in " \t\n") else UNKNOWN
    return text


# ---------------------------------------------------------- interpretation


@dataclass
class Command:
    """A simple command ready for launcher detection."""

    words: list[Word]
    env: dict[str, object]
    env_open: bool
    start: int  # file offsets of the command's first and last word
    end: int
    # The command may not run when the script does: in an ``if``, ``case``, loop, function or
    # subshell, or after ``||`` (``pip show vllm || pip install vllm==0.8.3``).
    guarded: bool = False


@dataclass
class _Frame:
    kind: str
    entry: ShellState | None = None
    cond: ShellState | None = None
    ends: list[ShellState] = field(default_factory=list)
    has_else: bool = False
    # In a body read for a call (``Interpreter._call``), an ``if`` whose test compares known
    # words (``[ "$kind" = vllm ]``): the commands of its condition while read (``test``), the
    # branch being read certainly not taken (``dead``), an earlier branch certainly taken.
    test: list | None = None
    dead: bool = False
    settled: bool = False
    # The same for a ``case`` on a word of known text: its word, the patterns of the arm read.
    subject: RawWord | None = None
    patterns: list = field(default_factory=list)
    fallthrough: bool = False  # an arm ends with ;& or ;;&: the arms after it are not decided
    # A test of expanded words that cannot be decided (``[ -f "$1" ]``, ``[[ $1 =~ vllm ]]``): its
    # branches are read without the call's words, which may be another branch's.
    blind: bool = False
    saved: ShellState | None = None
    name: str | None = None


def _assigned_names(tokens: list, lo: int, hi: int) -> set[str]:
    """Names a token range may assign (over-approximated); "*" for everything."""
    names: set[str] = set()
    previous = None
    for token in tokens[lo:hi]:
        if isinstance(token, RawWord):
            literal = token.plain_prefix()
            match = _ASSIGNMENT.match(literal) or _ELEMENT_ASSIGNMENT.match(literal)
            if match:
                names.add(match.group(1))
            if previous in ("export", "unset", "read", "local", "declare", "typeset", "readonly", "for", "select"):
                name = _NAME.match(literal)
                if name:
                    names.add(name.group(0))
            if literal in ("source", ".", "eval"):
                names.add("*")
            previous = literal if literal in ("export", "unset", "read", "local", "declare", "typeset", "readonly", "for", "select") else (
                previous if previous in ("export", "unset", "read", "local", "declare", "typeset", "readonly") else None
            )
        else:
            previous = None
    return names


def _loop_end(tokens: list, start: int) -> int:
    depth = 0
    for index in range(start, len(tokens)):
        token = tokens[index]
        if isinstance(token, RawWord):
            literal = token.literal()
            if literal in ("do",):
                depth += 1
            elif literal == "done":
                depth -= 1
                if depth <= 0:
                    return index
    return len(tokens)


def _group_end(tokens: list, start: int) -> int:
    depth = 0
    # A body in braces ends at its brace: a ``)`` of a case pattern inside is no end.
    braces = start < len(tokens) and isinstance(tokens[start], RawWord) and tokens[start].literal() == "{"
    for index in range(start, len(tokens)):
        token = tokens[index]
        if braces and not (isinstance(token, RawWord) and token.literal() in ("{", "}")):
            continue
        if isinstance(token, RawWord) and token.literal() in ("{", "}"):
            depth += 1 if token.literal() == "{" else -1
            if depth == 0:
                return index
        elif isinstance(token, Op) and token.op in ("(", ")"):
            depth += 1 if token.op == "(" else -1
            if depth == 0:
                return index
    return len(tokens)


def _call_sites(tokens: list, name: str) -> list[int]:
    """The token indices where function ``name`` is called (a command's first word)."""
    return [
        index for index, token in enumerate(tokens)
        if isinstance(token, RawWord) and token.literal() == name and _starts_command(tokens, index)
    ]


def _command_names(tokens: list) -> set[str]:
    """The words the script's commands start with (the functions it calls among them)."""
    return {
        token.literal() for index, token in enumerate(tokens)
        if isinstance(token, RawWord) and token.literal() is not None and _starts_command(tokens, index)
    }


def _starts_command(tokens: list, index: int) -> bool:
    """The word at ``index`` is a command's first word (not a word of another command, as in
    ``echo main``, nor the name of a definition)."""
    previous = tokens[index - 1] if index else None
    if isinstance(previous, RawWord) and previous.literal() == "function":
        return False  # the definition
    if index + 1 < len(tokens) and isinstance(tokens[index + 1], Op) and tokens[index + 1].op == "(":
        return False  # name() { ... }
    return _at_command_start(previous)


_BEFORE_COMMAND = TERMINATORS | {"(", ")"}


def _at_command_start(previous) -> bool:
    return previous is None or isinstance(previous, Newline) or (
        isinstance(previous, Op) and previous.op in _BEFORE_COMMAND
    ) or (isinstance(previous, RawWord) and previous.literal() in RESERVED)


def _passes_arguments_on(tokens: list, name: str) -> bool:
    """Whether ``name`` is called at least once, and every call's arguments are the script's own."""
    sites = _call_sites(tokens, name)
    for index in sites:
        for argument in tokens[index + 1 :]:
            if not isinstance(argument, RawWord):
                break
            if not _is_arguments(argument):
                return False
    return bool(sites)


def _is_arguments(raw: RawWord) -> bool:
    """``"$@"``, ``$@``, ``$*``, ``"${@:2}"``: the script's own arguments, and nothing else."""
    parts = [part for part in raw.parts if not (isinstance(part, Lit) and part.text == "" and part.quoted)]
    if len(parts) != 1:
        return False
    part = parts[0]
    if isinstance(part, Var):
        return part.name == "@" or (part.name == "*" and not part.quoted)
    return isinstance(part, Unknown) and part.arguments


# A call of a function the script defines is read with its words bound, up to this depth of
# calls within calls, this many calls, and while the bodies read total fewer tokens than this.
_CALL_DEPTH = 8
_CALL_TOKENS = 100_000
_CALLS = 256


@dataclass
class _Functions:
    """What the readers of one script (the script's, and one per function call) share."""

    names: dict[str, set[str]] = field(default_factory=dict)  # function -> names its body may assign
    bodies: dict[str, tuple[int, int]] = field(default_factory=dict)  # function -> its body's tokens
    passes_arguments_on: dict[str, bool] = field(default_factory=dict)
    called: set[str] | None = None  # the first words of the script's commands (its calls)
    # Commands of a called function's body as its definition reads them (its parameters
    # unknown): reported only when no call could be read with its words.
    deferred: list[tuple[str, Command]] = field(default_factory=list)
    bound: set[str] = field(default_factory=set)  # functions a call was read for
    unbound: set[str] = field(default_factory=set)  # functions a call was not read for (limits)
    walked: int = 0  # tokens of bodies read for calls
    calls: int = 0  # calls read
    launching: set[str] = field(default_factory=set)  # functions whose body may start a program that matters


class Interpreter:
    """Walk a script's tokens; call ``on_command`` for every simple command that runs a program.

    A call of a function the script defines reads the function's body again with ``$1``,
    ``$#``, ``"$@"`` bound to the call's words (``_call``); the body's commands as its
    definition reads them are then left out, unless no call of it could be read."""

    def __init__(
        self,
        tokens: list,
        mapper: Mapper,
        on_command: Callable[[Command], None],
        state: ShellState | None = None,
        multiline: bool = True,
        functions: _Functions | None = None,
        depth: int = 0,
        guarded: bool = False,
    ) -> None:
        self.tokens = tokens
        self.mapper = mapper
        self.on_command = on_command
        self.state = state or ShellState()
        self.multiline = multiline
        self.shared = functions or _Functions()
        self.functions = self.shared.names
        self._calls = self.shared.passes_arguments_on
        self.depth = depth
        self.frames: list[_Frame] = []
        self._in_call = guarded  # the call this reader reads a body for may not run
        self._guarded = False
        self._assigned_after: list[tuple[int, set[str]]] | None = None

    # ---------------------------------------------------------------- driver

    def run(self, start: int = 0, stop: int | None = None) -> ShellState:
        tokens = self.tokens
        count = len(tokens) if stop is None else stop
        index = start
        words: list[RawWord] = []
        assignments: list[tuple[str, RawWord, int]] = []
        at_start = True
        mode = "normal"  # normal | header (for ... do) | case-header | case-pattern
        pending_function: str | None = None
        conditional: ShellState | None = None  # state before a command after && / ||
        after_or = False  # the command follows ``||``: it runs only when the one before fails
        in_pipeline = False
        pipeline_state: ShellState | None = None

        def flush(terminator: str | None) -> None:
            nonlocal words, assignments, at_start, conditional, in_pipeline, pipeline_state, after_or
            self._guarded = self._in_call or bool(self.frames) or after_or
            after_or = terminator == "||"
            if words or assignments:
                background = terminator == "&"
                piped = terminator in ("|", "|&") or in_pipeline
                if piped and pipeline_state is None:
                    pipeline_state = self.state.copy()
                before = self.state.copy() if background else None
                self._simple(words, assignments)
                if before is not None:
                    self.state = before
                if piped:
                    if terminator in ("|", "|&"):
                        in_pipeline = True
                    else:
                        in_pipeline = False
                    if pipeline_state is not None:
                        self.state = pipeline_state.copy()
                    if not in_pipeline:
                        pipeline_state = None
                if conditional is not None:
                    self.state = join([conditional, self.state])
                    conditional = None
            words, assignments = [], []
            at_start = True
            if terminator in ("&&", "||"):
                conditional = self.state.copy()

        while index < count:
            token = tokens[index]
            index += 1
            if mode == "header":
                if isinstance(token, RawWord) and token.literal() == "do":
                    mode = "normal"
                    at_start = True
                continue
            if mode == "case-header":
                if isinstance(token, RawWord) and token.literal() == "in":
                    mode = "case-pattern"
                continue
            if mode == "case-pattern":
                if isinstance(token, RawWord) and token.literal() == "esac":
                    self._close_case()
                    mode = "normal"
                elif isinstance(token, Op) and token.op == ")":
                    self._case_arm()
                    mode = "normal"
                    at_start = True
                elif isinstance(token, RawWord):
                    frame = self._top("case")
                    if frame is not None:
                        frame.patterns.append(token)
                continue
            if isinstance(token, Newline):
                flush(None)
                continue
            if isinstance(token, Op):
                op = token.op
                if op in REDIRECTIONS:
                    if index < count and isinstance(tokens[index], RawWord):
                        index += 1  # the redirection's target
                    continue
                if op in TERMINATORS:
                    if op in (";;", ";&", ";;&"):
                        flush(None)
                        frame = self._top("case")
                        if frame is not None:
                            if not frame.dead:
                                frame.ends.append(self.state)
                            self.state = frame.entry.copy()
                            frame.fallthrough = frame.fallthrough or op != ";;"
                            frame.dead = False
                            mode = "case-pattern"
                        continue
                    flush(op)
                    continue
                if op == "(":
                    if words and len(words) == 1 and not assignments and index < count and isinstance(tokens[index], Op) and tokens[index].op == ")":
                        pending_function = words[0].literal() or ""
                        words = []
                        index += 1
                        at_start = True
                        continue
                    flush(None)
                    if pending_function is not None:
                        self._enter_function(pending_function, index - 1)
                        pending_function = None
                    else:
                        self.frames.append(_Frame("subshell", entry=self.state.copy()))
                    continue
                if op == ")":
                    flush(None)
                    frame = self.frames.pop() if self.frames else None
                    if frame is not None:
                        self._leave(frame)
                    continue
                continue
            # A word.
            if at_start and not words:
                literal = token.literal()
                if not assignments and literal in RESERVED:
                    mode_change = self._reserved(literal, index - 1, pending_function)
                    if literal in ("{",) and pending_function is not None:
                        pending_function = None
                    if literal == "function":
                        if index < count and isinstance(tokens[index], RawWord):
                            pending_function = tokens[index].literal() or ""
                            index += 1
                            if index + 1 < count and isinstance(tokens[index], Op) and tokens[index].op == "(":
                                index += 2
                        continue
                    if mode_change:
                        mode = mode_change
                    continue
                match = _ASSIGNMENT.match(token.plain_prefix())
                if match:
                    assignments.append((match.group(1), token, match.end()))
                    continue
                element = _ELEMENT_ASSIGNMENT.match(token.plain_prefix())
                if element:
                    self.state.vars[element.group(1)] = UNKNOWN  # NAME[i]=value changes an array
                    continue
            words.append(token)
            at_start = False
        flush(None)
        while self.frames:
            self._leave(self.frames.pop())
        if self.depth == 0:
            shared = self.shared
            for name, command in shared.deferred:
                if name not in shared.bound or name in shared.unbound:
                    self.on_command(command)
        return self.state

    def _top(self, kind: str) -> _Frame | None:
        for frame in reversed(self.frames):
            if frame.kind == kind:
                return frame
        return None

    # ------------------------------------------------------------- structure

    def _reserved(self, word: str, index: int, pending_function: str | None) -> str | None:
        state = self.state
        if word == "if":
            self.frames.append(_Frame("if", test=[]))
        elif word == "then":
            frame = self._top("if")
            if frame is not None:
                frame.cond = state.copy()
                verdict = self._verdict(frame.test or []) if self.depth > 0 else None
                self._decide(frame, verdict, verdict is None and _expands(frame.test or []))
                frame.test = None
        elif word in ("elif", "else"):
            frame = self._top("if")
            if frame is not None:
                if not frame.dead:
                    frame.ends.append(state)  # a branch not taken leaves nothing behind
                self.state = (frame.cond or state).copy()
                frame.dead = frame.settled
                if word == "else":
                    frame.has_else = True
                    self._blind_branch(frame)
                else:
                    frame.test = []
        elif word == "fi":
            frame = self._pop("if")
            if frame is not None:
                if not frame.dead:
                    frame.ends.append(self.state)
                if not frame.has_else and not frame.settled:
                    frame.ends.append(frame.cond or self.state)
                if frame.ends:
                    self.state = join(frame.ends)
                if frame.blind and frame.cond is not None:
                    self.state.positional = frame.cond.positional
        elif word in ("while", "until", "for", "select"):
            end = _loop_end(self.tokens, index)
            self.state.forget(_assigned_names(self.tokens, index, end))
            self.frames.append(_Frame("loop", entry=self.state.copy()))
            if word in ("for", "select"):
                return "header"
        elif word == "done":
            frame = self._pop("loop")
            if frame is not None:
                self.state = join([self.state, frame.entry])
        elif word == "case":
            subject = self.tokens[index + 1] if index + 1 < len(self.tokens) else None
            self.frames.append(_Frame("case", entry=self.state.copy(), subject=subject if isinstance(subject, RawWord) else None))
            return "case-header"
        elif word == "esac":
            self._close_case()
        elif word == "{":
            if pending_function is not None:
                self._enter_function(pending_function, index)
            else:
                self.frames.append(_Frame("group"))
        elif word == "}":
            frame = self.frames.pop() if self.frames else None
            if frame is not None:
                self._leave(frame)
        return None

    def _pop(self, kind: str) -> _Frame | None:
        while self.frames:
            frame = self.frames.pop()
            if frame.kind == kind:
                return frame
            self._leave(frame)
        return None

    def _close_case(self) -> None:
        frame = self._pop("case")
        if frame is not None:
            if not frame.dead:
                frame.ends.append(self.state)
            if not frame.settled:
                frame.ends.append(frame.entry)  # no arm matched
            self.state = join(frame.ends) if frame.ends else frame.entry
            if frame.blind and frame.entry is not None:
                self.state.positional = frame.entry.positional

    def _enter_function(self, name: str, index: int) -> None:
        end = _group_end(self.tokens, index)
        body_names = _assigned_names(self.tokens, index, end)
        self.functions[name] = body_names
        self.shared.bodies[name] = (index + 1, end)
        saved = self.state
        entry = saved.copy()
        entry.forget(self._assigned_from(index))
        self.frames.append(_Frame("function", saved=saved, name=name))
        self.state = entry

    def _assigned_from(self, index: int) -> set[str]:
        """Names assigned anywhere from ``index`` on: unknown inside a function body."""
        return _assigned_names(self.tokens, index, len(self.tokens))

    def _leave(self, frame: _Frame) -> None:
        if frame.kind == "subshell" and frame.entry is not None:
            self.state = frame.entry
        elif frame.kind == "function" and frame.saved is not None:
            self.state = frame.saved
        elif frame.kind == "if":
            ends = frame.ends + [self.state] + ([frame.cond] if frame.cond is not None else [])
            self.state = join(ends)
        elif frame.kind in ("loop", "case") and frame.entry is not None:
            self.state = join([self.state, frame.entry])

    # -------------------------------------------------------- simple command

    def _case_arm(self) -> None:
        """Whether the ``case`` arm whose patterns were just read is certainly (not) taken."""
        frame = self._top("case")
        if frame is None:
            return
        verdict = None
        if self.depth > 0 and not frame.fallthrough and frame.subject is not None and frame.patterns:
            verdict = self._matches(frame.subject, frame.patterns)
        self._decide(frame, verdict, self.depth > 0 and verdict is None and _expands([[frame.subject, *frame.patterns]] if frame.subject else []))
        frame.patterns = []

    def _decide(self, frame: _Frame, verdict: bool | None, blind: bool) -> None:
        """A branch's test read (``if ...; then``, a ``case`` arm's patterns): taken, not taken or
        either (``verdict``), and ``blind`` when no one can decide it."""
        frame.blind = frame.blind or blind
        frame.dead = frame.settled or verdict is False
        frame.settled = frame.settled or verdict is True
        self._blind_branch(frame)

    def _blind_branch(self, frame: _Frame) -> None:
        """A branch taken or not on a test no one can decide: the call's words are unknown in it."""
        if frame.blind and self.state.positional is not None:
            self.state = self.state.copy()
            self.state.positional = UNKNOWN_ARGUMENTS

    def _known_text(self, raw: RawWord) -> str | None:
        words = expand(raw, self.state, self.mapper, self.multiline, False)
        return words[0].text if len(words) == 1 and words[0].known else None

    def _matches(self, subject: RawWord, patterns: list[RawWord]) -> bool | None:
        """``case $1 in vllm|serve)``: whether a pattern matches the known word; None if unknown."""
        text = self._known_text(subject)
        if text is None:
            return None
        for raw in patterns:
            pattern = self._known_text(raw)
            if pattern is None:
                return None
            # Quoted or expanded text matches itself; an unquoted literal is a glob pattern.
            if text == pattern if raw.literal() is None else fnmatch.fnmatchcase(text, pattern):
                return True
        return False

    def _verdict(self, commands: list[list[RawWord]]) -> bool | None:
        """Whether an ``if``'s condition certainly holds: one test comparing words of known
        text (``[ "$kind" = vllm ]``, ``[[ $1 != sg* ]]``, ``test "$x" == y``, ``[ -n "$LEN" ]``);
        else None."""
        if len(commands) != 1:
            return None
        raws = commands[0]
        program = raws[0].literal() if raws else None
        closing = {"[": "]", "[[": "]]", "test": None}.get(program or "", "")
        if closing == "":
            return None
        operands = raws[1:-1] if closing else raws[1:]
        if closing and raws[-1].literal() != closing:
            return None
        if len(operands) == 2 and operands[0].literal() in ("-n", "-z"):
            text = self._known_text(operands[1])  # [ -n "$MAX_MODEL_LEN" ]
            return None if text is None else bool(text) == (operands[0].literal() == "-n")
        if len(operands) != 3:
            return None
        operator = operands[1].literal()
        if operator not in ("=", "==", "!="):
            return None
        texts = [self._known_text(operands[0]), self._known_text(operands[2])]
        if None in texts:
            return None
        if program == "[[" and operands[2].literal() is not None:
            same = fnmatch.fnmatchcase(texts[0], texts[1])  # [[ $1 == sg* ]]: a pattern
        else:
            same = texts[0] == texts[1]
        return same == (operator != "!=")

    def _simple(self, raws: list[RawWord], assignments: list[tuple[str, RawWord, int]]) -> None:
        state = self.state
        if self.frames and self.frames[-1].test is not None:
            self.frames[-1].test.append(raws)
        if not raws:
            for name, raw, skip in assignments:
                state.assign(name, self._value(name, raw, skip))
            return
        name = raws[0].literal()
        if name in ASSIGNING_BUILTINS:
            self._assigning_builtin(name, raws[1:])
            return
        if name == "unset":
            for raw in raws[1:]:
                literal = raw.literal()
                if literal and _NAME.fullmatch(literal):
                    state.unset(literal)
            return
        if name == "set":
            for raw in raws[1:]:
                literal = raw.literal() or ""
                if literal.startswith("-") and "a" in literal and not literal.startswith("--"):
                    state.allexport = True
                elif literal.startswith("+") and "a" in literal:
                    state.allexport = False
            literals = [raw.literal() for raw in raws[1:]]
            if "--" in literals and state.positional is not None:
                # set -- WORDS: the parameters of the call being read are these words.
                state.positional = tuple(self._expand_all(raws[2 + literals.index("--") :]))
            if "allexport" in literals:
                index = literals.index("allexport")
                state.allexport = index > 0 and literals[index - 1] == "-o"
            return
        if name == "eval" and len(raws) == 2 and not self._dead():
            self._eval(raws)
        if name in ("source", ".", "eval"):
            state.forget_all()
            return
        if name in ("read", "mapfile", "readarray"):
            for raw in raws[1:]:
                literal = raw.literal()
                if literal and _NAME.fullmatch(literal):
                    state.vars[literal] = UNKNOWN
            return
        if name == "printf":
            self._printf_to_variable(raws)
            return
        if name == "shift" and state.positional is not None:
            count = raws[1].literal() if len(raws) > 1 else "1"
            if count is not None and count.isdigit():
                arguments = state.positional
                if int(count) <= len(arguments) or not all(_one_argument(word) for word in arguments):
                    state.positional = _shifted(arguments, int(count))  # else shift fails: no change
            else:
                state.positional = UNKNOWN_ARGUMENTS
            return
        if name in self.functions:
            if not self._dead():
                self._call(name, raws, assignments)
            state.forget(self.functions[name])
            return
        if name is None or name in _COMMAND_PREFIXES:
            if self._command_variable(raws, assignments):
                return
        if name is not None and not might_launch(name):
            return  # echo, cat, pip ...: no engine, and no change to the shell's state
        words = self._expand_all(raws)
        env = self._command_env(assignments)
        env_open = state.env_open
        start = self.mapper(raws[0].start)
        last = self.mapper(raws[-1].end - 1)
        self._emit(Command(words, env, env_open, start, last + 1 if last >= 0 else start, self._guarded))

    def _command_variable(self, raws: list[RawWord], assignments: list[tuple[str, RawWord, int]]) -> bool:
        """``$CMD`` unquoted where a command stands (``exec $VLLM_CMD``, ``nohup $cmd &``,
        ``$DOCKER_CMD $VLLM_CMD``), CMD holding command text: the shell splits the text into
        words without reading quotes again, which is how a script reads it when the text holds
        no quote, backslash, glob or other expansion; then it is read as that script."""
        position = 0
        while position < len(raws) - 1 and raws[position].literal() in _COMMAND_PREFIXES:
            position += 1
        texts: list[tuple[str, tuple]] = [("", ())]
        held_text = False
        for raw in raws[position:]:
            literal = raw.literal()
            if literal is not None and raw.parts and all(isinstance(p, Lit) and not p.quoted for p in raw.parts):
                more = ((literal, tuple(self.mapper(i) for p in raw.parts for i in p.idx)),)
            elif len(raw.parts) == 1 and isinstance(raw.parts[0], Var) and not raw.parts[0].quoted and raw.parts[0].op == "":
                value = self.state.lookup(raw.parts[0].name)
                more = _texts(value) if isinstance(value, (str, CommandText)) else None
                if more is None:
                    return False
                held_text = held_text or isinstance(value, (CommandText, LocatedText))
            else:
                return False
            glue = (" ",) if texts[0][0] else ()
            texts = [(text + " " * len(glue) + added, offs + (-1,) * len(glue) + tuple(added_offs)) for text, offs in texts for added, added_offs in more]
            if len(texts) > _MAX_COMMAND_TEXTS:
                return False
        if not held_text or any(_RESCANNED.search(re.sub(_OUTER_REFERENCE, "", text)) for text, _ in texts):
            return False
        first, last = raws[position], raws[-1]
        start, end = self.mapper(first.start), self.mapper(last.end - 1) + 1
        script = Word(None, start, end, style=SHELL, extra={"editable": False, "script": texts[0], "scripts": texts})
        words = self._expand_all(raws[:position])
        words += [Word("sh", start, start, style=SHELL, extra={"editable": False}), Word("-c", start, start, style=SHELL, extra={"editable": False}), script]
        env = self._command_env(assignments)
        command_start = self.mapper(raws[0].start)
        self._emit(Command(words, env, self.state.env_open, command_start, end, self._guarded))
        return True

    def _eval(self, raws: list[RawWord]) -> None:
        """``eval "$CMD"``: the text is read again as a script, as ``sh -c`` reads it."""
        script = expand(raws[1], self.state, self.mapper, self.multiline, self._script_arguments())
        if len(script) != 1 or script[0].open or (script[0].text is None and "script" not in script[0].extra):
            return
        start = self.mapper(raws[0].start)
        shell = Word("sh", start, start + 4, style=SHELL, extra={"editable": False})
        option = Word("-c", start, start + 4, style=SHELL, extra={"editable": False})
        last = self.mapper(raws[-1].end - 1)
        state = self.state
        env = dict(state.env)
        self._emit(Command([shell, option, script[0]], env, state.env_open, start, last + 1 if last >= 0 else start, self._guarded))

    def _dead(self) -> bool:
        """In a branch the words of the call being read rule out."""
        return any(frame.dead for frame in self.frames)

    def _emit(self, command: Command) -> None:
        if self._dead():
            return
        frame = self._top("function")
        if frame is not None and self._called(frame.name or ""):
            self.shared.deferred.append((frame.name or "", command))
        else:
            self.on_command(command)

    def _called(self, name: str) -> bool:
        shared = self.shared
        if shared.called is None:
            shared.called = _command_names(self.tokens)
        return name in shared.called

    def _may_launch(self, name: str, start: int, stop: int) -> bool:
        """A word of the body may start an engine, install one, or call a function (over-approximated:
        any such word, and any program named by an expansion)."""
        launching = self.shared.launching
        if name in launching:
            return True
        tokens = self.tokens
        previous = None
        for index in range(start, stop):
            token = tokens[index]
            if isinstance(token, RawWord):
                literal = token.literal()
                if literal is not None:
                    found = might_launch(literal) or literal in self.functions
                else:
                    found = _at_command_start(previous) and not _ASSIGNMENT.match(token.plain_prefix())
                if found:
                    launching.add(name)
                    return True
            previous = token
        return False

    def _call(self, name: str, raws: list[RawWord], assignments: list[tuple[str, RawWord, int]]) -> None:
        """Read the body of function ``name`` for this call: its positional parameters are the
        call's words, its variables the script's at the call."""
        shared = self.shared
        body = shared.bodies.get(name)
        if body is None:
            return
        start, stop = body
        outer = self._top("function")
        if outer is not None and self._called(outer.name or ""):
            return  # in the definition of a function the script calls: read at those calls
        if not self._may_launch(name, start, stop):
            return  # log "...", wait_for_server: nothing to read with the call's words
        if self.depth >= _CALL_DEPTH or shared.calls >= _CALLS or shared.walked + stop - start > _CALL_TOKENS:
            shared.unbound.add(name)  # recursion, or too much to read: as its definition reads it
            return
        shared.walked += stop - start
        shared.calls += 1
        shared.bound.add(name)
        state = self.state
        entry = state.copy()
        entry.positional = tuple(self._expand_all(raws[1:]))
        for var, raw, skip in assignments:
            entry.assign(var, assignment_value(raw, skip, state), export=True)  # FOO=1 name ...
        reader = Interpreter(self.tokens, self.mapper, self._emit, entry, self.multiline, shared, self.depth + 1, self._guarded)
        reader.run(start, stop)

    def _value(self, name: str, raw: RawWord, skip: int, append: bool | None = None) -> object:
        """The value ``NAME=value``, ``NAME+=value`` or ``NAME=( ... )`` gives NAME."""
        state = self.state
        if append is None:
            append = raw.plain_prefix()[skip - 2 : skip] == "+="
        elements = raw.parts[-1].elements if len(raw.parts) == 2 and isinstance(raw.parts[-1], Unknown) else None
        if elements is not None:
            words = self._expand_all(elements)
            current = state.lookup(name)
            if append:
                if not isinstance(current, ArrayValue):
                    return UNKNOWN
                return ArrayValue((*current, *words))
            return ArrayValue(words)
        value = assignment_value(raw, skip, state)
        if append:
            current = state.lookup(name)
            held = _texts(current) if isinstance(current, (CommandText, str)) else None
            more = _script_templates(raw, state, self.mapper, skip) if held and (value is UNKNOWN or isinstance(current, (CommandText, LocatedText))) else []
            if more:
                # NAME+=" --flag": the command text goes on.
                return _command_value([(text + added, offs + tuple(added_offs)) for text, offs in held for added, added_offs in more])
            return current + value if isinstance(current, str) and isinstance(value, str) else UNKNOWN
        if value is UNKNOWN or (isinstance(value, str) and any(ch in value for ch in " \t\n")):
            located = command_text(raw, skip, state, self.mapper)
            if located is not None and (value is UNKNOWN or located == value):
                return located
        return value

    def _expand_all(self, raws) -> list[Word]:
        """The words ``raws`` expand to here, in order."""
        script_arguments = self._script_arguments()
        words: list[Word] = []
        for raw in raws:
            words.extend(expand(raw, self.state, self.mapper, self.multiline, script_arguments))
        return words

    def _command_env(self, assignments) -> dict:
        """The environment a command runs with: the shell's, and its own ``NAME=value`` words."""
        env = dict(self.state.env)
        for var, raw, skip in assignments:
            env[var] = env_value(assignment_value(raw, skip, self.state))
        return env

    def _script_arguments(self) -> bool:
        """``$@`` here holds the script's own arguments (``expand``'s ``script_arguments``)."""
        frame = self._top("function")
        return frame is None or self._passes_arguments_on(frame.name or "")

    def _passes_arguments_on(self, name: str) -> bool:
        """Every call of function ``name`` in the script passes it the script's own arguments
        (``main "$@"``) or none: its ``$@`` is then the script's."""
        if name not in self._calls:
            self._calls[name] = _passes_arguments_on(self.tokens, name)
        return self._calls[name]

    def _printf_to_variable(self, raws: list[RawWord]) -> None:
        """``printf -v NAME FORMAT ...`` assigns NAME at run time: its value is unknown."""
        rest = raws[1:]
        for index, raw in enumerate(rest):
            prefix = raw.plain_prefix()
            if prefix == "--" or not prefix.startswith("-"):
                return  # the format: no more options
            if not prefix.startswith("-v"):
                continue
            literal = raw.literal()
            if literal == "-v":
                literal = rest[index + 1].literal() if index + 1 < len(rest) else None
            elif literal is not None:
                literal = literal[2:]
            name = literal.split("[", 1)[0] if literal else None
            if name and _NAME.fullmatch(name):
                self.state.vars[name] = UNKNOWN
            else:
                self.state.forget_all()  # a name we cannot read
            return

    def _assigning_builtin(self, name: str, raws: list[RawWord]) -> None:
        state = self.state
        export = name == "export"
        options = [raw.literal() or "" for raw in raws if (raw.literal() or "").startswith(("-", "+"))]
        if name != "export" and any(option.startswith("-") and "n" in option for option in options):
            # ``declare -n REF=NAME``: writes through REF change NAME unseen.
            state.forget_all()
            return
        if any(option.startswith("-") and "x" in option for option in options):
            export = True
        if name == "export" and any(option.startswith("-") and "n" in option for option in options):
            return
        for raw in raws:
            literal = raw.plain_prefix()
            if literal.startswith(("-", "+")) and raw.literal() is not None:
                continue
            match = _ASSIGNMENT.match(literal)
            if match:
                state.assign(match.group(1), self._value(match.group(1), raw, match.end(), bool(match.group(2))), export=export)
                continue
            plain = raw.literal()
            if plain and _NAME.fullmatch(plain):
                if export:
                    state.export(plain)
                elif name == "local":
                    state.vars[plain] = ""
            else:
                state.forget_all()  # export "$X"=...: names we cannot read


def analyse(
    text: str,
    on_command: Callable[[Command], None],
    mapper: Mapper | None = None,
    state: ShellState | None = None,
    multiline: bool = True,
) -> ShellState:
    """Lex and walk a script; raises ShellSyntaxError for unterminated quotes."""
    import gc

    # Tokens are many small objects that live until the walk ends: a cyclic
    # collection in the middle would traverse all of them, again and again.
    enabled = gc.isenabled()
    gc.disable()
    try:
        tokens = lex(text)
        interpreter = Interpreter(tokens, mapper or Mapper(), on_command, state, multiline)
        return interpreter.run()
    finally:
        if enabled:
            gc.enable()
