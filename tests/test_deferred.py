"""Calls that call their first argument later (``vllm_lint.python.deferred``): the call each one
makes, and the project shapes the resolver reads through them."""

from __future__ import annotations

import ast

from fixtures import TESTDATA
from vllm_lint.python import needs_analysis
from vllm_lint.python.deferred import DEFERRED_CALLS, split, spelled_target
from vllm_lint.python.project import ProjectModules
from vllm_lint.python.summary import touched_by

NODES = TESTDATA / "python" / "callers" / "inference" / "nodes"


def _call(text):
    return ast.parse(text).body[0].value


def _made(path, text):
    deferral = split(DEFERRED_CALLS[path], _call(text))
    assert deferral is not None
    return ast.unparse(deferral.call), [ast.unparse(own) for own in deferral.own]


def test_a_launchpad_node_passes_every_other_argument():
    assert _made("launchpad.CourierNode", "lp.CourierNode(Actor, server, kw, args, size=2)") == (
        "Actor(server, kw, args, size=2)",
        [],
    )


def test_a_process_unpacks_its_args_and_kwargs_and_keeps_its_own_keywords():
    made, own = _made(
        "multiprocessing.Process",
        "ctx.Process(target=run, args=(0, kw), kwargs={'prompts': p}, daemon=True)",
    )
    assert made == "run(0, kw, prompts=p)"
    assert own == ["True"]


def test_arguments_the_file_does_not_spell_out_are_passed_unpacked():
    made, _ = _made("threading.Thread", "Thread(None, work, 'w', items, options)")
    assert made == "work(*items, **options)"


def test_a_call_without_its_callable_is_not_split():
    assert split(DEFERRED_CALLS["multiprocessing.Process"], _call("Process(name='idle')")) is None
    assert split(DEFERRED_CALLS["launchpad.PyNode"], _call("lp.PyNode(*nodes)")) is None


def test_the_spelling_finds_the_callable_and_nothing_else():
    assert ast.unparse(spelled_target(_call("executor.submit(build, cfg)"))) == "build"
    assert ast.unparse(spelled_target(_call("mp.Process(target=run, args=(1,))"))) == "run"
    assert spelled_target(_call("pool.map(build, configs)")) is None


def test_a_launchpad_node_leaves_the_objects_it_is_handed_alone_only_where_launchpad_is_imported():
    loop = ast.parse("for i in range(n):\n    program.add_node(lp.CourierNode(actor_cls, kw))\n").body[0]
    assert "kw" in touched_by(loop.body).names
    assert "kw" not in touched_by(loop.body, copying=frozenset({"CourierNode"})).names


def test_storing_one_attribute_of_self_in_a_loop_touches_that_attribute_only():
    loop = ast.parse("for _ in range(3):\n    self.llm = make()\n    self.kwargs['seed'] = 1\n").body[0]
    touched = touched_by(loop.body)
    assert "self" not in touched.names
    assert touched.self_attributes == {"llm", "kwargs"}
    assert "self" in touched_by(ast.parse("register(self)").body).names


def test_a_module_that_hands_a_class_to_a_deferring_call_is_analysed():
    data = (NODES / "program.py").read_bytes()
    assert b"LLM(" not in data
    assert needs_analysis(data, str(NODES / "program.py"))


def test_a_base_class_imported_deeper_than_imports_are_followed_is_found_again():
    project = ProjectModules()
    base = project.imported_name(str(NODES / "preference_actor.py"), "ActorBase")
    assert getattr(base.node, "name", None) == "ActorBase"
    assert base.path.endswith("base_actor.py")
