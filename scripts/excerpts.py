"""Write the excerpts of a run that README.md and docs/ show from a real run: the quick start's, and
``sit check``'s gate checks on docs/examples/gate.xlf (docs/check.md).

Each excerpt is a fenced block right after a marker line ``<!-- excerpt: NAME -->``; this script
replaces the block's lines with what the run wrote (report.txt), so no excerpt is typed by hand.
tests/test_excerpts.py makes the same run and checks every block against it.

    python scripts/excerpts.py                 # runs the quick start's command, rewrites the blocks
    python scripts/excerpts.py --run DIR       # takes them from a run directory already written
    python scripts/excerpts.py --check         # writes nothing: names each block that differs (exit 1)

The run is the quick start's command (``sit run --dataset politics --translator apertium``) with an
empty cache of its own, as a new user's first run: on the offline default (WordNet, where no masked
LM is in the local caches and the model hub cannot be reached), the setting CI and the tests have.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the quick start's command (README.md), less its --out
QUICK_START = ("run", "--dataset", "politics", "--translator", "apertium")
#: the gate checks of ``sit check`` on the example XLIFF file (docs/check.md's excerpt), less its --out
GATE_EXAMPLE = ("check", "--source", str(ROOT / "docs" / "examples" / "gate.xlf"), "--target-lang", "es",
                "--checks", "brackets,whitespace,repetition,codes,width", "--ignore-file", "")
#: the files that hold excerpts
FILES = ("README.md", "docs/index.md", "docs/report.md", "docs/check.md")
#: a marker line and the fenced block after it
BLOCK = re.compile(r"^(<!-- excerpt: (?P<name>[\w-]+) -->\n```\n)(?P<body>.*?)^```$", re.S | re.M)


def quick_start_run(folder: Path) -> Path:
    """The quick start's run, into ``folder``/run with an empty cache (``folder``/cache)."""
    out = folder / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SIT_CACHE_DIR": str(folder / "cache")}
    subprocess.run([sys.executable, "-m", "sit.cli", *QUICK_START, "--no-progress", "--out", str(out)],
                   env=env, check=True, capture_output=True, text=True, timeout=1800)
    return out


def gate_example_run(folder: Path) -> Path:
    """``sit check``'s gate checks on docs/examples/gate.xlf, into ``folder``/gate (no cache needed)."""
    out = folder / "gate"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SIT_CACHE_DIR": str(folder / "cache")}
    subprocess.run([sys.executable, "-m", "sit.cli", *GATE_EXAMPLE, "--out", str(out)],
                   env=env, check=True, capture_output=True, text=True, timeout=600)
    return out


def root_causes(report: str) -> list[str]:
    """report.txt's clusters: from ``bugs by root cause`` up to the first relation's section."""
    lines = report.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("bugs by root cause"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("=" * 20))
    return lines[start:end]


def summary_lines(report: str) -> list[str]:
    """report.txt's summary: the lines under ``summary:``, up to the blank line."""
    lines = report.splitlines()
    start = lines.index("summary:") + 1
    return lines[start:lines.index("", start)]


def first_finding(report: str) -> list[str]:
    """The first relation's heading and the first sentence it lists, with its worst finding (#1):
    as report.txt writes them, up to the next finding or sentence."""
    lines = report.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("=" * 20))
    heading = lines[rule + 1]
    start = next(i for i in range(rule + 2, len(lines)) if lines[i].startswith("["))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(("  #2 ", "-" * 20, "=" * 20, "[")))
    return [heading, *lines[start:end]]


def excerpts(run_dir: Path, gate_dir: Path | None = None) -> dict[str, str]:
    """Every excerpt's text (name -> the lines of its block) from the run in ``run_dir`` and the
    gate example's run in ``gate_dir`` (made now where not given)."""
    report = (run_dir / "report.txt").read_text(encoding="utf-8")
    summary = summary_lines(report)
    findings = [line for line in summary if "finding" in line]
    if gate_dir is None:
        with tempfile.TemporaryDirectory(prefix="sit-gate-") as tmp:
            gate = (gate_example_run(Path(tmp)) / "report.txt").read_text(encoding="utf-8")
    else:
        gate = (gate_dir / "report.txt").read_text(encoding="utf-8")
    return {
        "quick-start-summary": "\n".join(summary) + "\n",
        "quick-start-report": "\n".join(findings + [""] + first_finding(report)) + "\n",
        "check-gate": "\n".join(root_causes(gate)) + "\n",
    }


def rewrite(text: str, made: dict[str, str]) -> str:
    """``text`` with each marked block's lines replaced by its excerpt (an unknown name is an error)."""
    def body(m: re.Match) -> str:
        if m.group("name") not in made:
            raise SystemExit(f"excerpts: no excerpt named {m.group('name')!r} (known: {', '.join(made)})")
        return m.group(1) + made[m.group("name")] + "```"

    return BLOCK.sub(body, text)


def stale(made: dict[str, str], root: Path = ROOT) -> list[str]:
    """``FILE: NAME`` for every marked block whose lines are not the run's."""
    return [f"{name}: {m.group('name')}" for name in FILES
            for m in BLOCK.finditer((root / name).read_text(encoding="utf-8"))
            if made.get(m.group("name")) != m.group("body")]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--run", type=Path, help="a run directory of the quick start's command (default: run it now)")
    p.add_argument("--check", action="store_true", help="write nothing; name each block that differs (exit 1)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sit-excerpts-") as tmp:
        made = excerpts(args.run or quick_start_run(Path(tmp)))
    if args.check:
        differ = stale(made)
        print("\n".join(differ) or "excerpts: every block is the run's")
        return 1 if differ else 0
    for name in FILES:
        path = ROOT / name
        path.write_text(rewrite(path.read_text(encoding="utf-8"), made), encoding="utf-8")
    print(f"excerpts: wrote {len(made)} excerpt(s) into {', '.join(FILES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
