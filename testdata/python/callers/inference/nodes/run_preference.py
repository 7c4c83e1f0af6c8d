import argparse

from inference.nodes.preference_actor import PreferenceActor
from inference.nodes.program import get_preference_program

parser = argparse.ArgumentParser()
parser.add_argument("--pretrain")
args = parser.parse_args()

program = get_preference_program(args, PreferenceActor)
