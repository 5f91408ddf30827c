"""Words and n-grams a text repeats back to back (a translator's loop): what the ``length``
relation and the offline judge's features both measure."""

from __future__ import annotations

from ..words import TOKEN


def longest_repeat(text: str, max_n: int = 6) -> tuple[int, int, str]:
    """The n-gram (1 to ``max_n`` words and marks) of ``text`` repeated back to back the most:
    (times, n, the n-gram); (1, 0, "") for a text without repeats."""
    toks = words_of(text)
    best = (1, 0, "")
    for n in range(1, max_n + 1):
        times, gram = repeat_run(toks, n)
        if times > best[0]:
            best = (times, n, gram)
    return best


def words_of(text: str) -> list[str]:
    return [t.casefold() for t in TOKEN.findall(text)]


def repeat_run(toks: list[str], n: int) -> tuple[int, str]:
    """The most times an n-gram of exactly ``n`` tokens repeats back to back, and that n-gram."""
    best, gram = 1, ""
    for start in range(n):  # runs of n-grams aligned at each offset
        run, i = 1, start
        while i + 2 * n <= len(toks):
            same = toks[i:i + n] == toks[i + n:i + 2 * n] and any(t[0].isalnum() for t in toks[i:i + n])
            run = run + 1 if same else 1  # marks alone ("...", "!!!") are no loop
            if run > best:
                best, gram = run, " ".join(toks[i:i + n])
            i += n
    return best, gram


__all__ = ["longest_repeat", "repeat_run", "words_of"]
