"""``junit``: ``compare.xml``, JUnit XML for CI (a testsuite per group, a testcase per test case;
``new`` ones fail), written with junitparser. Comparisons only."""

from __future__ import annotations

from typing import Any, Optional

from .base import Writer


class Format(Writer):
    compare_file = "compare.xml"

    def comparison(self, comparison: Any, max_chars: Optional[int] = None) -> str:
        from ..compare.writers import render_junit

        return render_junit(comparison)
