"""SGLang's server with the same flag names: not vLLM."""
from sglang.srt.entrypoints.http_server import launch_server
from sglang.srt.server_args import prepare_server_args
import sys

if __name__ == "__main__":
    server_args = prepare_server_args(sys.argv[1:])
    launch_server(server_args)
