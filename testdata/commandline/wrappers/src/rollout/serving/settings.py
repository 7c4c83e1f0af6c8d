import argparse


def load_namespace():
    return argparse.Namespace(logprobs_mode="processed_logprobs")
