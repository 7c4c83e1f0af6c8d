from setuptools import find_packages, setup

extras = {
    "vllm": ["vllm>=0.8.5,<=0.12.0"],
    "sglang": ["sglang[all]==0.4.6"],
}

setup(
    name="rl-trainer",
    version="0.4.0",
    packages=find_packages(),
    install_requires=["torch", "transformers"],
    extras_require=extras,
)
