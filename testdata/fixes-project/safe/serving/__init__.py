"""A project whose engine settings live in their own module."""
