"""Fit the offline judges' logistic model (sit/judge/features.py, ``--judge-option decide=model``)
on the dev half of WMT23's side-by-side MQM ratings, and choose its tie margin there.

Data and pairs as ``bench_judge.py`` (clearly decided pairs: the raters' mean MQM penalties at
least ``--margin`` apart, no rater preferring the other), on the ``dev`` documents only
(``bench_judge.split``: alternate documents in sorted order; the other half is held out and
measured with ``bench_judge.py --split held-out``). Pairs the judge abstains on (identical,
empty, copied) or decides by a rule (a loop, or its checks: numbers, negation, names) are left
out, as the judge never asks the model about them.

Chosen on dev, never on the held-out half: the weights, and the tie margin, the largest (in steps
of 0.05) at which the model still decides ``--coverage`` of the dev pairs (the mean over the
files; default 0.8: it abstains on about the fifth it is least sure of).

For each pair the features of :func:`sit.judge.features.differences` are computed with the
judge's own encoder and score; the model is a logistic regression without intercept (the features
change sign when a and b swap, and each pair is fitted in both orders), L2 penalty ``--l2`` on
features divided by their standard deviation, fitted by Newton's method on the dev pairs of every
``--sxs`` file together, each file weighing as much as the others (one language pair does not
outvote another). Prints the weights as :class:`sit.judge.features.Model` takes them, and dev figures
along the margins.

    python3 benchmarks/fit_judge.py --judge use --sxs /tmp/sxs_ende.tsv.tar.gz:en-de \\
        --sxs /tmp/sxs_zhen.tsv.tar.gz:zh-en [--vectors /tmp/use-vectors.pkl]
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_judge import clear_pairs, load_segments, split  # noqa: E402
from sit.judge import get_judge  # noqa: E402
from sit.judge.encoder import sentences  # noqa: E402
from sit.judge.features import FEATURES, differences  # noqa: E402


def vectors(judge, texts: list[str], path: str | None) -> dict:
    """{text: unit vector}, read from and added to the pickle at ``path`` where given."""
    known = pickle.loads(Path(path).read_bytes()) if path and Path(path).is_file() else {}
    missing = [t for t in dict.fromkeys(texts) if t not in known]
    for i in range(0, len(missing), 256):
        known.update(judge.vectors(missing[i:i + 256]))
        print(f"  encoded {min(i + 256, len(missing))}/{len(missing)}", file=sys.stderr)
    if path and missing:
        Path(path).write_bytes(pickle.dumps(known))
    return known


def rows(name: str, sxs: str, margin: float, half: str, path: str | None) -> tuple[np.ndarray, np.ndarray]:
    """The features (one row per pair) and the truth (1: a is worse) of one file's ``half``."""
    file, pair = sxs.rsplit(":", 1)
    src_lang, tgt_lang = pair.split("-")
    pairs = clear_pairs(split(load_segments(file), half), margin)
    with get_judge(name, source_lang=src_lang, target_lang=tgt_lang, cache=None) as judge:
        keep = [p for p in pairs if not judge.blind(*p[:3]) and judge.rules(*p[:3]) == ("", "")]
        texts = [t for p in keep for t in p[:3]]
        vec = vectors(judge, texts + [s for t in texts for s in sentences(t)], path)
        x = [differences(a, b, judge.score(vec, s, a), judge.score(vec, s, b))
             for s, a, b, _ in keep]
    print(f"{pair} {half}: {len(pairs)} clearly decided pairs, {len(keep)} the model decides", file=sys.stderr)
    return np.array([[d[f] for f in FEATURES] for d in x]), np.array([p[3] == "a" for p in keep], dtype=float)


def logistic(x: np.ndarray, y: np.ndarray, weight: np.ndarray, l2: float) -> np.ndarray:
    """Weights of a logistic regression without intercept, each pair in both orders and weighted
    by ``weight`` (Newton's method)."""
    x, y, weight = np.vstack([x, -x]), np.concatenate([y, 1 - y]), np.concatenate([weight, weight])
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-x @ w))
        hessian = (x * (weight * p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, x.T @ (weight * (p - y)) + l2 * w)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def figures(z: np.ndarray, y: np.ndarray, tie_below: float) -> tuple[float, float, float]:
    """(agreement on decided pairs, coverage, agreement counting ties as wrong)."""
    decided = np.abs(z) > tie_below
    right = decided & ((z > 0) == (y == 1))
    return right.sum() / max(1, decided.sum()), decided.mean(), right.mean()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--judge", default="use")
    p.add_argument("--sxs", action="append", required=True, help="FILE:SRC-TGT (repeatable)")
    p.add_argument("--margin", type=float, default=5.0)
    p.add_argument("--l2", type=float, default=1.0)
    p.add_argument("--coverage", type=float, default=0.8, help="share of dev pairs the model still decides (default 0.8)")
    p.add_argument("--vectors", help="a pickle of {text: vector} to read and extend (saves re-encoding)")
    args = p.parse_args(argv)
    data = [rows(args.judge, sxs, args.margin, "dev", args.vectors) for sxs in args.sxs]
    x, y = np.vstack([d[0] for d in data]), np.concatenate([d[1] for d in data])
    weight = np.concatenate([np.full(len(d[1]), len(y) / (len(data) * max(1, len(d[1])))) for d in data])
    spread = x.std(axis=0) + 1e-12
    w = logistic(x / spread, y, weight, args.l2) / spread
    margins = np.arange(0, 3.0001, 0.05)
    chosen = max((t for t in margins if np.mean([figures(d[0] @ w, d[1], t)[1] for d in data]) >= args.coverage),
                 default=0.0)
    print("weights = {" + ", ".join(f'"{f}": {v:.4g}' for f, v in zip(FEATURES, w)) + "}")
    print(f"tie_below = {chosen:.2f}")
    for (xs, ys), sxs in zip(data, args.sxs):
        for t in sorted({0.0, 0.1, 0.2, 0.3, 0.5, float(chosen)}):
            agree, cover, strict = figures(xs @ w, ys, t)
            print(f"dev {sxs.rsplit(':', 1)[1]} tie_below {t:.2f}: agreement on decided {agree:.1%}, coverage "
                  f"{cover:.1%}, counting ties as wrong {strict:.1%} ({len(ys)} pairs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
