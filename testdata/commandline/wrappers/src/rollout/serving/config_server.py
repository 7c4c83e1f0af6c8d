"""Not a wrapper we can read: the namespace is pre-filled from the trainer's config."""
import uvloop

from vllm.entrypoints.openai.api_server import run_server
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils.argparse_utils import FlexibleArgumentParser

from rollout.serving.settings import load_namespace


if __name__ == "__main__":
    parser = make_arg_parser(FlexibleArgumentParser())
    args = parser.parse_args(namespace=load_namespace())
    uvloop.run(run_server(args))
