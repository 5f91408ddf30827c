"""Benchmark: `sit eval` against what TEAPOT does (one sacrebleu `sentence_chrf` call per pair).

    python benchmarks/bench_eval.py [--lines 1000] [--repeat 5] [--out DIR] [--against DIR]

Builds five line-aligned files of ``--lines`` lines (original source, char-swap attack, both
translations, reference) by joining pairs of lines of the example set in examples/mt, then times,
best of ``--repeat``, wall-clock time and CPU time (user + system, of every thread and of any
worker process):

- TEAPOT's way, in this process: read the files, 3 x N calls of ``sacrebleu.sentence_chrf``
  (s_src; the output and the attacked output against the reference), TEAPOT's statistics;
- ``sit.eval.evaluate_files`` in this process (chrF through fastchrf);
- both as whole processes (``sit eval ...`` against ``python <TEAPOT's loop>``), start-up included.

It checks that the printed reports are identical (and the per-line scores equal) and prints the
times and sit's wall and CPU time as a fraction of TEAPOT's (the targets: at most 0.35x wall, 1.0x
CPU). Not a test: it asserts nothing about speed.

The processes run in turn (TEAPOT's loop, ``sit eval``, and with ``--against DIR`` ``sit eval``
of the checkout at DIR, say main's), each once before the timed rounds, so that all of them see
the same load; the load average is printed. Bytecode is written under ``--out``
(``PYTHONPYCACHEPREFIX``), as an installed sit and sacrebleu have it, whatever
``PYTHONDONTWRITEBYTECODE`` says (under it every start compiles sit's modules).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "mt"
FILES = {"src": "src.en", "adv_src": "adv.charswap.en", "out": "out.es", "adv_out": "adv.charswap.es", "ref": "ref.es"}

# What TEAPOT does, written out (its loadtxt, Scorer.score / rd_score, stats and report), on
# current sacrebleu with its chrF fixed to sentence_chrf(hyp, [ref]).score / 100.
TEAPOT_LOOP = r'''
import math, sys
import sacrebleu

def loadtxt(filename):
    with open(filename, "r", encoding="utf-8") as f:
        return [line.rstrip() for line in f]

def chrf(hyp, ref):
    return sacrebleu.sentence_chrf(hyp, [ref]).score / 100

def stats(x):
    n = len(x)
    x = sorted(x)
    mean = sum(x) / n
    std = math.sqrt(sum([(v - mean) ** 2 for v in x]) / max(n - 1, .1))
    return mean, std, x[int(n * 0.05)], x[int(n * 0.95)]

def teapot(src, adv_src, out, adv_out, ref):
    src, adv_src, out, adv_out, ref = map(loadtxt, (src, adv_src, out, adv_out, ref))
    s_src = [chrf(h, r) for h, r in zip(adv_src, src)]
    base = [chrf(h, r) for h, r in zip(out, ref)]
    hyp = [chrf(h, r) for h, r in zip(adv_out, ref)]
    d_tgt = [max(0, b - h) / b if b > 0 else 0 for b, h in zip(base, hyp)]
    lines = []
    for title, values in (("Source side preservation (ChrF):", s_src),
                          ("Target side degradation (relative decrease in ChrF):", d_tgt)):
        if lines:
            lines.append("-" * 80)
        m, s, p5, p95 = stats(values)
        lines += [title, f"Mean:\t{m*100:.3f}", f"Std:\t{s*100:.3f}", f"5%-95%:\t{p5*100:.3f}-{p95*100:.3f}"]
    success = sum(float(s + d > 1.0) for s, d in zip(s_src, d_tgt)) / len(s_src)
    lines += ["-" * 80, f"Success percentage: {success*100:.2f} %"]
    return "\n".join(lines), s_src, d_tgt

if __name__ == "__main__":
    print(teapot(*sys.argv[1:6])[0])
'''


def build_files(out_dir: Path, n_lines: int) -> dict[str, Path]:
    """``n_lines`` distinct examples: example a joined with example b, in all five files alike."""
    columns = {k: (EXAMPLES / v).read_text(encoding="utf-8").splitlines() for k, v in FILES.items()}
    m = len(columns["src"])
    pairs, seen = [], set()
    k = 0
    while len(pairs) < n_lines:
        a, b = k % m, (k * 7 + 3 + k // m) % m
        k += 1
        if a != b and (a, b) not in seen:
            seen.add((a, b))
            pairs.append((a, b))
    paths = {}
    for key, lines in columns.items():
        paths[key] = out_dir / FILES[key]
        paths[key].write_text("".join(f"{lines[a]} {lines[b]}\n" for a, b in pairs), encoding="utf-8")
    return paths


def _cpu() -> float:
    """CPU seconds of this process (all its threads) and of its finished child processes."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def best_of(repeat: int, func):
    """(best wall, median wall, best CPU, median CPU, result) over ``repeat`` calls of ``func``."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        c, start = _cpu(), time.perf_counter()
        result = func()
        walls.append(time.perf_counter() - start)
        cpus.append(_cpu() - c)
    return min(walls), statistics.median(walls), min(cpus), statistics.median(cpus), result


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def in_turn(repeat: int, commands: list[tuple[str, list[str], dict]]) -> list[tuple]:
    """Each command once (bytecode, file cache), then ``repeat`` rounds of all in turn; per command
    ((best wall, median wall), (best CPU, median CPU), stdout). CPU: user + system of the process."""
    walls: list[list[float]] = [[] for _ in commands]
    cpus: list[list[float]] = [[] for _ in commands]
    stdouts = ["" for _ in commands]
    for rnd in range(repeat + 1):
        for i, (_, cmd, env) in enumerate(commands):
            cpu, start = _children_cpu(), time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, env=env)
            wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
            if proc.returncode != 0:
                raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr.decode(errors='replace')}")
            stdouts[i] = proc.stdout.decode("utf-8")
            if rnd > 0:  # the first round writes the bytecode
                walls[i].append(wall)
                cpus[i].append(cpu)
    return [((min(w), statistics.median(w)), (min(c), statistics.median(c)), o)
            for w, c, o in zip(walls, cpus, stdouts)]


def _line(label: str, wall, cpu, base=None) -> str:
    text = f"{label:<44} wall {wall[0]:.3f} s ({wall[1]:.3f})  CPU {cpu[0]:.3f} s ({cpu[1]:.3f})"
    if base is not None:
        text += f"  -> {wall[0] / base[0][0]:.2f}x wall, {cpu[0] / base[1][0]:.2f}x CPU"
    return text


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", type=Path, default=None, help="directory for the five files (default: temporary)")
    ap.add_argument("--against", type=Path, default=None,
                    help="another checkout whose `sit eval` runs in turn with this one's (say main's)")
    args = ap.parse_args(argv)

    from sit.eval import evaluate_files, format_report
    from sit.eval.fast import usable_cores

    out = args.out or Path(tempfile.mkdtemp(prefix="sit-bench-eval-"))
    out.mkdir(parents=True, exist_ok=True)
    paths = build_files(out, args.lines)
    (out / "teapot_loop.py").write_text(TEAPOT_LOOP, encoding="utf-8")
    namespace: dict = {"__name__": "teapot_loop"}
    exec(compile(TEAPOT_LOOP, "teapot_loop", "exec"), namespace)
    order = [str(paths[k]) for k in ("src", "adv_src", "out", "adv_out", "ref")]
    kwargs = {k: str(p) for k, p in paths.items()}
    load = "/".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"{args.lines:,} lines x 5 files in {out}; {usable_cores()} usable core(s), load average {load} "
          f"(other work on the cores slows the parallel figures); best (median) of {args.repeat}")

    evaluate_files(**kwargs)  # warm up: imports, file cache, fastchrf's threads
    w, mw, c, mc, (loop_report, loop_s, loop_d) = best_of(args.repeat, lambda: namespace["teapot"](*order))
    loop = ((w, mw), (c, mc))
    w, mw, c, mc, result = best_of(args.repeat, lambda: evaluate_files(**kwargs))
    sit = ((w, mw), (c, mc))
    sit_report = format_report(result)
    identical = (sit_report == loop_report and list(result.source.scores) == loop_s
                 and list(result.target.scores) == loop_d)
    print(_line(f"in process   TEAPOT's loop ({3 * args.lines:,} calls)", *loop))
    print(_line("in process   sit eval", *sit, base=loop))

    bin_dir = Path(sys.executable).parent
    sit_cmd = [str(bin_dir / "sit")] if (bin_dir / "sit").exists() else [
        sys.executable, "-c", "from sit.cli import console; console()"]  # what the sit script runs
    sit_cmd += ["eval", "--src", order[0], "--adv-src", order[1], "--out", order[2], "--adv-out", order[3],
                "--ref", order[4]]
    loop_cmd = [sys.executable, str(out / "teapot_loop.py"), *order]
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(out / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    checkouts = [("sit eval", ROOT)] + ([(f"sit eval ({args.against.name})", args.against.resolve())]
                                        if args.against else [])
    commands = [("python TEAPOT's loop", loop_cmd, env)] + [
        (label, sit_cmd, {**env, "PYTHONPATH": str(code)}) for label, code in checkouts]
    timed = in_turn(args.repeat, commands)
    loop_stdout = timed[0][2]
    p_loop = timed[0][:2]
    print(_line("as processes python TEAPOT's loop", *p_loop))
    for (label, _, _), (wall, cpu, stdout) in zip(commands[1:], timed[1:]):
        identical = identical and stdout == loop_stdout
        print(_line(f"as processes {label}", wall, cpu, base=p_loop))
    load = "/".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"load average after: {load}")
    print(f"identical figures (report text and every per-line score): {'yes' if identical else 'NO'}")
    print()
    print(sit_report)
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
