"""``sit cache``: look after the cache (stats, verify, export, import, prune).

Exit codes: 0 done; 2 bad options or an unreadable file to import; 4 the cache is damaged (what
was found is printed; readable entries were kept and the damaged file copied aside) or cannot be
read or written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cache-dir", help="the cache (default $SIT_CACHE_DIR, else $XDG_CACHE_HOME/sit or ~/.cache/sit)")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    s = sub.add_parser("stats", help="stores, entries and bytes per kind and namespace")
    s.add_argument("--json", action="store_true", help="one JSON object on standard output")
    sub.add_parser("verify", help="check the whole file and every value; repair what is damaged (exit 4 if any)")
    e = sub.add_parser("export", help="write each store to DIR/<kind>/<label>-<hash>.jsonl (JSONL)")
    e.add_argument("--kind", help="only this kind (translations, parses, perturbations ...)")
    e.add_argument("-o", "--output", required=True, help="a directory")
    i = sub.add_parser("import", help="add the entries of JSONL store files (importing twice changes nothing)")
    i.add_argument("files", nargs="+", metavar="FILE", help="a .jsonl store file, or a directory of them")
    i.add_argument("--kind", help="the kind of entries, when neither the header nor the folder says")
    r = sub.add_parser("prune", help="delete the entries that match every filter given")
    r.add_argument("--kind", help="translations, parses, perturbations, summaries, scores ...")
    r.add_argument("--translator", help="the translations of this translator (e.g. apertium, google)")
    r.add_argument("--namespace", help="one store: its label-hash, label or hash (see `sit cache stats`)")
    r.add_argument("--older-than", type=float, metavar="DAYS", help="only entries written more than DAYS ago")
    r.add_argument("--empty", action="store_true",
                   help="only translations that are a translator's empty answer (asked twice: a re-run asks again)")
    r.add_argument("--vacuum", action="store_true", help="then give the space back to the file system")


def run(args: argparse.Namespace) -> int:
    from ..cache import ops as cacheops
    from ..cache import Cache

    cache = Cache(args.cache_dir)
    action = {"stats": _stats, "verify": _verify, "export": _export, "import": _import, "prune": _prune}[args.action]
    code = action(cacheops, cache, args)
    for problem in cache.problems if args.action != "verify" else []:
        print(f"sit: warning: {problem}", file=sys.stderr)
    return code


def _stats(ops, cache, args) -> int:
    st = ops.stats(cache)
    if args.json:
        print(json.dumps(st.to_dict(), ensure_ascii=False))
        return 0
    total = sum(s.entries for s in st.stores)
    print(f"{st.path}: {len(st.stores)} store(s), {total} entries, {st.file_bytes / 1e6:.1f} MB on disk")
    for s in st.stores:
        print(f"  {s.kind:<20} {s.label + '-' + s.hash:<48} {s.entries:>10} entries {s.bytes / 1e6:>9.1f} MB")
    return 0


def _verify(ops, cache, args) -> int:
    problems = ops.verify(cache)
    for problem in problems:
        print(f"sit: {problem}", file=sys.stderr)
    if problems:
        return 4
    print(f"{cache.path}: ok")
    return 0


def _export(ops, cache, args) -> int:
    written = ops.export(cache, Path(args.output), args.kind)
    print(f"sit: exported {len(written)} store(s) to {args.output}", file=sys.stderr)
    return 0


def _import(ops, cache, args) -> int:
    files = []
    for name in args.files:
        path = Path(name)
        files.extend(sorted(path.rglob("*.jsonl")) if path.is_dir() else [path])
    for path in files:  # every file checked before any is imported: a FIFO among them would hang
        ops.importable(path)
    ops.check_whole(cache)  # entries added to a damaged file would be lost with it: repair it first
    for path in files:
        store, added = ops.import_file(cache, path, args.kind)
        print(f"sit: {path}: {added} new entries in {store.kind}/{store.label}", file=sys.stderr)
    return 0


def _prune(ops, cache, args) -> int:
    ops.check_whole(cache)  # a damaged page where no DELETE goes is found, repaired and said, as import does
    removed = ops.prune(cache, kind=args.kind, translator=args.translator, namespace=args.namespace,
                        older_than_days=args.older_than, empty=args.empty)
    if args.vacuum:
        ops.vacuum(cache)
    print(f"sit: deleted {removed} entries from {cache.path}", file=sys.stderr)
    return 0
