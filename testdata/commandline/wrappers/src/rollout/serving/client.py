"""Talks to the server; imports vLLM's parser for its --help text only."""
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils.argparse_utils import FlexibleArgumentParser

if __name__ == "__main__":
    parser = make_arg_parser(FlexibleArgumentParser())
    parser.print_help()
