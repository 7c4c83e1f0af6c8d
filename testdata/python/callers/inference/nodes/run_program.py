import argparse

import launchpad as lp

from inference.nodes.generation_actor import GenerationActor
from inference.nodes.program import get_program

parser = argparse.ArgumentParser()
parser.add_argument("--pretrain")
args = parser.parse_args()

program, resources = get_program(args, actor_cls=GenerationActor)
lp.launch(program, launch_type="local_mp", local_resources=resources)
