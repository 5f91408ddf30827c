"""What one perturbation of the noise catalogue did: an :class:`Outcome` whose changes are
:class:`~sit.records.Edit` records, and the seeds each text is drawn with."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Optional, Sequence

from ...records import Edit


@dataclass(frozen=True)
class Outcome:
    """A perturbed text and what changed, or the unchanged text and why nothing could change.

    Each change is an :class:`~sit.records.Edit`: ``before`` became ``after``, which stands at
    ``text[char_start:char_end]``; its ``position`` is the index of the word (word and character
    levels) or sentence/document (reorderings) in the original text. The changes come in the
    text's order and never overlap, so where each stood in the original follows from them
    (:meth:`spans`)."""

    original: str
    text: str
    changes: tuple[Edit, ...] = ()
    reason: str = ""

    @property
    def applied(self) -> bool:
        return bool(self.changes) and self.text != self.original

    def spans(self) -> list[tuple[int, int]]:
        """Where each change stood in the original text, ``(start, end)`` with
        ``original[start:end] == before`` ((-1, -1) where its offsets are unknown): its offset in
        the new text less what the changes before it added."""
        out: list[tuple[int, int]] = []
        grown = 0
        for c in self.changes:
            if c.char_start < 0:
                out.append((-1, -1))
                continue
            start = c.char_start - grown
            out.append((start, start + len(c.before)))
            grown += len(c.after) - len(c.before)
        return out

    def edit(self, perturber: str, level: str) -> Edit:
        """The outcome as one :class:`~sit.records.Edit` (several changes: their covering span)."""
        if not self.applied:
            return Edit(-1, "", "", perturber, -1, -1, level, note=self.reason or "cannot apply")
        cs = self.changes
        if len(cs) == 1:
            return replace(cs[0], perturber=perturber, level=level)
        spans = self.spans()
        s, e = min(start for start, _ in spans), max(end for _, end in spans)
        ns, ne = min(c.char_start for c in cs), max(c.char_end for c in cs)
        notes = "; ".join(c.note for c in cs if c.note)
        return Edit(
            cs[0].position, self.original[s:e], self.text[ns:ne], perturber, ns, ne, level,
            note=f"{len(cs)} edits" + (f": {notes}" if notes else ""),
        )

    def change_records(self) -> list[dict[str, Any]]:
        """Each change as ``sit perturb``'s records write it: position, before, after, its span in
        the original (start, end) and in the new text (new_start, new_end), note."""
        return [
            {"position": c.position, "before": c.before, "after": c.after, "start": start, "end": end,
             "new_start": c.char_start, "new_end": c.char_end, "note": c.note}
            for c, (start, end) in zip(self.changes, self.spans())
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "applied": self.applied,
            "reason": "" if self.applied else (self.reason or "cannot apply"),
            "original": self.original,
            "perturbed": self.text,
            "edits": self.change_records() if self.applied else [],
        }


def not_applied(text: str, reason: str) -> Outcome:
    return Outcome(text, text, (), reason)


def apply_replacements(text: str, repl: Sequence[tuple[int, int, str, int, str]], *, perturber: str,
                       level: str) -> Outcome:
    """Apply non-overlapping replacements ``(start, end, new, position, note)`` to ``text``: each
    becomes an :class:`~sit.records.Edit` of ``perturber`` at ``level``."""
    parts: list[str] = []
    changes: list[Edit] = []
    pos = 0
    delta = 0
    for start, end, new, position, note in sorted(repl):
        if start < pos:
            raise ValueError("overlapping replacements")
        parts.append(text[pos:start])
        parts.append(new)
        new_start = start + delta
        changes.append(Edit(position, text[start:end], new, perturber, new_start, new_start + len(new), level, note))
        delta += len(new) - (end - start)
        pos = end
    parts.append(text[pos:])
    return Outcome(text, "".join(parts), tuple(changes))


def draw_seeds(texts: list[str], rng: Optional[random.Random], seeds: Optional[Sequence[int]]) -> list[int]:
    """One seed per text: ``seeds`` as given, else drawn from ``rng`` (default ``Random(0)``)."""
    if seeds is not None:
        if len(seeds) != len(texts):
            raise ValueError(f"{len(seeds)} seed(s) for {len(texts)} text(s)")
        return list(seeds)
    rng = rng if rng is not None else random.Random(0)
    return [rng.getrandbits(64) for _ in texts]
