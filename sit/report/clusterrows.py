"""The rows of a run's clusters as the reports list them, read as they are listed.

A run of 5,000 sentences has some 9,000 clusters; report.txt lists them all, and report.html
three times over (the table, the bug filter, the page's data). :class:`ClusterRows` is made once
from the ranked clusters (:mod:`sit.report.clusters`): each row (:meth:`Cluster.to_dict
<sit.report.clusters.Cluster.to_dict>`, its example read once) is encoded as a JSON line into a
temporary file (redacted as a run's files are) and let go, and what is kept is the clusters' ids, their findings' total and which cluster each finding is in
(4 bytes a finding). Iterating reads the rows back one at a time, each with its triage mark;
``clusters.jsonl`` is written from them. At most :attr:`ClusterRows.HOLD` rows (the news set's
few hundred) are held as they are: they are listed many times, and what they hold is bounded.
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
from array import array
from itertools import islice
from typing import Any, Iterable, Iterator, Optional, Sequence


#: bytes of rows read from the temporary file at a time
READ_AT_ONCE = 1 << 20


class ClusterRows(Sequence[dict[str, Any]]):
    """The rows of ``clusters`` (ranked, worst first), re-iterable, each with its mark from
    ``marks`` (``cluster_id -> {"label", "category"}``; :meth:`marked`) as ``label`` and
    ``category``; ``findings``: their findings' total; :meth:`cluster_at` the cluster of a finding."""

    #: the most rows held as they are (more are read from a temporary file when listed)
    HOLD = 1000

    def __init__(self, clusters: Iterable[Any], marks: Optional[dict[str, dict]] = None):
        self.marks = marks or {}
        self.ids: list[str] = []
        self.findings = 0
        self._of_position = array("l")  # a finding's position -> its cluster's index (-1: none)
        self._of_id: dict[str, int] = {}  # the findings of a cluster that knows no positions
        self._held: Optional[list[dict[str, Any]]] = []
        self._spool = None
        for cluster in clusters:
            self._add(cluster)

    def _add(self, cluster) -> None:
        index = len(self.ids)
        self.ids.append(cluster.cluster_id)
        self.findings += len(cluster.issues)
        positions = getattr(cluster.issues, "positions", None)
        if positions is None:
            self._of_id.update(dict.fromkeys(cluster.issue_ids, index))
        else:
            for position in positions:
                if position >= len(self._of_position):
                    self._of_position.extend([-1] * (position + 1 - len(self._of_position)))
                self._of_position[position] = index
        row = cluster.to_dict()
        if self._held is not None and len(self._held) < self.HOLD:
            self._held.append(row)
            return
        if self._spool is None:
            self._spool = tempfile.TemporaryFile()
            for held in self._held or ():
                self._write(held)
            self._held = None
        self._write(row)

    def _write(self, row: dict[str, Any]) -> None:
        from ..rundir import redacted_lines

        self._spool.write(redacted_lines([json.dumps(row, ensure_ascii=False) + "\n"]))

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self._marked(row) for row in self.plain())

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[n] for n in range(len(self))[index]]
        n = range(len(self))[index]
        return next(iter(islice(self, n, n + 1)))

    def plain(self) -> Iterator[dict[str, Any]]:
        """The rows as ``clusters.jsonl`` holds them (no mark), read one at a time."""
        if self._held is not None:
            yield from (dict(row) for row in self._held)
            return
        self._spool.flush()
        at, rest = 0, b""
        while True:  # read at an offset of its own: two listings at once do not move each other
            block = os.pread(self._spool.fileno(), READ_AT_ONCE, at)
            if not block:
                break
            at += len(block)
            lines = (rest + block).split(b"\n")
            rest = lines.pop()
            yield from (json.loads(line) for line in lines)

    def _marked(self, row: dict[str, Any]) -> dict[str, Any]:
        mark = self.marks.get(row["cluster_id"]) or {}
        row["label"] = mark.get("label")
        row["category"] = mark.get("category")
        return row

    def marked(self, marks: Optional[dict[str, dict]]) -> "ClusterRows":
        """These rows with ``marks`` (the same rows: nothing is read or copied)."""
        out = copy.copy(self)
        out.marks = marks or {}
        return out

    def cluster_at(self, position: int, issue_id: str = "") -> Optional[str]:
        """The id of the cluster of the finding at ``position`` of the run's findings (or of id
        ``issue_id``, for clusters made from findings held as they are), None where none is."""
        index = self._of_position[position] if 0 <= position < len(self._of_position) else -1
        if index < 0:
            index = self._of_id.get(issue_id, -1)
        return self.ids[index] if index >= 0 else None


def total_findings(rows: Sequence[dict[str, Any]]) -> int:
    """The findings of the clusters ``rows`` (:class:`ClusterRows`, or a list of rows)."""
    found = getattr(rows, "findings", None)
    return found if isinstance(found, int) else sum(r["findings"] for r in rows)


__all__ = ["ClusterRows", "total_findings"]
