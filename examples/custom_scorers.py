"""Two custom scorers for ``sit eval`` / ``teapot`` (``--custom-scores-source examples/custom_scorers.py``).

A scorer subclasses ``sit.eval.Scorer`` and registers under one or more keys with
``@register_scorer(keys, name)``: the key is what ``--s-src`` / ``--s-tgt`` take, the name is what
the report prints. Files written for TEAPOT (``import teapot`` ... ``teapot.Scorer``) load as they
are: inside such a file ``teapot`` is sit's implementation.

    sit eval --src mt/src.en --adv-src mt/adv.charswap.en --out mt/out.es --adv-out mt/adv.charswap.es \\
        --ref mt/ref.es --custom-scores-source custom_scorers.py --s-tgt f1
    sit eval --src mt/src.en --adv-src mt/adv.charswap.en \\
        --custom-scores-source custom_scorers.py --s-src constant --value 0.3
"""

from sit.eval import Scorer, register_scorer


@register_scorer("f1", "F-1")
class F1(Scorer):
    """Word-level F1 between two sentences (split at whitespace), in [0, 1].

    Implementing ``score_sentence`` is usually all a scorer needs; sit calls it for each pair.
    """

    def score_sentence(self, hyp, ref, lang=None):
        hyp_words, ref_words = hyp.split(), ref.split()
        if not hyp_words or not ref_words:
            return float(hyp_words == ref_words)  # two empty lines agree; one empty line shares nothing
        hyp_set, ref_set = set(hyp_words), set(ref_words)
        precision = sum(w in ref_set for w in hyp_words) / len(hyp_words)
        recall = sum(w in hyp_set for w in ref_words) / len(ref_words)
        if precision + recall == 0:
            return 0.0
        return 2 * precision * recall / (precision + recall)


@register_scorer("constant", "Constant")
class Constant(Scorer):
    """The same score for every pair (``--value``, default 0.5): shows a scorer with its own option.

    It scores a whole list at once with ``score_corpus`` (what a scorer that calls an external
    program would do) and declares its command-line option with ``add_args`` / ``from_args``.
    """

    def __init__(self, value=0.5):
        self.value = float(value)

    def score_corpus(self, hyps, refs, lang=None):
        return [self.value] * len(hyps)

    @classmethod
    def add_args(cls, parser):
        group = parser.add_argument_group("constant scorer")
        group.add_argument("--value", type=float, default=0.5, help="the score of every pair (default 0.5)")

    @classmethod
    def from_args(cls, args):
        return cls(value=args.value)
