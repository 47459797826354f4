#!/usr/bin/env python3
"""Throughput of anydoku against OR-tools CP-SAT on the same puzzles, in one run.

Each puzzle is anydoku's neutral JSON model (docs/FORMATS.md: what `anydoku export PUZZLE`
writes, and what the lines of a .jsonl batch file hold). CP-SAT gets the same model: one integer
variable per cell (the symbol index), AllDifferent on every unique shape, the values of a sum
shape (through an element table) adding up to its total, and the givens fixed. Both sides check
uniqueness: anydoku counts to two solutions (`anydoku batch FILE --threads 1`, process start
included, median, min and max of --repeats runs); CP-SAT solves,
then adds "differs from the first solution somewhere" and must prove that infeasible. CP-SAT runs
with one worker, so both sides are single-threaded.

    pip install ortools
    python3 crates/anydoku/benches/cpsat/compare.py --anydoku target/release/anydoku --limit 50 \
        /tmp/var/samurai_puzzlekit.jsonl /tmp/var/killer_krazydad.jsonl

Inputs may also be single puzzle files of any format anydoku reads; they are converted with
`anydoku export`. Puzzles must have a unique solution (both sides' answers are compared).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from ortools.sat.python import cp_model


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


def cpsat_solve(model):
    """Builds and solves one model with CP-SAT; returns (status word, solution dict)."""
    symbols = model["symbols"]
    values = model.get("values") or list(range(1, len(symbols) + 1))
    index = {s: i for i, s in enumerate(symbols)}
    m = cp_model.CpModel()
    x = {}
    for cell in model["cells"]:
        x[cell["name"]] = m.NewIntVar(0, len(symbols) - 1, cell["name"])
    val = {}

    def value_var(c):
        if c not in val:
            v = m.NewIntVar(min(values), max(values), "v_" + c)
            m.AddElement(x[c], values, v)
            val[c] = v
        return val[c]

    for shape in model["shapes"]:
        cells = shape["cells"]
        rule = shape.get("rule", "unique")
        if rule == "unique":
            m.AddAllDifferent([x[c] for c in cells])
        elif rule == "sum":
            m.Add(sum(value_var(c) for c in cells) == shape["sum"])
            if shape.get("unique", False):
                m.AddAllDifferent([x[c] for c in cells])
        else:
            raise SystemExit(f"unknown rule {rule!r}")
    for c, s in (model.get("givens") or {}).items():
        m.Add(x[c] == index[s])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    st = solver.Solve(m)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ("none" if st == cp_model.INFEASIBLE else "unknown"), None
    sol = {c: solver.Value(v) for c, v in x.items()}
    # uniqueness: some cell must differ from the first solution
    diff = []
    for c, v in x.items():
        b = m.NewBoolVar("d_" + c)
        m.Add(v != sol[c]).OnlyEnforceIf(b)
        m.Add(v == sol[c]).OnlyEnforceIf(b.Not())
        diff.append(b)
    m.AddBoolOr(diff)
    st2 = solver.Solve(m)
    if st2 == cp_model.INFEASIBLE:
        status = "unique"
    elif st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        status = "multiple"
    else:
        status = "unknown"
    return status, {c: symbols[i] for c, i in sol.items()}


def run_anydoku(anydoku, models, repeats):
    """Times `anydoku batch --threads 1` on the models, `repeats` times (one run of 100 puzzles
    takes tens of milliseconds, so a single run is mostly noise); returns (sorted seconds of the
    runs, answer lines)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for m in models:
            f.write(json.dumps(m) + "\n")
        name = f.name
    times = []
    try:
        for _ in range(max(1, repeats)):
            t = time.perf_counter()
            out = subprocess.run(
                [anydoku, "batch", name, "--threads", "1"], capture_output=True, text=True
            )
            times.append(time.perf_counter() - t)
    finally:
        os.unlink(name)
    times.sort()
    return times, out.stdout.splitlines()


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
    args = ap.parse_args()
    print(
        f"{'set':<28} {'n':>4} {'anydoku/s median (min-max)':>28} {'cp-sat/s':>9} "
        f"{'ratio median (min-max)':>24}  agree (same unique solution)"
    )
    for path in args.inputs:
        models = load_models(path, args.anydoku, args.limit)
        if not models:
            continue
        a_times, a_lines = run_anydoku(args.anydoku, models, args.repeats)
        agree = 0
        t = time.perf_counter()
        for i, model in enumerate(models):
            status, sol = cpsat_solve(model)
            line = a_lines[i].strip() if i < len(a_lines) else ""
            # anydoku prints the solution (symbols in cell order) for a unique puzzle
            if status == "unique":
                agree += line == "".join(sol[c["name"]] for c in model["cells"])
        c_time = time.perf_counter() - t
        n = len(models)
        c_rate = n / c_time
        slow, med, fast = n / a_times[-1], n / a_times[len(a_times) // 2], n / a_times[0]
        rates = f"{num(med)} ({num(slow)}-{num(fast)})"
        ratios = f"{num(med / c_rate)}x ({num(slow / c_rate)}-{num(fast / c_rate)}x)"
        print(
            f"{os.path.basename(path):<28} {n:>4} {rates:>28} {num(c_rate):>9} "
            f"{ratios:>24}  {agree}/{n}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
