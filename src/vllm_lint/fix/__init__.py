"""Automatic fixes: ``vllm-lint check --fix``, ``--diff`` and a libcst codemod.

``plan`` decides which findings have a fix (no libcst); ``python`` edits
Python sources with libcst; ``text`` applies precomputed text edits from the
other front ends; ``apply`` drives the command line; ``codemod`` exposes the
same fixes to libcst's codemod runner.
"""
