import argparse

from vllm import EngineArgs, LLMEngine

parser = EngineArgs.add_cli_args(argparse.ArgumentParser())
engine_args = EngineArgs.from_cli_args(parser.parse_args())
engine_args.return_sampling_mask = True
engine = LLMEngine.from_engine_args(engine_args)
