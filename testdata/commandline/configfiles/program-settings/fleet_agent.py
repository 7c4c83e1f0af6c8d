"""Reads the fleet's serving parameters and exports them for the node's launcher."""

import os

import yaml

with open(os.path.join(os.path.dirname(__file__), "fleet-serving-params.yaml")) as handle:
    params = yaml.safe_load(handle)

for key, value in params.items():
    os.environ["FLEET_" + key.upper().replace("-", "_")] = str(value)
