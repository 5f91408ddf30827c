"""Rebuild the example sets of ``sit eval`` from their hand-written sources.

    python examples/build_examples.py            # needs `apertium` with the eng-spa pair

What is hand-written (and only read here): ``mt/src.en`` (218 English news and everyday
sentences written for this project), ``sentiment/src.txt`` (40 short film reviews) and
``sentiment/ref.txt`` (their gold labels).

What this script writes:

- ``mt/adv.charswap.en``: the character-swap attack of Michel et al. (2019): in one word of each
  sentence (two in sentences of more than ten words) two adjacent inner letters are swapped
  ("house" -> "hosue"), with a fixed seed;
- ``mt/out.es`` and ``mt/adv.charswap.es``: Apertium's English-Spanish translations
  (``apertium -u eng-spa``) of the original and of the attacked sentences;
- ``mt/ref.es``: a *pseudo*-reference, not a human translation: Apertium's translation of the
  sentences reworded by a fixed list of English paraphrases (``bought`` -> ``purchased``...), so
  that it differs from ``out.es`` the way another translation would;
- ``sentiment/adv_src.txt``: the same attack on the reviews' opinion words;
- ``sentiment/out.txt`` and ``sentiment/adv_out.txt``: the labels a tiny word-list classifier
  (below) gives the original and the attacked reviews.
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 2019
WORD = re.compile(r"[A-Za-z]+")


def swap_inner(word: str, rng: random.Random) -> str:
    """Swap two adjacent letters, keeping the first and last letter in place."""
    sites = [i for i in range(1, len(word) - 2) if word[i] != word[i + 1]]
    if not sites:
        return word
    i = rng.choice(sites)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def charswap(sentence: str, rng: random.Random, n_words: int, only: set[str] | None = None) -> str:
    spans = [m.span() for m in WORD.finditer(sentence) if len(m.group()) >= 4
             and swap_inner(m.group(), random.Random(0)) != m.group()
             and (only is None or m.group().lower() in only)]
    if not spans and only is not None:
        return charswap(sentence, rng, n_words)
    chosen = sorted(rng.sample(spans, min(n_words, len(spans))), reverse=True)
    for a, b in chosen:
        sentence = sentence[:a] + swap_inner(sentence[a:b], rng) + sentence[b:]
    return sentence


def apertium(lines: list[str]) -> list[str]:
    proc = subprocess.run(["apertium", "-u", "eng-spa"], input="\n".join(lines) + "\n", capture_output=True,
                          text=True, check=True)
    out = proc.stdout.rstrip("\n").split("\n")
    if len(out) != len(lines):
        raise SystemExit(f"apertium returned {len(out)} lines for {len(lines)}")
    return [line.strip() for line in out]


# English paraphrases for the pseudo-reference (whole words, case kept for the first letter)
PARAPHRASES = {
    "bought": "purchased", "big": "large", "small": "little", "said": "stated", "wants": "would like",
    "begins": "starts", "shop": "store", "shops": "stores", "film": "movie", "films": "movies",
    "children": "kids", "closed": "shut", "opened": "inaugurated", "approved": "passed", "announced": "declared",
    "promised": "pledged", "cost": "price", "sharply": "steeply", "worried": "concerned", "help": "assist",
    "helped": "assisted", "build": "construct", "building": "edifice", "new": "recent", "old": "ancient",
    "many": "numerous", "people": "citizens", "workers": "employees", "began": "started", "finished": "completed",
    "fell": "dropped", "rose": "climbed", "rising": "climbing", "increase": "rise", "reduce": "cut",
    "plans": "intends", "street": "road", "streets": "roads", "town": "village", "trip": "journey",
    "delicious": "tasty", "beautiful": "lovely", "famous": "well-known", "usually": "normally",
    "every": "each", "dangerous": "risky", "arrested": "detained", "stolen": "taken", "quickly": "fast",
    "money": "funds", "job": "post", "jobs": "posts", "house": "home", "houses": "homes",
}


def paraphrase(sentence: str) -> str:
    def repl(m: re.Match) -> str:
        word = m.group()
        new = PARAPHRASES.get(word.lower())
        if new is None:
            return word
        return new[0].upper() + new[1:] if word[0].isupper() else new

    return WORD.sub(repl, sentence)


POSITIVE = {
    "wonderful", "brilliant", "loved", "beautiful", "charming", "funny", "excellent", "stunning", "moving",
    "amazing", "delightful", "clever", "entertaining", "honest", "warm", "best", "touching", "fresh", "exciting",
    "smart", "great", "memorable", "gorgeous", "lovely", "powerful", "perfect", "superb", "sharp", "good",
}
NEGATIVE = {
    "boring", "terrible", "confusing", "awful", "worst", "dull", "slow", "flat", "weak", "disappointed",
    "predictable", "poor", "lazy", "messy", "wastes", "painful", "impossible", "awkward", "ugly", "noisy",
    "pointless", "silly", "disappointing", "mess", "tired", "stupid", "disaster", "poorly", "badly",
    "forgettable", "bored", "nothing",
}


def classify(review: str) -> str:
    """A deliberately small classifier: opinion words counted; ties go to 'positive'."""
    words = [w.lower() for w in WORD.findall(review)]
    score = sum(w in POSITIVE for w in words) - sum(w in NEGATIVE for w in words)
    return "negative" if score < 0 else "positive"


def write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"wrote {path.relative_to(HERE)} ({len(lines)} lines)")


def main() -> None:
    src = (HERE / "mt" / "src.en").read_text(encoding="utf-8").splitlines()
    adv = [charswap(s, random.Random(f"{SEED}:mt:{i}"), 2 if len(s.split()) > 10 else 1) for i, s in enumerate(src)]
    write(HERE / "mt" / "adv.charswap.en", adv)
    write(HERE / "mt" / "out.es", apertium(src))
    write(HERE / "mt" / "adv.charswap.es", apertium(adv))
    write(HERE / "mt" / "ref.es", apertium([paraphrase(s) for s in src]))

    reviews = (HERE / "sentiment" / "src.txt").read_text(encoding="utf-8").splitlines()
    opinion = POSITIVE | NEGATIVE
    adv_reviews = [charswap(r, random.Random(f"{SEED}:sentiment:{i}"), 2, only=opinion)
                   for i, r in enumerate(reviews)]
    write(HERE / "sentiment" / "adv_src.txt", adv_reviews)
    write(HERE / "sentiment" / "out.txt", [classify(r) for r in reviews])
    write(HERE / "sentiment" / "adv_out.txt", [classify(r) for r in adv_reviews])


if __name__ == "__main__":
    main()
