"""Engine helpers of the project: ``make_engine`` is called with literal keywords only
(``scripts/``); the others are entry points of other code, or take a mode from outside."""
import typer
from vllm import LLM

app = typer.Typer()


def make_engine(model: str, **overrides):
    return LLM(model=model, return_sampling_mask=True, **overrides)  # expect: VLM105


def make_checked_engine(model: str, mode: str):
    """Called with the mode replay needs in one place and a command-line value in another."""
    return LLM(model=model, return_sampling_mask=True, logprobs_mode=mode)


def make_registered_engine(**engine_kwargs):
    """Found through the table below by name: whoever looks it up passes what it likes."""
    return LLM(return_sampling_mask=True, **engine_kwargs)


BACKENDS = {"vllm": make_registered_engine}


def create_engine(model: str, **engine_kwargs):
    """Public and never called here: the project's users call it."""
    return LLM(model=model, return_sampling_mask=True, **engine_kwargs)


@app.command()
def serve(model: str, max_model_len: int = 4096, **engine_kwargs):
    """A command-line entry point: typer calls it with the command line's options."""
    return LLM(model=model, max_model_len=max_model_len, return_sampling_mask=True, **engine_kwargs)

