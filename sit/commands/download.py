"""``sit download``: fetch everything a ``sit run`` command line would need that the package does
not carry (translator model, masked LM, Stanza parser models, spaCy pipelines, WordNet), for
machines that run offline later; say where each went.

It takes ``sit run``'s options (``--dataset``/``--input`` are optional and read nothing), plus
``--only`` to fetch some of the parts.
"""

from __future__ import annotations

import argparse
import sys

PARTS_HELP = "translator, mlm, parser, spacy, wordnet (comma-separated; default all the command line needs)"


def configure(p: argparse.ArgumentParser) -> None:
    from .run import configure as configure_run

    configure_run(p)
    p.epilog = ("Takes the options of `sit run`; fetches what that command line would load from a hub: the "
                "translator's model (marian, nllb, m2m100), the masked LM (--perturber auto or mlm) and Stanza's "
                "models for the target language (--parser auto or stanza), the spaCy pipelines (English for the "
                "perturber, the target language's where spaCy parses) and WordNet. Models go where their libraries "
                "keep them: the Hugging Face cache ($HF_HOME) and Stanza's directory ($STANZA_RESOURCES_DIR); spaCy's "
                "pipelines are installed with pip into this Python's environment (pip's own index and settings); "
                "WordNet is copied from Debian's files or fetched with NLTK's downloader into $SIT_DATA_DIR/nltk_data.")
    p.add_argument("--only", default="", metavar="PARTS", help=PARTS_HELP)


def _parts(value: str) -> tuple[str, ...]:
    from ..models import PARTS
    from ..errors import ConfigError

    parts = tuple(p.strip() for p in value.split(",") if p.strip()) or PARTS
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ConfigError(f"--only takes {PARTS_HELP}, not {', '.join(unknown)}")
    return parts


def run(args: argparse.Namespace) -> int:
    from ..models import download
    from ..plan import plan_run
    from .run import config_from_args

    plan = plan_run(config_from_args(args, source_required=False), read=False)

    def say(done) -> None:
        from ..models import FALLBACK

        if not done.path:
            print(f"sit: {done.need.what}: not fetched ({done.need.why}); {FALLBACK[done.need.part]}", file=sys.stderr)
            return
        state = "fetched into" if done.fetched else "already in"
        print(f"sit: {done.need.what}: {state} {done.path}", file=sys.stderr)

    def start(need) -> None:
        print(f"sit: {need.what}: fetching ({need.why}) ...", file=sys.stderr, flush=True)

    parts = _parts(args.only)
    plan.check_needs(parts)  # every piece that is nowhere, named at once, before any is fetched
    fetched = download([p for p in plan.needs if p.need.part in parts], on_done=say, on_start=start)
    if not fetched:
        print("sit: this command line needs nothing the package does not carry", file=sys.stderr)
    for done in fetched:
        if done.path:
            print(f"{done.need.part}\t{done.path}")
    return 0
