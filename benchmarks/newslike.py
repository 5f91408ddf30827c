"""News-like English sentences, generated (for memory and speed figures at scale, not for precision).

    python benchmarks/newslike.py N [--seed 0] > corpus.txt

Each sentence is built from templates of wire-service news (a subject, a reporting or action verb,
an object, a place, a time, sometimes a figure, a quotation or a subordinate clause) with words
drawn from lists written for this file, so N sentences are N distinct sentences: a run on them
translates, parses and caches each one, which repeating one file would not (the cache would answer
the repeats). The same N and seed give the same file.
"""

from __future__ import annotations

import argparse
import random
import sys

SUBJECTS = [
    "The finance minister", "The central bank", "The city council", "A federal judge", "The prime minister",
    "The opposition leader", "The company's chief executive", "Health officials", "The mayor", "Union leaders",
    "The European Commission", "The state governor", "Police", "The foreign ministry", "Investors",
    "The board of directors", "Local residents", "The energy regulator", "The defence secretary",
    "Hospital staff", "The airline", "The carmaker", "A group of scientists", "The trade union", "Farmers",
    "The electoral commission", "Prosecutors", "The football club", "The shipping company", "Teachers",
    "The World Health Organization", "The software maker", "Rescue workers", "The insurance group",
    "The transport authority", "Economists", "The port operator", "The retail chain", "Lawmakers",
    "The steel producer",
]
VERBS = [
    "announced", "rejected", "approved", "criticised", "postponed", "defended", "unveiled", "cancelled",
    "welcomed", "questioned", "signed", "delayed", "proposed", "investigated", "confirmed", "suspended",
    "backed", "reviewed", "extended", "challenged",
]
OBJECTS = [
    "a new budget plan", "the proposed merger", "a tax on imported steel", "the wage agreement",
    "plans for a new railway line", "the emergency measures", "a report on air pollution",
    "the contract with the supplier", "new rules for online banking", "the reform of the pension system",
    "a ban on plastic packaging", "the expansion of the airport", "the sale of its French unit",
    "a programme to train nurses", "the decision to close two factories", "the price increase",
    "a loan to the national carrier", "the investigation into the accident", "the vaccination campaign",
    "an agreement on fishing rights", "the bid for the stadium", "a plan to cut emissions",
    "the recall of thousands of cars", "the interest rate rise", "the housing programme",
]
PLACES = [
    "in Brussels", "in the capital", "in Madrid", "in the northern province", "at a press conference",
    "in parliament", "in Geneva", "in a statement", "at the annual meeting", "in Lisbon", "in Barcelona",
    "on the coast", "in the south of the country", "at the border", "in New York", "in Tokyo",
]
TIMES = [
    "on Monday", "on Tuesday", "on Wednesday", "on Thursday", "on Friday", "at the weekend", "last week",
    "earlier this month", "late on Sunday", "this morning", "after a long debate", "in March", "in October",
]
REASONS = [
    "after months of talks", "despite strong protests", "amid rising costs", "as demand slowed",
    "following a sharp fall in sales", "after a court ruling", "to reduce the deficit",
    "because of the storm", "under pressure from investors", "as prices kept climbing",
]
FIGURES = [
    "The plan will cost {n} million euros.", "Shares fell {p} percent in early trading.",
    "About {n} people attended the meeting.", "Sales rose {p} percent to {n} million dollars.",
    "The project employs {n} workers.", "Unemployment stood at {p} percent in {month}.",
    "The fine amounts to {n} million euros.", "Prices have risen {p} percent since {month}.",
]
QUOTES = [
    "\"This is a difficult day for everyone,\" {who} told reporters.",
    "\"We will not accept these conditions,\" {who} said.",
    "\"The decision was necessary,\" {who} said in a statement.",
    "\"We expect the situation to improve by the end of the year,\" {who} added.",
]
WHO = ["a spokesman", "a spokeswoman", "the minister", "an official", "the chairman", "one analyst"]
MONTHS = ["January", "February", "April", "May", "June", "July", "September", "November", "December"]


def sentence(rng: random.Random) -> str:
    """One news-like sentence (or a short statement with a figure or a quotation)."""
    kind = rng.random()
    if kind < 0.15:
        return rng.choice(FIGURES).format(n=rng.randint(2, 950), p=f"{rng.randint(1, 19)}.{rng.randint(0, 9)}",
                                          month=rng.choice(MONTHS))
    if kind < 0.25:
        return rng.choice(QUOTES).format(who=rng.choice(WHO))
    parts = [rng.choice(SUBJECTS), rng.choice(VERBS), rng.choice(OBJECTS)]
    if rng.random() < 0.7:
        parts.append(rng.choice(PLACES))
    parts.append(rng.choice(TIMES))
    if rng.random() < 0.5:
        parts.append(rng.choice(REASONS))
    return " ".join(parts) + "."


def sentences(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct sentences (the same for the same ``n`` and ``seed``)."""
    rng, seen, out = random.Random(seed), set(), []
    while len(out) < n:
        s = sentence(rng)
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    sys.stdout.write("".join(s + "\n" for s in sentences(args.n, args.seed)))


if __name__ == "__main__":
    main()
