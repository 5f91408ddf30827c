"""sit: structure-invariant testing of machine translation, with TEAPOT-style scoring."""

__version__ = "0.1.0"
