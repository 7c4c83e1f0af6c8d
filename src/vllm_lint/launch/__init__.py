"""How vLLM is launched from a command line, shared by both front ends.

Argv words and where they are written (``words``), the launchers that start a
vLLM server (``launchers``), vLLM's own argument-parser semantics per release
(``flags``), ``--config`` files (``configfile``, ``yamlsrc``) and a reader of
shell command lines (``shell``).  The command-line front end (shell scripts,
Dockerfiles, YAML) and the Python front end (argv lists, ``shell=True``
strings, server wrappers) both build on this package; it imports neither.
"""
