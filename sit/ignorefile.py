"""Suppressions that persist: an ignore file (``.sitignore``) of findings a person judged no bug,
each keyed by a fingerprint of what it is, not where it stands: (check, kind, the source and the
translation with their whitespace normalised). A finding whose fingerprint is in the file is left
out by ``sit check``, by ``--fail-on`` and by ``sit compare --fail-on``, wherever the message
moved in the file (docs/check.md).

The file is text, one suppression a line: ``FINGERPRINT GROUP  # what it was`` (the group and the
note are for people; ``#`` starts a comment). ``sit mark RUN CLUSTER --as not_bug`` writes the
fingerprints of the cluster's findings; ``--as bug`` and ``clear`` take them out; a person may add
or remove lines by hand.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from .errors import InputError
from .records import Issue

#: the ignore file sit reads and ``sit mark`` writes where none is named: in the working directory
IGNORE_FILE = ".sitignore"


def add_option(parser, what: str, where: str = "read where it exists; '' reads none") -> None:
    """Add ``--ignore-file FILE`` (default :data:`IGNORE_FILE`) to a command's ``parser``: ``what``
    the command does with it, ``where`` when it reads or writes it."""
    parser.add_argument("--ignore-file", default=IGNORE_FILE, metavar="FILE",
                        help=f"{what} (default {IGNORE_FILE}, {where})")


_LINE = re.compile(r"([0-9a-f]{16})(?:\s+(\S+))?\s*(?:#.*)?")


def normalised(text: str) -> str:
    """A text as a fingerprint reads it: NFC, runs of whitespace one space, no space at the ends."""
    return " ".join(unicodedata.normalize("NFC", text or "").split())


def fingerprint(relation: str, kind: str, source: str, translation: str, case: Sequence[str] = ()) -> str:
    """The stable fingerprint of a finding: 16 hex digits of SHA-256 over (check, kind, the
    normalised source, the normalised translation, and a ``sit run`` test case's other text and
    its translation where it has one); no line number, no run."""
    key = json.dumps([relation, kind, normalised(source), normalised(translation), *map(normalised, case)],
                     ensure_ascii=False)
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def issue_fingerprint(issue: Issue) -> str:
    """:func:`fingerprint` of a finding: its check, its kind, its text and that text's translation;
    of a test case's finding (``sit run``: a variant of the sentence) the variant and its
    translation too, so that one case judged no bug leaves the sentence's other cases counted."""
    case = ((issue.pair.perturbed, issue.perturbed_translation or "")
            if issue.pair.perturbed != issue.pair.original else ())
    return fingerprint(issue.relation, issue.kind, issue.pair.original, issue.original_translation, case)


@dataclass
class IgnoreFile:
    """An ignore file's suppressions (fingerprint -> the line's group and note), as read."""

    path: Path
    entries: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "IgnoreFile":
        """Read ``path`` (none there: no suppression). A line that is no fingerprint is an
        InputError naming it."""
        path = Path(path)
        out = cls(path)
        if not path.exists():
            return out
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"{path}: cannot read the ignore file ({e}); fix or remove it") from None
        for n, line in enumerate(lines, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = _LINE.fullmatch(line.strip())
            if m is None:
                raise InputError(f"{path}:{n}: not a suppression (16 hex digits, then the group and a # note); "
                                 f"`sit mark RUN CLUSTER --as not_bug` writes them")
            out.entries[m.group(1)] = line.strip()[16:].strip()
        return out

    def ignores(self, issue: Issue) -> bool:
        return issue_fingerprint(issue) in self.entries

    def split(self, issues: Sequence[Issue]) -> tuple[list[Issue], list[Issue]]:
        """(the findings kept, those the file suppresses)."""
        kept, ignored = [], []
        for issue in issues:
            (ignored if self.ignores(issue) else kept).append(issue)
        return kept, ignored

    def add(self, issues: Iterable[Issue]) -> int:
        """Suppress ``issues``; how many were new."""
        before = len(self.entries)
        for issue in issues:
            note = " ".join(issue.pair.original.split())[:60]
            self.entries.setdefault(issue_fingerprint(issue), f"{issue.group}  # {note}")
        return len(self.entries) - before

    def remove(self, issues: Iterable[Issue]) -> int:
        """Take the suppressions of ``issues`` out; how many were there."""
        gone = [self.entries.pop(issue_fingerprint(i), None) for i in issues]
        return sum(1 for g in gone if g is not None)

    def save(self) -> Path:
        """Write the file (sorted by fingerprint, so that its diffs stay small)."""
        from .rundir import write_text_atomic

        head = "# sit's suppressions: FINGERPRINT GROUP  # source (written by `sit mark --as not_bug`; docs/check.md)\n"
        write_text_atomic(self.path, head + "".join(f"{fp} {rest}\n" for fp, rest in sorted(self.entries.items())))
        return self.path


__all__ = ["IGNORE_FILE", "IgnoreFile", "add_option", "fingerprint", "issue_fingerprint", "normalised"]
