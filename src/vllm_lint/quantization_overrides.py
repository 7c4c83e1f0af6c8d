"""Whether one of vLLM's quantization classes claims a quantized checkpoint for the method the
user asks for.

vLLM's ``ModelConfig._verify_quantization`` asks every quantization class's
``override_quantization_method(hf_quant_cfg, user_quant, hf_config)`` in turn; the first one
that returns a method replaces the user's, and without one a method other than the
checkpoint's own is refused.  ``tools/vllm_checkpoint_checks.py`` writes each release's
overrides as small trees (their grammar is in that script); this module evaluates them with
three values: a known value, ``None``, or unknown (a call into the platform, a loop, a key of
an object vllm-lint does not read).  An override that may return anything but ``None`` on
some path claims the checkpoint as far as vllm-lint knows.
"""

from __future__ import annotations


class _Unknown:
    """A value vllm-lint does not know; ``truth`` is known for ``a and b`` with ``b`` false."""

    def __init__(self, truth=None) -> None:
        self.truth = truth

    def __repr__(self) -> str:
        return "UNKNOWN" if self.truth is None else f"UNKNOWN({self.truth})"


UNKNOWN = _Unknown()
_FALSY, _TRUTHY = _Unknown(False), _Unknown(True)
_RAISES = object()  # a path that raises another error: not the mismatch
_STRING_METHODS = {
    "lower": lambda s: s.lower(),
    "upper": lambda s: s.upper(),
    "strip": lambda s: s.strip(),
    "startswith": lambda s, p: s.startswith(tuple(p) if isinstance(p, list) else p),
    "endswith": lambda s, p: s.endswith(tuple(p) if isinstance(p, list) else p),
    "replace": lambda s, a, b: s.replace(a, b),
}


class _Object:
    """``hf_config`` as far as vllm-lint reads it: its ``model_type``."""

    def __init__(self, attributes: dict) -> None:
        self.attributes = attributes


def _truth(value):
    if isinstance(value, _Unknown):
        return UNKNOWN if value.truth is None else value.truth
    if isinstance(value, _Object):
        return True
    return bool(value)


def _unknown(value) -> bool:
    return isinstance(value, (_Unknown, _Object))


def _compare(op, left, right):
    if op in ("is", "is not"):
        if left is not None and right is not None or isinstance(left, _Unknown) or isinstance(right, _Unknown):
            return UNKNOWN  # only ``x is None`` is read, and an unknown x may be None
        same = left is None and right is None
        return same if op == "is" else not same
    if _unknown(left) or _unknown(right):
        return UNKNOWN
    try:
        if op == "==":
            return left == right
        if op == "!=":
            return left != right
        if op in ("in", "not in"):
            inside = left in right
            return inside if op == "in" else not inside
    except TypeError:
        return UNKNOWN
    return UNKNOWN


class _Evaluator:
    def __init__(self, cfg: dict, user, hf_config: _Object) -> None:
        self.params = {"cfg": cfg, "user": user, "hf_config": hf_config}
        self.steps = 0

    def expr(self, node, env):
        self.steps += 1
        if self.steps > 20000:
            return UNKNOWN
        kind = node[0]
        if kind == "const":
            return node[1]
        if kind == "param":
            return self.params.get(node[1], UNKNOWN)
        if kind == "name":
            return env.get(node[1], UNKNOWN)
        if kind == "and" or kind == "or":
            # Python's ``and``/``or``: the first operand that decides, else the last one.
            deciding = kind == "or"
            known, value = True, None
            for item in node[1]:
                value = self.expr(item, env)
                truth = _truth(value)
                if truth is UNKNOWN:
                    known = False
                elif truth is deciding:
                    return value if known else (_TRUTHY if deciding else _FALSY)
            return value if known else UNKNOWN
        if kind == "not":
            truth = _truth(self.expr(node[1], env))
            return UNKNOWN if truth is UNKNOWN else not truth
        if kind == "ifexp":
            truth = _truth(self.expr(node[1], env))
            if truth is UNKNOWN:
                return UNKNOWN
            return self.expr(node[2] if truth else node[3], env)
        if kind == "compare":
            return _compare(node[1], self.expr(node[2], env), self.expr(node[3], env))
        if kind == "isdict":
            value = self.expr(node[1], env)
            return UNKNOWN if isinstance(value, _Unknown) else isinstance(value, dict)
        if kind == "get":
            target, key, default = (self.expr(n, env) for n in node[1:4])
            if not isinstance(target, dict) or _unknown(key):
                return UNKNOWN
            try:
                return target.get(key, default)
            except TypeError:
                return UNKNOWN
        if kind == "item":
            # ``cfg["key"]`` of a key the config lacks: a KeyError, not the mismatch
            target, key = self.expr(node[1], env), self.expr(node[2], env)
            if not isinstance(target, dict) or _unknown(key):
                return UNKNOWN
            try:
                return target[key] if key in target else _RAISES
            except TypeError:
                return UNKNOWN
        if kind == "getattr":
            target = self.expr(node[1], env)
            if isinstance(target, _Object):
                return target.attributes.get(node[2], UNKNOWN)
            if target is None:
                return self.expr(node[3], env)
            return UNKNOWN
        if kind == "str":
            value = self.expr(node[1], env)
            return str(value) if isinstance(value, (str, int, float)) or value is None else UNKNOWN
        if kind == "method":
            target = self.expr(node[1], env)
            args = [self.expr(a, env) for a in node[3]]
            function = _STRING_METHODS.get(node[2])
            if not isinstance(target, str) or function is None or any(_unknown(a) for a in args):
                return UNKNOWN
            try:
                return function(target, *args)
            except (TypeError, ValueError):
                return UNKNOWN
        if kind == "inline":
            local = {name: self.expr(arg, env) for name, arg in zip(node[1], node[2])}
            outcomes = self.block(node[3], local)
            values = [value for value in outcomes if value is not _RAISES]
            if len(values) != len(outcomes) or not values:
                return UNKNOWN
            first = values[0]
            if all(not _unknown(value) and type(value) is type(first) and value == first for value in values):
                return first
            return UNKNOWN
        return UNKNOWN

    def block(self, statements, env) -> list:
        """The values a function body may return (``UNKNOWN`` among them where it may return
        anything; ``None`` where it falls off its end)."""
        outcomes, going_on = self.run(statements, [dict(env)])
        return outcomes + ([None] if going_on else [])

    def run(self, statements, paths):
        """(what the statements may return, the environments of the paths that go on after them)."""
        outcomes: list = []
        for statement in statements:
            following = []
            kind = statement[0]
            for path in paths:
                if kind == "return":
                    outcomes.append(self.expr(statement[1], path))
                elif kind == "raise":
                    outcomes.append(_RAISES)
                elif kind == "assign":
                    value = self.expr(statement[2], path)
                    if value is _RAISES:
                        outcomes.append(_RAISES)
                    else:
                        path[statement[1]] = value
                        following.append(path)
                elif kind == "if":
                    truth = _truth(self.expr(statement[1], path))
                    branches = (statement[2], statement[3]) if truth is UNKNOWN else ((statement[2] if truth else statement[3]),)
                    for branch in branches:
                        returned, going_on = self.run(branch, [dict(path)])
                        outcomes += returned
                        following += going_on
                else:  # a statement not written out: it may return anything, and change any local
                    outcomes.append(UNKNOWN)
                    following.append(dict.fromkeys(path, UNKNOWN))
            paths = following
            if len(paths) > 64:
                return outcomes + [UNKNOWN], []
        return outcomes, paths


def claimed(data: dict, cfg: dict, user: str, model_type) -> bool | None:
    """True where some method's override may claim the checkpoint for ``user`` (or may raise
    an error of its own), False where none does, None where the release's overrides are not
    all known."""
    if data.get("unresolved"):
        return None
    hf_config = _Object({"model_type": model_type if isinstance(model_type, str) else UNKNOWN})
    for tree in data.get("classes", {}).values():
        evaluator = _Evaluator(cfg, user, hf_config)
        outcomes = evaluator.block(tree, {})
        if any(value is not None for value in outcomes):
            return True
    return False
