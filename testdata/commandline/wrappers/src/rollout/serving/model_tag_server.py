"""A server that serves the positional model, as `vllm serve` does, and forces V1."""
import asyncio
import os

from vllm.entrypoints.openai.api_server import run_server
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils.argparse_utils import FlexibleArgumentParser

os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")


def main():
    parser = make_arg_parser(FlexibleArgumentParser())
    args = parser.parse_args()
    if args.model_tag is not None:
        args.model = args.model_tag
    args.logits_processors = None
    print("serving", args.model)
    asyncio.run(run_server(args))


if __name__ == "__main__":
    main()
