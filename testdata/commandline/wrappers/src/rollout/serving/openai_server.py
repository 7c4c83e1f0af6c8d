"""vLLM's OpenAI server with the rollout endpoints added (weight updates, pause)."""

import uvloop
from fastapi import Request

from vllm.entrypoints.openai.api_server import router, run_server
from vllm.entrypoints.openai.cli_args import make_arg_parser, validate_parsed_serve_args
from vllm.utils.argparse_utils import FlexibleArgumentParser


@router.post("/rollout/pause")
async def pause(raw_request: Request):
    await raw_request.app.state.engine_client.pause_generation()
    return {"paused": True}


if __name__ == "__main__":
    parser = FlexibleArgumentParser(description="rollout server")
    parser = make_arg_parser(parser)
    args = parser.parse_args()
    validate_parsed_serve_args(args)
    uvloop.run(run_server(args))
