"""Names the core reads without importing the relations (records name no relation of their own)."""

#: the relation of a record that names none: pairs, findings, label rows and signatures written
#: before sit had other relations (its findings' ids carry no prefix: ``3-1``, not ``sit:3-1``)
UNNAMED = "sit"

__all__ = ["UNNAMED"]
