"""A project whose engine class is a functools.partial defined in another module."""
