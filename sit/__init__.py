"""sit: structure-invariant testing of machine translation, with TEAPOT-style scoring."""

__version__ = "0.1.0"
#: the program's name: its logger's, and the key of its own version among a run's package versions
PROGRAM = "sit"
