"""vLLM's ``tensorize_vllm_model(engine_args, config)`` builds an engine from the arguments object
(``create_engine_config()``, then an engine from that config) to serialize the model it loads,
and only reads the object: the engine it builds is checked as the object is then."""
import argparse
import multiprocessing

from vllm.engine.arg_utils import EngineArgs
from vllm.model_executor.model_loader.tensorizer import TensorizerConfig, tensorize_vllm_model


def serialize(model: str, tensorizer_uri: str) -> None:
    engine_args = EngineArgs(model=model, return_sampling_mask=True)  # expect: VLM105
    tensorize_vllm_model(engine_args, TensorizerConfig(tensorizer_uri=tensorizer_uri))


def serialize_in_subprocess(model: str, tensorizer_uri: str) -> None:
    process = multiprocessing.Process(target=serialize, args=(model, tensorizer_uri))
    process.start()
    process.join()


def serialize_ready(model: str, tensorizer_uri: str) -> None:
    engine_args = EngineArgs(model=model, return_sampling_mask=True)
    engine_args.logprobs_mode = "processed_logprobs"
    tensorize_vllm_model(engine_args, TensorizerConfig(tensorizer_uri=tensorizer_uri), generate_keyfile=False)


def serialize_from_cli() -> None:
    parser = argparse.ArgumentParser()
    parser = EngineArgs.add_cli_args(parser)
    parser.add_argument("--tensorizer-uri", required=True)
    args = parser.parse_args()
    engine_args = EngineArgs.from_cli_args(args)
    engine_args.return_sampling_mask = True
    tensorize_vllm_model(engine_args, TensorizerConfig(tensorizer_uri=args.tensorizer_uri))
