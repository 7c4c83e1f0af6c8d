"""Rollout workers whose engine configuration is a module of its own."""
