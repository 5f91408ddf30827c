"""The held-out English sentences the ``cit`` relation was measured on (issue 45): WordNet 3.0's
example sentences of 10 or more words (NLTK's reader, as sit's WordNet perturber opens it), each
once, sorted, shuffled with ``random.Random(46)``, capitalised and given a final period where they
lack one; printed from line ``--start`` (1-based) for ``--n`` lines. Rounds: 301-600 (r1),
601-900 (r2), 901-1200 (r3), 1201-1500 (the blind sheet, docs/labels/blind-s46-cit).

    python3 docs/labels/cit_sentences.py --start 1201 --n 300 > heldout4.txt
"""

import argparse
import random

from sit.perturb.wordnet import WordNetLexicon


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--n", type=int, default=300)
    args = ap.parse_args()
    wn = WordNetLexicon().reader
    examples = sorted({e.strip().strip('"').strip() for s in wn.all_synsets() for e in s.examples()})
    examples = [e[0].upper() + e[1:] + ("" if e[-1] in ".!?" else ".") for e in examples if len(e.split()) >= 10]
    random.Random(46).shuffle(examples)
    print("\n".join(examples[args.start - 1:args.start - 1 + args.n]))


if __name__ == "__main__":
    main()
