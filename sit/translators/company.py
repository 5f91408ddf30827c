"""The second look of the order check: answers it cannot place are asked again in other company.

A check of one batch at a time cannot see every misorder: near copies told apart by a word that
shares nothing with its translation ("The bank is small." and "The dog is small."), or two words
alone, can have their answers swapped and every number, name and length still fits. Such answers
(:func:`~sit.translators.answers.unplaced`) come back from the adapter marked :class:`Unplaced`
and are held, not cached (:class:`Held`). After the run's pass their texts are asked again in
other company (:meth:`Held.spread`: no two texts whose answers could be swapped, and no two near
copies, in one request): an answer that comes back the same in both groupings is its text's (a
provider that moves answers can only give a text, in each batch, the translation of a text of
that batch, and the first batch's evidence told it from every text of the second), and is cached; one that depends on its grouping is
doubtful and asked alone (one text cannot be misordered). Of each group of answers that could be
swapped among them, texts no two of which could have swapped answers are not asked again
(:func:`left_alone`): their answers are the ones left once the others are confirmed; a text
whose answer another text of its batch was given too is always asked again (a provider that
copies one text's answer to another moves nothing: confirming the one says nothing of the other). An answer
asked alone that is another text's first answer shows the provider moving answers
(:meth:`Held.moved`). The requests of the second look are not order-checked (the
translator's ``_translate_again`` hook): each of their answers is compared with its first anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from .answers import copies, near_words, words_of


class Unplaced(str):
    """An answer whose place in its batch the evidence cannot prove. ``mates`` are the texts of
    its batch whose answers it could have been swapped with, ``group`` names the answers so linked
    (the text of the group's first member), ``ask`` says whether its text is asked again in other
    company (:func:`left_alone`)."""

    mates: tuple[str, ...]
    group: str
    ask: bool

    def __new__(cls, value: str, mates: tuple[str, ...], group: str, ask: bool) -> "Unplaced":
        out = super().__new__(cls, value)
        out.mates, out.group, out.ask = mates, group, ask
        return out

    def __reduce__(self):  # an engine's worker sends it back pickled
        return (Unplaced, (str(self), self.mates, self.group, self.ask))


def mark(texts: Sequence[str], answers: list[Any], pairs: Sequence[tuple[int, int]]) -> list[Any]:
    """``answers`` with those of ``pairs`` (indices into ``texts`` of answers that could be
    swapped) marked :class:`Unplaced`, linked in groups; of each group, texts no two of which
    could have swapped answers are not asked (:func:`left_alone`)."""
    mates: dict[int, set[int]] = {}
    for i, j in pairs:
        mates.setdefault(i, set()).add(j)
        mates.setdefault(j, set()).add(i)
    out, seen = list(answers), set()
    shared = {i for pair in copies(texts, answers) for i in pair}  # asked, every one (a copy moves nothing)
    for start in sorted(mates):
        if start in seen:
            continue
        group, todo = [], [start]
        while todo:
            i = todo.pop()
            if i not in seen:
                seen.add(i)
                group.append(i)
                todo.extend(mates[i])
        group.sort()
        kept = left_alone(group, mates) - shared
        for i in group:
            out[i] = Unplaced(out[i], tuple(texts[j] for j in sorted(mates[i])), texts[group[0]], ask=i not in kept)
    return out


def left_alone(group: Sequence[int], mates: dict[int, set[int]]) -> set[int]:
    """The texts of a group not asked again: no two of them mates (an independent set, taken
    greedily: the text with fewest mates left first, the last of equals). A provider that moves
    answers moves them between mates (a move the pair reading can see makes the batch doubted),
    so a move within the group moves the answer of at least one text asked again, which comes
    back changed in other company: the whole group is then asked alone. Before, one text of each
    group was left (a group of 19 texts at batch size 50 asked 18 again; a text linked to 18
    others that are not linked among them now asks only that one).
    """
    left = set(group)
    kept: set[int] = set()
    while left:
        i = min(left, key=lambda k: (len(mates[k] & left), -k))
        kept.add(i)
        left -= mates[i] | {i}
    return kept


@dataclass
class Held:
    """The answers of a translator's pass that the order check could not place, until they are
    confirmed in other company or asked alone (module documentation)."""

    #: text -> the answer its first batch gave
    first: dict[str, str] = field(default_factory=dict)
    #: text -> (the number of its first batch, its group)
    where: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: text -> the texts of its first batch whose answers it could have been swapped with
    mates: dict[str, frozenset] = field(default_factory=dict)
    #: texts to ask again in other company, in the order held
    asked: list[str] = field(default_factory=list)
    confirmed: set[str] = field(default_factory=set)
    #: texts to ask alone: their answer depended on the grouping, or their group was not confirmed
    alone: list[str] = field(default_factory=list)
    batches: int = 0
    #: texts asked alone whose answer was one their first batch gave another text
    moves: int = 0

    def __bool__(self) -> bool:
        return bool(self.first)

    def __contains__(self, text: object) -> bool:
        return text in self.first

    def take(self, texts: Sequence[str], answers: Sequence[Any]) -> list[Any]:
        """A first pass's checked answers to ``texts``, with each :class:`Unplaced` one held
        (``None`` in its place: not cached)."""
        self.batches += 1
        out = list(answers)
        for i, (text, answer) in enumerate(zip(texts, answers)):
            if isinstance(answer, Unplaced) and answer.strip():
                self.first[text] = str(answer)
                self.where[text] = (self.batches, answer.group)
                self.mates[text] = frozenset(answer.mates)
                if answer.ask:
                    self.asked.append(text)
                out[i] = None
        return out

    def spread(self, texts: Sequence[str], size: int) -> list[list[str]]:
        """``texts`` in requests of at most ``size`` where no two had answers that could be
        swapped and none is a near copy of another (texts of one first batch the evidence told
        apart may meet again: a swap of theirs would change their answers). The texts that clash
        with most others are placed first (a sentence held with its eight variants needs nine
        requests; placed last, its family opened requests half empty). Texts whose first answers
        were the same do not meet either: answered alike again, they would confirm nothing
        (:meth:`compare`) and go alone (a clean DeepL over the news run: 505 requests with them
        placed as they came, 178 apart; 179 before identical answers were held)."""
        words = {t: words_of(t) for t in texts}
        alike: dict[str, set[str]] = {}
        for t in texts:
            alike.setdefault(self.first.get(t, ""), set()).add(t)
        clashes = {t: {o for o in texts if o != t and (o in self.mates.get(t, ()) or near_words(words[t], words[o]))}
                   | (alike[self.first.get(t, "")] - {t}) for t in texts}
        groups: list[tuple[list[str], set[str]]] = []  # a request's texts, and the texts that clash with one
        for text in sorted(texts, key=lambda t: -len(clashes[t])):  # stable: held order among equals
            home = next((g for g in groups if len(g[0]) < size and text not in g[1]), None)
            if home is None:
                groups.append(home := ([], set()))
            home[0].append(text)
            home[1].update(clashes[text])
        return [g for g, _ in groups]

    def compare(self, texts: Sequence[str], answers: Sequence[Any]) -> list[Optional[str]]:
        """The answers of texts asked again in other company: each the same as its first answer is
        confirmed, and a text asked alone has its own answer; any other (its translation depends
        on its company), and one another text of the request was given too (a provider copying
        answers gives a text, again, the copy of another text that translates alike), leaves its
        text to be asked alone (``None``)."""
        if len(texts) == 1:
            return self.answered(texts, answers)
        out: list[Optional[str]] = []
        alike = {i for pair in copies(texts, answers) for i in pair}  # a copy may be one's first answer again
        for i, (text, answer) in enumerate(zip(texts, answers)):
            same = (isinstance(answer, str) and str(answer) == self.first.get(text) and i not in alike
                    and not self._shared_company(text, texts))
            if same:
                self.confirmed.add(text)
            elif text not in self.alone:
                self.alone.append(text)
            out.append(str(answer) if same else None)
        return out

    def answered(self, texts: Sequence[str], answers: Sequence[Any]) -> list[Any]:
        """The answers of texts asked alone, as they came (one text cannot be misordered); counts
        in :attr:`moves` those that show the first batch's answers moved."""
        out = []
        for text, answer in zip(texts, answers):
            self.moves += self.moved(text, answer)
            if isinstance(answer, str) and str(answer) == self.first.get(text):
                self.confirmed.add(text)
            out.append(str(answer) if isinstance(answer, str) else answer)
        return out

    def _shared_company(self, text: str, texts: Sequence[str]) -> bool:
        """Whether a text whose answer ``text``'s could have been swapped with is in this batch
        too (then the two batches could have swapped both alike)."""
        return any(t in self.mates.get(text, ()) for t in texts)

    def settled(self) -> dict[str, str]:
        """The texts not asked again whose groups are confirmed (every text of the group asked
        again came back the same): their first answer is the one left (the others are listed in
        :attr:`alone`)."""
        asked: dict[tuple[int, str], list[str]] = {}  # (first batch, group) -> its texts asked again
        for text in self.asked:
            asked.setdefault(self.where[text], []).append(text)
        out = {}
        for text, place in self.where.items():
            if text in asked.get(place, ()):
                continue
            if all(t in self.confirmed for t in asked.get(place, ())):
                out[text] = self.first[text]
            elif text not in self.alone:
                self.alone.append(text)
        return out

    def moved(self, text: str, answer: Any) -> bool:
        """Whether ``answer``, ``text``'s asked alone, is one its first batch gave another text."""
        if not isinstance(answer, str) or answer == self.first.get(text) or text not in self.where:
            return False
        batch = self.where[text][0]
        return any(t != text and self.where[t][0] == batch and self.first[t] == answer for t in self.where)
