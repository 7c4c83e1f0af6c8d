"""Fixes for command-line findings: text edits that keep the file's layout.

Edits are computed on the linted file's text from the words' raw ranges:

* shell words (scripts, ``RUN``/``CMD`` shell form, ``sh -c`` strings): a
  removed option takes its blanks (or its whole continuation line) with it;
  an added option goes next to ``--return-sampling-mask``, on its own
  continuation line when the command is split over lines;
* list items (exec-form JSON, YAML flow lists): removed with their comma,
  added as ``, "--logprobs-mode", "processed_logprobs"``;
* YAML block list items: removed or added as whole ``- item`` lines;
* keys of a vLLM config file: removed as whole entries, renamed in place.

Nothing is offered when a word is not written contiguously in this file
(a variable's value, an escaped JSON string, another file).
"""

from __future__ import annotations

import re
from itertools import pairwise

from vllm_lint.findings import Edit, Fix
from vllm_lint.launch.insert import entry_lines as _entry_lines
from vllm_lint.launch.insert import insert_after
from vllm_lint.launch.words import CONFIG, JSON, SHELL, YAML_BLOCK, Source, Word

REQUIRED_MODE = "processed_logprobs"
SPEC_FIELDS = ("speculative_config", "spec_method", "spec_model", "spec_tokens")
_GAP = re.compile(r"(?:[ \t]|\\\r?\n)*")
_COMMA_GAP = re.compile(r"\s*(?:\\\r?\n\s*)*,\s*(?:\\\r?\n\s*)*")


def build_fix(finding, record, ctx) -> Fix | None:
    action = finding.fix_action
    if action is None or finding.fix_safety is None:
        return None
    try:
        if action == "set-processed-logprobs":
            result = _set_logprobs(record, ctx)
        elif action == "remove":
            name = {"VLM104": "logits_processors", "VLM106": "enable_batch_sharded_sampling", "VLM302": "return_sampling_mask_logprobs"}.get(finding.code)
            result = _remove_fields(record, ctx, [name], f"Remove --{name.replace('_', '-')}") if name else None
        elif action == "remove-speculative-config":
            result = _remove_fields(record, ctx, list(SPEC_FIELDS), "Remove the speculative decoding options")
        elif action == "remove-adaptive-verification":
            result = _remove_adaptive(record, ctx, finding)
        elif action == "rename-to-return-sampling-mask":
            result = _rename(record, ctx)
        elif action == "rename-argument":
            result = _rename_argument(record, ctx, finding)
        elif action == "remove-argument":
            result = _remove_argument(record, ctx, finding)
        else:
            result = None
    except (ValueError, IndexError, KeyError):
        return None
    if not result:
        return None
    message, spans = result
    edits = _edits(ctx.source, spans)
    if edits is None:
        return None
    return Fix(finding.fix_safety, message, edits)


REPLAY_CODES = frozenset({"VLM101", "VLM102", "VLM103", "VLM104", "VLM105", "VLM106"})


def build_disable_replay_fix(finding, record, ctx) -> Fix | None:
    """``--fix-mode disable-replay``: remove every ``--return-sampling-mask`` of the engine instead."""
    if finding.code not in REPLAY_CODES:
        return None
    groups = record.parsed.groups.get("return_sampling_mask", [])
    words = [word for group in groups for word in group]
    if not words:
        return None
    try:
        spans = _remove_words(record, ctx, words)
    except (ValueError, IndexError, KeyError):
        return None
    if not spans:
        return None
    edits = _edits(ctx.source, spans)
    if edits is None:
        return None
    return Fix("unsafe", "Remove --return-sampling-mask (turns sampling distribution replay off)", edits)


def _edits(source: Source, spans: list[tuple[int, int, str]]) -> list[Edit] | None:
    spans = sorted(spans)
    for (_s1, e1, _), (s2, _e2, _) in pairwise(spans):
        if s2 < e1:
            return None
    edits = []
    for start, end, text in spans:
        line, col = source.position(start)
        end_line, end_col = source.position(end)
        edits.append(Edit((line, col + 1), (end_line, end_col + 1), text))
    return edits


def editable(word: Word) -> bool:
    return word.located and word.text is not None and not word.maybe and not word.open and word.extra.get("editable", True)


# ------------------------------------------------------------ logprobs mode


def _set_logprobs(record, ctx):
    parsed = record.parsed
    groups = parsed.groups.get("logprobs_mode")
    if groups:
        group = groups[-1]
        flag = group[0]
        if editable(flag):
            if len(group) > 1:
                value = group[1]
                if not editable(value):
                    return None
                return "Set --logprobs-mode to processed_logprobs", [_replace_word(ctx.source, value, REQUIRED_MODE)]
            text = flag.text
            if "=" in text:
                cut = text.index("=") + 1
                offsets = flag.sub_offsets(cut, len(text))
                if offsets is None:
                    return None
                return "Set --logprobs-mode to processed_logprobs", [(offsets[0], offsets[1], REQUIRED_MODE)]
            return None
        if flag.path is None:
            return None
        # Written in a --config file: the command line wins, add it there.
    mask = parsed.mask_word
    if mask is None or not editable(mask):
        return None
    insert = _insert_after(ctx, mask, ["--logprobs-mode", REQUIRED_MODE])
    if insert is None:
        return None
    return "Add --logprobs-mode processed_logprobs", [insert]


def _replace_word(source: Source, word: Word, text: str) -> tuple[int, int, str]:
    if word.style in (JSON, YAML_BLOCK):
        quote = word.quote if word.quote in ('"', "'") else ""
        return word.start, word.end, f"{quote}{text}{quote}"
    if word.style == CONFIG:
        return word.start, word.end, text
    return word.start, word.end, text


def _insert_after(ctx, word: Word, texts: list[str]) -> tuple[int, int, str] | None:
    return insert_after(ctx.source, ctx.newline, word, texts)


# ----------------------------------------------------------------- removal


def _remove_fields(record, ctx, names: list[str], message: str):
    words: list[Word] = []
    for name in names:
        for group in record.parsed.groups.get(name, []):
            words.extend(group)
    if not words:
        return None
    spans = _remove_words(record, ctx, words)
    if spans is None:
        return None
    return message, spans


def _remove_words(record, ctx, words: list[Word]) -> list[tuple[int, int, str]] | None:
    argv = record.argv
    positions = {}
    for index, word in enumerate(argv):
        positions.setdefault(id(word), index)
    indices = []
    for word in words:
        target = word.extra.get("part_of", word)
        if not editable(target) or id(target) not in positions:
            return None
        indices.append(positions[id(target)])
    indices = sorted(set(indices))
    runs: list[list[Word]] = []
    for index in indices:
        if runs and index == runs[-1][-1][0] + 1:
            runs[-1].append((index, argv[index]))
        else:
            runs.append([(index, argv[index])])
    spans: list[tuple[int, int, str]] = []
    for run in runs:
        run_words = [word for _, word in run]
        styles = {word.style for word in run_words}
        if len(styles) != 1:
            return None
        style = styles.pop()
        if style == SHELL:
            span = _remove_shell(ctx.source, run_words)
            result = [span] if span else None
        elif style == JSON:
            span = _remove_items(ctx.source, run_words)
            result = [span] if span else None
        elif style == YAML_BLOCK:
            result = _remove_block_items(ctx.source, run_words)
        elif style == CONFIG:
            result = _remove_config(ctx.source, run_words)
        else:
            result = None
        if not result:
            return None
        spans.extend(result)
    return spans


def _remove_shell(source: Source, words: list[Word]) -> tuple[int, int, str] | None:
    text = source.text
    for a, b in pairwise(words):
        if b.start < a.end or not _GAP.fullmatch(text[a.end : b.start]):
            return None
    first, last = words[0], words[-1]
    first_line, _ = source.position(first.start)
    last_line, _ = source.position(last.end)
    line_start, _ = source.line_bounds(first_line)
    _, last_end = source.line_bounds(last_line)
    before = text[line_start : first.start]
    after = text[last.end : last_end]
    if not before.strip() and re.fullmatch(r"[ \t]*(\\[ \t]*)?", after):
        if after.strip() == "\\" and last_line < source.line_count:
            return line_start, source.line_starts[last_line], ""
        if first_line > 1:
            prev_start, prev_end = source.line_bounds(first_line - 1)
            match = re.search(r"[ \t]*\\[ \t]*$", text[prev_start:prev_end])
            if match:
                return prev_start + match.start(), last.end, ""
            if not first.multiline:
                return prev_end, last.end, ""  # a folded YAML scalar: join the lines
        return None
    start = first.start
    while start > line_start and text[start - 1] in " \t":
        start -= 1
    if start < first.start and start > line_start:
        return start, last.end, ""
    end = last.end
    while end < last_end and text[end] in " \t":
        end += 1
    return first.start, end, ""


def _remove_items(source: Source, words: list[Word]) -> tuple[int, int, str] | None:
    items = words[0].extra.get("items")
    if items is None or any(word.extra.get("items") is not items for word in words):
        return None
    first_index = words[0].extra["index"]
    last_index = words[-1].extra["index"]
    if last_index - first_index != len(words) - 1:
        return None
    text = source.text
    first, last = words[0], words[-1]
    if first_index > 0:
        previous = items[first_index - 1]
        if previous.start < 0 or not _COMMA_GAP.fullmatch(text[previous.end : first.start]):
            return None
        return previous.end, last.end, ""
    if last_index + 1 < len(items):
        following = items[last_index + 1]
        if following.start < 0 or not _COMMA_GAP.fullmatch(text[last.end : following.start]):
            return None
        return first.start, following.start, ""
    return first.start, last.end, ""


def _remove_block_items(source: Source, words: list[Word]) -> list[tuple[int, int, str]] | None:
    spans = []
    for word in words:
        line, _ = source.position(word.start)
        end_line, _ = source.position(word.end)
        if end_line != line:
            return None
        start, end = source.line_bounds(line)
        if not re.fullmatch(r"[ \t]*-[ \t]+", source.text[start : word.start]):
            return None
        if not re.fullmatch(r"[ \t]*(#.*)?", source.text[word.end : end]):
            return None
        stop = source.line_starts[line] if line < source.line_count else len(source.text)
        spans.append((start, stop, ""))
    return _merge(spans)


def _merge(spans):
    spans = sorted(spans)
    merged = []
    for span in spans:
        if merged and span[0] <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], span[1]), "")
        else:
            merged.append(span)
    return merged


def _remove_config(source: Source, words: list[Word]) -> list[tuple[int, int, str]] | None:
    spans = []
    for word in words:
        key_node = word.extra.get("key_node")
        value_node = word.extra.get("value_node")
        if key_node is None:
            continue  # a list item or value: removed with its key
        span = _entry_lines(source, key_node.start_mark.index, value_node.end_mark.index)
        if span is None:
            return None
        spans.append(span)
    return _merge(spans) if spans else None


# -------------------------------------------------------- adaptive / rename

_ADAPTIVE = r"[\"']?enable[_-]adaptive[_-]verification[\"']?\s*:\s*[^,}\]]+?"


def _remove_adaptive(record, ctx, finding):
    groups = record.parsed.groups.get("speculative_config", [])
    spans: list[tuple[int, int, str]] = []
    dotted = [group for group in groups if group[0].text and "adaptive" in group[0].text and "." in group[0].text]
    if dotted:
        words = [word for group in dotted for word in group]
        removed = _remove_words(record, ctx, words)
        if removed is None:
            return None
        return "Remove enable_adaptive_verification", removed
    if not groups:
        return None
    group = groups[-1]
    origin = finding.origin
    if group[0].style == CONFIG:
        if origin is None or origin.path is not None:
            return None
        entry = ctx.config_entries.get((None, ctx.source.offset(origin.span.line, origin.span.col)))
        if entry is None:
            return None
        key_node, value_node = entry
        span = _entry_lines(ctx.source, key_node.start_mark.index, value_node.end_mark.index)
        if span is None:
            return None
        return "Remove enable_adaptive_verification", [span]
    value = group[1] if len(group) > 1 else None
    if value is None:
        flag = group[0]
        if flag.text and "=" in flag.text and editable(flag):
            cut = flag.text.index("=") + 1
            value = flag
        else:
            return None
    else:
        cut = 0
    if not editable(value) or value.text is None:
        return None
    text = value.text
    patterns = (rf",\s*{_ADAPTIVE}(?=\s*[}}\]])|,\s*{_ADAPTIVE}(?=\s*,)", rf"{_ADAPTIVE}\s*,\s*", _ADAPTIVE)
    for pattern in patterns:
        matches = [m for m in re.finditer(pattern, text[cut:])]
        if len(matches) == 1:
            match = matches[0]
            offsets = value.sub_offsets(cut + match.start(), cut + match.end())
            if offsets is None:
                return None
            spans.append((offsets[0], offsets[1], ""))
            return "Remove enable_adaptive_verification", spans
        if len(matches) > 1:
            return None
    return None


def _rename(record, ctx):
    spans = []
    for group in record.parsed.groups.get("enable_return_sampling_mask", []):
        word = group[0]
        if not editable(word) or "=" in word.text:
            return None
        match = re.search(r"enable[-_](?=return[-_]sampling[-_]mask)", word.text)
        if match is None:
            return None
        offsets = word.sub_offsets(match.start(), match.end())
        if offsets is None:
            return None
        spans.append((offsets[0], offsets[1], ""))
    if not spans:
        return None
    return "Rename to --return-sampling-mask", spans


def successor_written(parsed, flag: str) -> bool:
    """The command line already gives the successor.  (An expansion, ``$EXTRA``, may give it
    too; argparse keeps the last one, as it would have for the old flag.)"""
    if parsed.options is None:
        return True
    return any(name == flag for name, _origin, _value in parsed.options)


def _rename_argument(record, ctx, finding):
    """VLM301: the flag (or config key) replaced by the successor vLLM documents.

    ``rename``: the flag's name changes, its value stays; ``value``: an on/off flag becomes
    the successor with the value vLLM's text gives (``--mm-processor-cache-gb 0``)."""
    rename = finding.rename
    if rename is None:
        return None
    source = ctx.source
    words = [w for w in record.argv if w.path is None and w.located and w.start >= 0 and source.span(w.start, w.end) == finding.span]
    if len(words) != 1 or not editable(words[0]):
        return None
    word = words[0]
    new_flag = rename.new_flag
    if successor_written(record.parsed, new_flag):
        return None  # the successor is written too: renaming would give it twice
    name, eq, _inline = word.text.partition("=")
    message = f"Replace {name} with {rename.spelled(True)}"
    if word.style == CONFIG:
        key_node, value_node = word.extra.get("key_node"), word.extra.get("value_node")
        if key_node is None or value_node is None:
            return None
        key_text = source.text[key_node.start_mark.index : key_node.end_mark.index]
        key = new_flag[2:].replace("-", "_") if "_" in key_text or "-" not in key_text else new_flag[2:]
        spans = [(key_node.start_mark.index, key_node.end_mark.index, key)]
        if rename.fix == "value":
            if source.text[value_node.start_mark.index : value_node.end_mark.index] not in ("true", "True", "TRUE"):
                return None
            spans.append((value_node.start_mark.index, value_node.end_mark.index, rename.value))
        return message, spans
    offsets = word.sub_offsets(0, len(name))
    if offsets is None or not name.startswith("--"):
        return None
    if rename.fix == "rename":
        return message, [(offsets[0], offsets[1], new_flag)]
    if eq:
        return None  # an on/off flag given a value: not the documented spelling
    if word.style == SHELL:
        return message, [(offsets[0], offsets[1], f"{new_flag} {rename.value}")]
    return message, [(offsets[0], offsets[1], f"{new_flag}={rename.value}")]


def _remove_argument(record, ctx, finding):
    """VLM301: an option no release of the target accepts, removed with its value when the releases
    that have it say it takes one; an option no release has is removed only when no word follows
    that could be its value."""
    from vllm_lint.launch.options import option_kind

    source = ctx.source
    argv = record.argv
    found = [i for i, w in enumerate(argv) if w.path is None and w.located and w.start >= 0 and source.span(w.start, w.end) == finding.span]
    if len(found) != 1 or not editable(argv[found[0]]):
        return None
    index = found[0]
    word = argv[index]
    name, eq, _inline = word.text.partition("=")
    if word.style == CONFIG:
        return f"Remove {name}", _remove_words(record, ctx, [word])
    words = [word]
    following = argv[index + 1] if index + 1 < len(argv) else None
    if not eq and following is not None and not (following.text or "").startswith("-"):
        kind = option_kind(name, ctx.version) if name.startswith("--") else None
        if kind in ("one", "optional"):
            words.append(following)
        elif kind not in ("flag", "bool"):
            return None  # whether the next word is its value is not known
    spans = _remove_words(record, ctx, words)
    return (f"Remove {' '.join(w.text for w in words)}", spans) if spans else None
