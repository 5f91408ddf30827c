"""Names the core reads without importing the relations (records name no relation of their own)."""

from ..records import UNNAMED  # the relation of a record that names none (a format of old records)

__all__ = ["UNNAMED"]
