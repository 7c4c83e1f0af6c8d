"""``ConfigTree``'s index of the leaves below each mapping path agrees with the
plain meaning of its operations (a scan of every key), under random edits."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from vllm_lint.frameworks.tree import ConfigTree, Entry

PARTS = st.sampled_from(["a", "b", "c", "vllm", "", "x_y"])
PATHS = st.lists(PARTS, min_size=1, max_size=4).map(".".join)
EDITS = st.lists(
    st.tuples(st.sampled_from(["set", "remove", "assign", "delete", "pop", "merge"]), PATHS, st.integers(0, 9)),
    max_size=40,
)


class ScanTree:
    """The operations as a scan of every key."""

    def __init__(self) -> None:
        self.entries: dict[str, int] = {}

    def remove(self, path: str) -> None:
        start = path + "."
        for key in [k for k in self.entries if k == path or k.startswith(start)]:
            del self.entries[key]
        parts = path.split(".")
        for i in range(1, len(parts)):
            self.entries.pop(".".join(parts[:i]), None)

    def set(self, path: str, value: int) -> None:
        self.remove(path)
        self.entries[path] = value

    def has_below(self, prefix: str) -> bool:
        return prefix in self.entries or any(key.startswith(prefix + ".") for key in self.entries)

    def children(self, prefix: str) -> dict[str, list[tuple[str, int]]]:
        start = prefix + "." if prefix else ""
        result: dict[str, list[tuple[str, int]]] = {}
        for key, value in self.entries.items():
            if start and not key.startswith(start):
                continue
            head, _, tail = key[len(start):].partition(".")
            result.setdefault(head, []).append((tail, value))
        return result


def _values(tree: ConfigTree) -> dict[str, int]:
    return {key: entry.value for key, entry in tree.entries.items()}


@settings(max_examples=150, deadline=None)
@given(EDITS, st.lists(PATHS, min_size=1, max_size=6))
def test_index_agrees_with_a_scan(edits, probes):
    tree, scan = ConfigTree(), ScanTree()
    for operation, path, value in edits:
        if operation == "set":
            tree.set(path, Entry(value))
            scan.set(path, value)
        elif operation == "remove":
            tree.remove(path)
            scan.remove(path)
        elif operation == "assign":  # written straight into the entries, as the readers do
            tree.entries[path] = Entry(value)
            scan.entries[path] = value
        elif operation == "delete":
            if path in scan.entries:
                del tree.entries[path]
                del scan.entries[path]
        elif operation == "pop":
            assert (tree.entries.pop(path, None) is None) == (scan.entries.pop(path, None) is None)
        else:
            other = ConfigTree()
            other.set(path, Entry(value))
            tree.merge(other)
            scan.set(path, value)
        assert list(_values(tree).items()) == list(scan.entries.items())
    for prefix in [*probes, ""]:
        assert tree.has_below(prefix) == scan.has_below(prefix)
        assert {k: [(t, e.value) for t, e in v] for k, v in tree.children(prefix).items()} == scan.children(prefix)
        start = prefix + "."
        assert tree.leaves_below(prefix) == [key for key in scan.entries if key.startswith(start)]


def test_a_plain_dict_of_entries_is_indexed_on_first_use():
    tree = ConfigTree(entries={"a.b": Entry(1), "a.c": Entry(2), "d": Entry(3)})
    tree.set("a", Entry({}))
    assert list(tree.entries) == ["d", "a"]
    tree.entries = {"x.y": Entry(1)}
    assert tree.has_below("x") and not tree.has_below("y")


def test_entries_survive_a_copy_and_pickling():
    tree = ConfigTree()
    tree.set("a.b.c", Entry(1))
    tree.set("a.d", Entry(2))
    for entries in (tree.entries.copy(), pickle.loads(pickle.dumps(tree.entries))):
        copy = ConfigTree(entries=entries)
        copy.remove("a.b")
        assert list(copy.entries) == ["a.d"]
    assert list(tree.entries) == ["a.b.c", "a.d"]
