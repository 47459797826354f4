#!/usr/bin/env python3
"""Throughput of anydoku against OR-tools CP-SAT on the same puzzles, in one run.

Each puzzle is anydoku's neutral JSON model (docs/FORMATS.md: what `anydoku export PUZZLE`
writes, and what the lines of a .jsonl batch file hold). CP-SAT gets the same model, encoded by
`encode.py` next to this file (every constraint kind: one integer variable per cell, AllDifferent
on unique shapes, linear sums, tables for kropki/XV/whispers pairs, ...; see its docs), the
givens fixed. Both sides check uniqueness: anydoku counts to two solutions (`anydoku batch FILE
--threads 1`, process start included, median, min and max of --repeats runs); CP-SAT solves,
then adds "differs from the first solution somewhere" and must prove that infeasible. CP-SAT runs
with one worker, so both sides are single-threaded.

    pip install ortools
    python3 crates/anydoku/benches/cpsat/compare.py --anydoku target/release/anydoku --limit 50 \
        /tmp/var/samurai_puzzlekit.jsonl /tmp/var/killer_krazydad.jsonl

With `--per-puzzle target/release/model_times` (`cargo build --release -p anydoku-tune`) each
puzzle is also timed on its own, in process on both sides, and the ratios of the per-puzzle
medians and of the totals are printed (the set of 50 thermo/arrow/kropki 9x9 puzzles:
`crates/anydoku/benches/kinds/`, its README says how it was made).

Inputs may also be single puzzle files of any format anydoku reads; they are converted with
`anydoku export`. Puzzles must have a unique solution (both sides' answers are compared).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from ortools.sat.python import cp_model

import encode


def num(x):
    """A rate or ratio: whole above 100, else three significant digits (a puzzle that takes a
    minute is 0.0167 puzzles/s)."""
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def load_models(path, anydoku, limit):
    """The JSON models of a .jsonl file (first `limit`), or of one puzzle via `anydoku export`."""
    if path.endswith(".jsonl"):
        with open(path) as f:
            lines = [l for l in f if l.strip()][:limit]
        return [json.loads(l) for l in lines]
    out = subprocess.run([anydoku, "export", path], check=True, capture_output=True, text=True)
    return [json.loads(out.stdout)]


def cpsat_solve(model, direct=True):
    """Builds and solves one model with CP-SAT (encode.py); returns (status word, solution
    dict, CPU seconds). The time covers building the CP-SAT model and both solves (CPU time of
    this process: on a loaded machine wall time would count the waits too)."""
    t = time.process_time()
    m, x, decode = encode.build(model, direct)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    st = solver.Solve(m)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        word = "none" if st == cp_model.INFEASIBLE else "unknown"
        return word, None, time.process_time() - t
    sol = {c: solver.Value(v) for c, v in x.items()}
    encode.forbid(m, x, sol)
    st2 = solver.Solve(m)
    if st2 == cp_model.INFEASIBLE:
        status = "unique"
    elif st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        status = "multiple"
    else:
        status = "unknown"
    return status, {c: decode(v) for c, v in sol.items()}, time.process_time() - t


def run_anydoku(anydoku, models, repeats):
    """Times `anydoku batch --threads 1` on the models, `repeats` times (one run of 100 puzzles
    takes tens of milliseconds, so a single run is mostly noise); returns (sorted seconds of the
    runs, sorted CPU seconds of the runs (user + system), answer lines). The models are written
    without their `certificates` and `source` (generated puzzles carry certificates several
    times the puzzle's size; anydoku would read and ignore them, CP-SAT never sees them)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for m in models:
            m = {k: v for k, v in m.items() if k not in ("certificates", "source")}
            f.write(json.dumps(m) + "\n")
        name = f.name
    times, cpu = [], []

    def used():
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    try:
        for _ in range(max(1, repeats)):
            t, c = time.perf_counter(), used()
            out = subprocess.run(
                [anydoku, "batch", name, "--threads", "1"], capture_output=True, text=True
            )
            times.append(time.perf_counter() - t)
            cpu.append(used() - c)
    finally:
        os.unlink(name)
    return sorted(times), sorted(cpu), out.stdout.splitlines()


def run_model_times(binary, models, repeats):
    """Per-puzzle seconds of anydoku in process (`model_times`, engine built and uniqueness
    proved, best of `repeats`), and the status words."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for m in models:
            f.write(json.dumps(m) + "\n")
        name = f.name
    try:
        out = subprocess.run([binary, name, str(repeats)], check=True, capture_output=True, text=True)
    finally:
        os.unlink(name)
    rows = [l.split() for l in out.stdout.splitlines()]
    return [float(r[2]) for r in rows], [r[0] for r in rows]


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def per_puzzle_line(path, a_secs, a_status, c_secs, c_status):
    """The per-puzzle comparison of one set: medians, totals and their ratios."""
    n = len(c_secs)
    same = sum(a == c for a, c in zip(a_status, c_status))
    am, cm = median(a_secs), median(c_secs)
    at, ct = sum(a_secs), sum(c_secs)
    ratios = sorted(c / a for a, c in zip(a_secs, c_secs))
    return (
        f"{os.path.basename(path):<28} {n:>4} median {am * 1e3:.3f} ms vs {cm * 1e3:.3f} ms "
        f"(ratio of medians {num(cm / am)}x), total {at:.4f} s vs {ct:.3f} s (ratio of totals "
        f"{num(ct / at)}x), per-puzzle ratio min {num(ratios[0])}x median "
        f"{num(median(ratios))}x max {num(ratios[-1])}x; same status {same}/{n}"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="+", help=".jsonl files of JSON models, or puzzle files")
    ap.add_argument("--anydoku", default="target/release/anydoku")
    ap.add_argument("--limit", type=int, default=50, help="puzzles per .jsonl file")
    ap.add_argument(
        "--repeats",
        type=int,
        default=11,
        help="anydoku runs per set (median reported, with min and max)",
    )
    ap.add_argument(
        "--per-puzzle",
        metavar="MODEL_TIMES",
        help="also time each puzzle in process with this `model_times` binary (anydoku-tune) "
        "and report the ratios of the per-puzzle medians and totals",
    )
    ap.add_argument(
        "--index-vars",
        action="store_true",
        help="CP-SAT cell variables are symbol indices with element tables for the values (the "
        "encoding before the constraint kinds) instead of the values themselves",
    )
    args = ap.parse_args()
    print(
        f"{'set':<28} {'n':>4} {'anydoku/s median (min-max)':>28} {'cp-sat/s':>9} "
        f"{'ratio median (min-max)':>24}  agree (same unique solution)"
    )
    details, cpu_lines = [], []
    for path in args.inputs:
        models = load_models(path, args.anydoku, args.limit)
        if not models:
            continue
        a_times, a_cpu, a_lines = run_anydoku(args.anydoku, models, args.repeats)
        agree = 0
        c_secs, c_status = [], []
        t, t_cpu = time.perf_counter(), time.process_time()
        for i, model in enumerate(models):
            status, sol, secs = cpsat_solve(model, not args.index_vars)
            c_secs.append(secs)
            c_status.append(status)
            line = a_lines[i].strip() if i < len(a_lines) else ""
            # anydoku prints the solution (symbols in cell order) for a unique puzzle
            # (separated by spaces when some symbol has several characters)
            if status == "unique":
                sep = " " if any(len(y) > 1 for y in model["symbols"]) else ""
                agree += line == sep.join(sol[c["name"]] for c in model["cells"])
        c_time = time.perf_counter() - t
        c_cpu = time.process_time() - t_cpu
        n = len(models)
        c_rate = n / c_time
        slow, med, fast = n / a_times[-1], n / a_times[len(a_times) // 2], n / a_times[0]
        rates = f"{num(med)} ({num(slow)}-{num(fast)})"
        ratios = f"{num(med / c_rate)}x ({num(slow / c_rate)}-{num(fast / c_rate)}x)"
        print(
            f"{os.path.basename(path):<28} {n:>4} {rates:>28} {num(c_rate):>9} "
            f"{ratios:>24}  {agree}/{n}"
        )
        a_cpu_med = a_cpu[len(a_cpu) // 2]
        cpu_lines.append(
            f"{os.path.basename(path):<28} {n:>4} anydoku {a_cpu_med:.3f} s (median of "
            f"{len(a_cpu)}), cp-sat {c_cpu:.3f} s: ratio {num(c_cpu / max(a_cpu_med, 1e-9))}x"
        )
        if args.per_puzzle:
            a_secs, a_status = run_model_times(args.per_puzzle, models, args.repeats)
            details.append(per_puzzle_line(path, a_secs, a_status, c_secs, c_status))
    print("CPU time of the same runs (user + system; the process start and JSON reading "
          "included on both sides):")
    for line in cpu_lines:
        print(line)
    if details:
        print("per puzzle, in process, CPU time (anydoku: engine built and counted to two, best "
              f"of {args.repeats}; CP-SAT: model built and both solves), anydoku vs CP-SAT:")
        for d in details:
            print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
