"""A run checked a block of sentences at a time, so that its memory follows the block, not the
input (issue 36).

Where every relation of a run is :attr:`~sit.relations.base.Relation.blockwise` (its cases and
findings of a sentence depend on that sentence alone) and the run makes its own cases, the
pipeline perturbs, translates and checks :data:`BLOCK` sentences at a time (:func:`block_size`).
:class:`RunRecords` takes each block's cases, translations and findings as the block is done,
appends them to temporary files in the run directory (a line each, redacted as the run
directory's files are) and keeps only small keys: a digest of each text it has listed (each text
is listed once), each finding's ranking key and place, and the counts. :meth:`RunRecords.write`
then writes ``pairs.jsonl``, ``translations.jsonl`` and ``issues.jsonl`` in the order one pass
over all the sentences gives: records relation by relation, findings worst first
(:func:`sit.relations.rank.worst_first`'s order, made from their keys). A run of one block goes the same
way, so a short run and a long one write the same files.

What differs from one pass:

- where one text comes from sentences of two blocks (a phrase of two sentences far apart, a
  sentence repeated in the input): the later block asks for it again (the cache answers; the
  run's ``cache_hits`` leave these out, its ``parse_cache_hits`` count their trees read again),
  its row in ``translations.jsonl`` is under the relation of the first block that met it, and
  the perturber's dropped candidates of a repeated sentence are counted for each block;
- the sentence encoder's batches (:mod:`sit.perturb`) are made within a block, and a sentence's
  similarity can differ in its fourth decimal with the company it is encoded in; the perturber's
  pairs are cached per sentence, so a re-run reads them as they were first made.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import sqlite3
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional, Sequence

from .relations.rank import declared_tier, group_key, worst_first_order
from .records import GroupCount, RelationCounts, RunCounts
from .rundir import alive, redacted_lines, write_lines_atomic
from .runmeta import RelationTold

#: sentences checked at a time where a run is checked in blocks (a block of 500 sentences with
#: ten substitutions each is some 5,500 texts: the translator's batches stay large)
BLOCK = 500


def block_size(sentences: int, relations: Sequence[Any], given: bool = False, size: int = BLOCK) -> int:
    """How many sentences a block of the run holds: ``size`` where every relation of the run is
    blockwise and the run makes its own cases (``given``: a cases file, run whole), else all
    of them (one block)."""
    if given or not relations or not all(r.blockwise for r in relations):
        return max(sentences, 1)
    return max(size, 1)


def blocks(ids: Sequence[int], texts: Sequence[str], size: int) -> list[tuple[list[int], list[str]]]:
    """``(ids, texts)`` of each block of ``size`` sentences, in order (one empty block where there
    are no sentences)."""
    return [(list(ids[s:s + size]), list(texts[s:s + size])) for s in range(0, len(texts), size)] or [([], [])]


def _digest(text: str) -> bytes:
    """A text's 128-bit digest: what the records keep of a text they have listed."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class _Spill:
    """Lines appended to a temporary file, read back in order (:meth:`lines`) or one by its place
    (:meth:`line`)."""

    def __init__(self, path: Path):
        self.fh = open(path, "w+b")
        self.size = 0

    def add(self, lines: list[str]) -> None:
        data = redacted_lines(lines)
        self.fh.write(data)
        self.size += len(data)

    def place(self, line: str) -> tuple[int, int]:
        """Append ``line``; its (offset, length)."""
        data = redacted_lines([line])
        self.fh.write(data)
        self.size += len(data)
        return self.size - len(data), len(data)

    def lines(self) -> Iterator[str]:
        self.fh.flush()
        self.fh.seek(0)
        for raw in self.fh:
            yield raw.decode("utf-8")

    def line(self, offset: int, length: int) -> str:
        self.fh.seek(offset)
        return self.fh.read(length).decode("utf-8")

    def close(self) -> None:
        self.fh.close()


class _Keys:
    """What ranks each finding of one relation among the run's (:func:`sit.relations.rank.worst_first`), and
    where its line is, in arrays (a finding's key is some 40 bytes, however many there are)."""

    def __init__(self):
        self.group, self.tier, self.rank = array("i"), array("b"), array("i")
        self.distance, self.source_id = array("d"), array("q")
        self.offset, self.length = array("q"), array("q")

    def append(self, group: int, tier: int, distance: float, source_id: int, rank: int, place: tuple[int, int]) -> None:
        for column, value in ((self.group, group), (self.tier, tier), (self.distance, distance),
                              (self.source_id, source_id), (self.rank, rank), (self.offset, place[0]),
                              (self.length, place[1])):
            column.append(value)

    def __len__(self) -> int:
        return len(self.group)


class _Digests:
    """The digests of the texts a run has met, in an SQLite file of the block folder (its memory is
    SQLite's page cache, however many texts there are): the run's sentences, and the texts listed
    or counted by the blocks so far."""

    def __init__(self, path: Optional[Path]):
        """``path``: the SQLite file; None: sets in memory (a run of at most a block of sentences)."""
        self.db, self.sets = None, {"sentences": set(), "listed": set()}
        if path is None:
            return
        self.db = sqlite3.connect(path)
        for pragma in ("journal_mode=OFF", "synchronous=OFF", "cache_size=-1024"):
            self.db.execute(f"PRAGMA {pragma}")
        for table in ("sentences", "listed"):
            self.db.execute(f"CREATE TABLE {table} (d BLOB PRIMARY KEY) WITHOUT ROWID")

    def add(self, table: str, digests) -> None:
        if self.db is None:
            self.sets[table].update(digests)
            return
        self.db.executemany(f"INSERT OR IGNORE INTO {table} VALUES (?)", ((d,) for d in digests))

    def known(self, digests: Sequence[bytes], tables: Sequence[str] = ("listed",)) -> set[bytes]:
        """Those of ``digests`` in any of ``tables``."""
        if self.db is None:
            return {d for d in digests if any(d in self.sets[t] for t in tables)}
        found: set[bytes] = set()
        for start in range(0, len(digests), 500):
            part = digests[start:start + 500]
            marks = ",".join("?" * len(part))
            for table in tables:
                found.update(d for (d,) in self.db.execute(f"SELECT d FROM {table} WHERE d IN ({marks})", part))
        return found

    def close(self) -> None:
        if self.db is not None:
            self.db.close()


@dataclass
class _Totals:
    """The run's counts added up over its blocks."""

    cases: int = 0
    perturbations: int = 0
    translations: int = 0
    untranslated: int = 0
    empty: int = 0
    #: texts a block asked for again that an earlier block had asked for (a phrase of two
    #: sentences far apart): read from the cache again, not counted as the run's cache hits
    repeated: int = 0
    dropped: Counter = field(default_factory=Counter)


class RunRecords:
    """A run's records, taken a block of sentences at a time (:meth:`add`) and written whole at the
    end (:meth:`write`); see the module's docstring. ``texts``: all the run's sentences (a text
    that is a sentence of the run is listed as one, never as another relation's text)."""

    def __init__(self, out: Path, relations: Sequence[Any], texts: Sequence[str], ignore: Optional[Any] = None):
        self.out = Path(out)
        #: the suppressions (:class:`sit.ignorefile.IgnoreFile`) whose findings are left out, and how many were
        self.ignore, self.suppressed = ignore if ignore is not None and ignore.entries else None, 0
        self.relations = list(relations)
        self.out.mkdir(parents=True, exist_ok=True)
        _remove_orphans(self.out)
        self.folder = self.out / f".blocks-{os.getpid()}-{secrets.token_hex(6)}.tmp"
        self.folder.mkdir()
        self._spills: dict[str, _Spill] = {}
        self.sentence_count = len(texts)
        self._digests = _Digests(self.folder / "digests.sqlite3" if len(texts) > BLOCK else None)
        for start in range(0, len(texts), BLOCK):
            self._digests.add("sentences", (_digest(t) for t in texts[start:start + BLOCK]))
        self.totals = _Totals()
        self.told = {r.name: r.telling({}) for r in self.relations}
        self.relation_counts = {r.name: RelationCounts() for r in self.relations}
        self.extra: dict[str, dict[str, Any]] = {r.name: {} for r in self.relations}
        self._groups: dict[str, list[list[str]]] = {r.name: [] for r in self.relations}
        self._group_names: dict[str, int] = {}  # group -> its number in the keys
        self._keys = {r.name: _Keys() for r in self.relations}
        #: the perturber's cache hits of the run's one pass over its sentences (set by the pipeline)
        self.perturbation_cache_hits = 0

    def _spill(self, name: str) -> _Spill:
        if name not in self._spills:
            self._spills[name] = _Spill(self.folder / f"{len(self._spills)}.jsonl")
        return self._spills[name]

    def add(self, ids: Sequence[int], texts: Sequence[str], cases: Mapping[str, Sequence[Any]],
            translation: Mapping[str, Optional[str]], checked: Mapping[str, Any], *, perturbations: int = 0,
            dropped: Optional[Mapping[str, int]] = None) -> None:
        """Take one block: its sentences, each relation's cases, ``{text: translation}`` of every
        text it translated, each relation's :class:`~sit.relations.base.Checked`, and the
        perturber's pairs and dropped candidates for it."""
        self.totals.cases += sum(len(c) for c in cases.values())
        self.totals.perturbations += perturbations
        self.totals.dropped.update(dropped or {})
        for r in self.relations:
            self._spill(f"pairs {r.name}").add([_line(p.to_dict()) for p in cases[r.name]])
        counted = self._count(translation)
        listed = self._texts(ids, texts, cases, translation)
        self._digests.add("listed", counted | listed)
        self._findings(checked)

    def met_before(self, texts: Sequence[str]) -> set[str]:
        """Those of ``texts`` an earlier block has listed or counted."""
        digests = [_digest(t) for t in texts]
        known = self._digests.known(digests)
        return {t for t, d in zip(texts, digests) if d in known}

    def _count(self, translation: Mapping[str, Optional[str]]) -> set[bytes]:
        """Count the texts of ``translation`` no block before counted; their digests."""
        new = set()
        digests = [_digest(x) for x in translation]
        known = self._digests.known(digests)
        for (x, y), d in zip(translation.items(), digests):
            if d not in known:
                new.add(d)
                self.totals.untranslated += y is None
                self.totals.empty += y == "" and bool(x.strip())
        self.totals.translations += len(new)
        self.totals.repeated += len(translation) - len(new)
        return new

    def _texts(self, ids, texts, cases, translation) -> set[bytes]:
        """translations.jsonl's rows of the block (see :mod:`sit.rundir`), each text once over the
        run, each kind of row to its own file; the digests of the texts listed."""
        new: set[bytes] = set()
        others = {t: _digest(t) for r in self.relations
                  for t in (*(x for p in cases[r.name] for x in (p.original, p.perturbed)),
                            *r.sources(cases[r.name]), *r.probes(cases[r.name]))}
        known = self._digests.known(list(others.values()), ("sentences", "listed"))

        def fresh(text: str) -> bool:
            d = others[text]
            if d in known or d in new:
                return False
            new.add(d)
            return True

        self._spill("originals").add([_line({"source_id": sid, "role": "original", "text": text,
                                             "translation": translation.get(text)}) for sid, text in zip(ids, texts)])
        for r in self.relations:
            self._spill(f"texts {r.name}").add([
                _line({"source_id": p.source_id, "role": role, "relation": p.relation, "text": text,
                       "translation": translation.get(text)})
                for p in cases[r.name] for role, text in (("container", p.original), ("perturbed", p.perturbed))
                if fresh(text)])
        for role, texts_of in (("auxiliary", lambda r: r.sources(cases[r.name])),
                               ("probe", lambda r: r.probes(cases[r.name]))):
            for r in self.relations:
                self._spill(f"{role} {r.name}").add([
                    _line({"role": role, "relation": r.name, "text": text, "translation": translation.get(text)})
                    for text in texts_of(r) if fresh(text)])
        return new

    def _findings(self, checked: Mapping[str, Any]) -> None:
        """Each relation's findings of the block to its file, with their keys; its counts added
        up, its run-level figures those of its last block."""
        spill = self._spill("issues")
        for r in self.relations:
            found = checked[r.name]
            self.relation_counts[r.name] = self.relation_counts[r.name].plus(found.counts)
            self.extra[r.name] = found.extra
            self._groups[r.name].append(list(dict.fromkeys(i.group for i in found.issues)))
            for i in found.issues:
                if self.ignore is not None and self.ignore.ignores(i):
                    self.suppressed += 1
                    continue
                told = self.told.get(i.relation) or RelationTold()
                place = spill.place(_line(i.to_dict(told.sides, told.kind)))
                group = self._group_names.setdefault(i.group, len(self._group_names))
                self._keys[r.name].append(group, declared_tier(i), i.distance, i.pair.source_id, i.rank, place)

    @property
    def issues(self) -> int:
        return sum(len(k) for k in self._keys.values())

    def _each_key(self) -> Iterator[tuple[str, int, float, int, int, int, int]]:
        """(group, tier, distance, source id, rank, offset, length) of every finding, relation
        by relation, block by block."""
        names = list(self._group_names)
        for r in self.relations:
            k = self._keys[r.name]
            for n in range(len(k)):
                yield (names[k.group[n]], k.tier[n], k.distance[n], k.source_id[n], k.rank[n], k.offset[n],
                       k.length[n])

    def _group_order(self) -> dict[str, int]:
        """The groups in the order one pass lists them: relation by relation, each relation's in
        :func:`sit.relations.rank.rank_issues`' order (a blockwise relation's findings come in it)."""
        order: dict[str, int] = {}
        for r in self.relations:
            parts = self._groups[r.name]
            seq = parts[0] if len(parts) == 1 else sorted(set().union(*parts), key=group_key)
            for g in seq:
                order.setdefault(g, len(order))
        return order

    def tally(self) -> tuple[dict[str, GroupCount], int]:
        """:meth:`sit.records.RunCounts.tally` of the run's findings, from their keys."""
        groups, flagged = RunCounts.tally_keys((k[0], k[3]) for k in self._each_key())
        return {g: groups[g] for g in self._group_order() if g in groups}, flagged

    def _ranked(self) -> Iterator[tuple[int, int]]:
        """The findings' (offset, length) worst first (:func:`sit.relations.rank.worst_first_order`)."""
        keys = list(self._each_key())
        return ((keys[n][5], keys[n][6]) for n in worst_first_order(keys, self._group_order()))

    def write(self) -> None:
        """Write pairs.jsonl, translations.jsonl and issues.jsonl (each replaced whole, streamed
        from the block files)."""
        names = [r.name for r in self.relations]
        write_lines_atomic(self.out / "pairs.jsonl", self._lines(f"pairs {n}" for n in names))
        parts = ["originals", *(f"{kind} {n}" for kind in ("texts", "auxiliary", "probe") for n in names)]
        write_lines_atomic(self.out / "translations.jsonl", self._lines(parts))
        spill = self._spill("issues")
        spill.fh.flush()
        write_lines_atomic(self.out / "issues.jsonl", (spill.line(offset, length) for offset, length in self._ranked()))

    def _lines(self, names) -> Iterator[str]:
        for name in names:
            if name in self._spills:
                yield from self._spills[name].lines()

    def close(self) -> None:
        """Remove the block files (after :meth:`write`, or on an error)."""
        for spill in self._spills.values():
            spill.close()
        self._digests.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def _remove_orphans(out: Path) -> None:
    """Remove the block folders in ``out`` whose run (the process id in the name) is gone (killed
    before it could remove them)."""
    for folder in out.glob(".blocks-*.tmp"):
        match = re.fullmatch(r"\.blocks-(\d+)-[0-9a-f]{12}\.tmp", folder.name)
        if match and not alive(int(match.group(1))):
            shutil.rmtree(folder, ignore_errors=True)


def _line(row: Mapping[str, Any]) -> str:
    return json.dumps(row, ensure_ascii=False) + "\n"


__all__ = ["BLOCK", "RunRecords", "block_size", "blocks"]
