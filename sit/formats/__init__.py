"""Output formats: one writer registry for ``sit report`` (and the reports ``sit run`` writes) and
``sit compare``, looked up by name like the translators.

A format is one :class:`~sit.formats.base.Writer`: :meth:`~sit.formats.base.Writer.report` renders
a run directory, :meth:`~sit.formats.base.Writer.comparison` a comparison of two; a format that does
only one of them leaves the other's file name empty. sit's own formats are the modules of this
package, each holding a class ``Format`` (``sit/formats/<name>.py``: a new module is a new format,
found without importing it); another package adds one through the entry-point group
``sit.formats`` (docs/plugins.md). The registry itself is :mod:`sit.writers`, below the reports
and comparisons that look their writers up by name (these modules render what they hold).
"""

from __future__ import annotations

from ..writers import WRITERS, formats, writer
from .base import Writer

__all__ = ["WRITERS", "Writer", "formats", "writer"]
