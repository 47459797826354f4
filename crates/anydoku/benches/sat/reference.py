#!/usr/bin/env python3
"""Reference SAT solvers (python-sat: CaDiCaL 1.9.5, Kissat 4.0.4, Glucose 4, MiniSat 2.2) on
anydoku's plain models, to set anydoku's CDCL search against them on the same problems.

Each problem becomes CNF in the standard direct encoding: one variable x(c, v) per cell and
value; every cell holds exactly one value (one clause "at least one", pairwise "at most one");
every value exactly once in each unique shape of as many cells as there are values (at most once
in a smaller one); each given a unit clause. Two kinds of problem:

- a JSON model (what `anydoku count FILE` reads, e.g. michael404's 36x36 minimal4 as one
  model): a count to two, as `anydoku count --limit 2`: solve, add the clause that blocks the
  solution found, solve again (Kissat is not incremental: its second solve is a fresh solver
  with the blocking clause). Only unique shapes are encoded; a model with other shapes is
  refused.
- a dumped removal check of the generator (`THIN_DUMP=FILE thin_profile ...`, lines
  `secs|found|cells|solution|givens`, replayed by the tune bin `check_replay GEOMETRY FILE`) on
  a classic grid (`--boxes RxC`): one solve of "the givens, and some listed cell differs from
  the known solution". `--phases` gives CaDiCaL/Glucose/MiniSat the known solution as initial
  phases, as the generator's CDCL has.

Per problem and solver: the answer, CPU seconds of the solve calls (this process's CPU time; the
CNF is built before the clock starts), and where python-sat exposes them (`accum_stats()`; not
for Kissat) conflicts, decisions, propagations and restarts. Every solution found is checked
against the constraints and the givens. With `--cpsat`, CP-SAT at one worker also counts each
JSON model to two, on `../cpsat/encode.py`'s model (as `compare.py`), and reports its conflicts
and branches per solve; `--cpsat-log` prints its search log (presolve, the search workers,
LP).

    python3 crates/anydoku/benches/sat/reference.py /work/data14/m4.json
    python3 crates/anydoku/benches/sat/reference.py --solvers cadical195 \
        --cadical-option chrono=0 --cadical-option inprocessing=0 /work/data14/m2.json
    python3 crates/anydoku/benches/sat/reference.py --dump DUMP --boxes 6x6 --lines 1,7 --phases
"""

import argparse
import json
import os
import random
import sys
import time

from pysat.solvers import Solver

SOLVERS = "cadical195,kissat404,glucose4,minisat22"


class Cnf:
    """The direct encoding of a grid of `n` cells and `k` values with the given houses."""

    def __init__(self, n, k, houses):
        self.n, self.k = n, k
        self.houses = houses
        self.clauses = []
        for c in range(n):
            self.exactly_one([self.var(c, v) for v in range(k)])
        for h in houses:
            for v in range(k):
                lits = [self.var(c, v) for c in h]
                if len(h) == k:
                    self.exactly_one(lits)
                else:
                    self.at_most_one(lits)

    def var(self, c, v):
        return c * self.k + v + 1

    def exactly_one(self, lits):
        self.clauses.append(lits)
        self.at_most_one(lits)

    def at_most_one(self, lits):
        for i, a in enumerate(lits):
            for b in lits[i + 1:]:
                self.clauses.append([-a, -b])

    def units(self, givens):
        """Unit clauses of the givens: {cell index: value index}."""
        return [[self.var(c, v)] for c, v in givens.items()]

    def decode(self, model):
        """The grid (value index per cell) of a model of the solver."""
        grid = [None] * self.n
        for lit in model:
            if lit > 0 and lit <= self.n * self.k:
                c, v = divmod(lit - 1, self.k)
                assert grid[c] is None, "two values in one cell"
                grid[c] = v
        return grid

    def check(self, grid, givens):
        """Asserts that a decoded grid keeps every house and given (an independent check)."""
        assert None not in grid, "a cell without a value"
        for h in self.houses:
            vals = [grid[c] for c in h]
            assert len(set(vals)) == len(vals), "a value twice in a house"
        for c, v in givens.items():
            assert grid[c] == v, "a given changed"


def from_model(path):
    """(name, Cnf, givens) of a JSON model with unique shapes only."""
    with open(path) as f:
        m = json.load(f)
    index = {c["name"]: i for i, c in enumerate(m["cells"])}
    sym = {s: i for i, s in enumerate(m["symbols"])}
    houses = []
    for s in m["shapes"]:
        if s.get("rule") != "unique":
            sys.exit(f"{path}: shape {s['name']} is not a unique shape (plain models only)")
        houses.append([index[c] for c in s["cells"]])
    givens = {index[c]: sym[v] for c, v in m["givens"].items()}
    return m.get("name", path), Cnf(len(m["cells"]), len(m["symbols"]), houses), givens


def classic_houses(size, br, bc):
    """Rows, columns and boxes of a classic size x size grid, cells in row-major order."""
    rows = [[r * size + c for c in range(size)] for r in range(size)]
    cols = [[r * size + c for r in range(size)] for c in range(size)]
    boxes = []
    for r0 in range(0, size, br):
        for c0 in range(0, size, bc):
            boxes.append([(r0 + r) * size + c0 + c for r in range(br) for c in range(bc)])
    return rows + cols + boxes


def from_dump(line, br, bc):
    """(cells, solution, givens, Cnf) of one dumped removal check."""
    f = line.strip().split("|")
    if len(f) < 5:
        f = line.strip().replace(" ", "|", 2).split("|")
    cells = [int(x) for x in f[2].split(",") if x]
    sol = [int(x) for x in f[3].split(",")]
    givens = {i: int(x) for i, x in enumerate(f[4].split(",")) if x.isdigit()}
    size = br * bc
    assert len(sol) == size * size, "the dump's grid is not --boxes' size"
    cnf = Cnf(size * size, size, classic_houses(size, br, bc))
    cnf.check(sol, givens)  # the cell order is row-major: the known solution keeps every house
    return cells, sol, givens, cnf


class Renamed:
    """A Cnf under a random renaming of its variables and order of its clauses (seed 0: none),
    so that one solver gives one search per seed (its conflicts over seeds are a spread, not a
    single draw)."""

    def __init__(self, cnf, seed):
        self.cnf, self.n, self.k, self.houses = cnf, cnf.n, cnf.k, cnf.houses
        nv = cnf.n * cnf.k
        perm = list(range(1, nv + 1))
        if seed:
            random.Random(seed).shuffle(perm)
        self.to = [0] + perm
        self.back = [0] * (nv + 1)
        for a, b in enumerate(self.to):
            self.back[b] = a
        self.seed = seed
        self.clauses = self.rename(cnf.clauses)
        if seed:
            random.Random(seed).shuffle(self.clauses)

    def rename(self, clauses):
        to = self.to
        return [[to[l] if l > 0 else -to[-l] for l in cl] for cl in clauses]

    def var(self, c, v):
        return self.to[self.cnf.var(c, v)]

    def units(self, givens):
        return self.rename(self.cnf.units(givens))

    def decode(self, model):
        back = self.back
        return self.cnf.decode([back[l] if l > 0 else -back[-l] for l in model])

    def check(self, grid, givens):
        self.cnf.check(grid, givens)


def new_solver(name, options):
    """A solver by python-sat name, `NAME:OPT=INT:OPT=INT` setting CaDiCaL options on top of
    `options` (CaDiCaL's configure() ignores unknown names: check that an option moves the
    conflicts)."""
    base, *extra = name.split(":")
    opts = dict(options) if base.startswith("cadical") else {}
    opts.update(parse_options(extra))
    s = Solver(name=base)
    if opts:
        s.solver.configure(opts)
    return s


def solve_once(name, clauses, options, phases):
    """One solver on the clauses: (answer, model, CPU seconds, stats dict or None)."""
    s = new_solver(name, options)
    for cl in clauses:
        s.add_clause(cl)
    if phases and not name.startswith("kissat"):
        s.set_phases(phases)
    t = time.process_time()
    ok = s.solve()
    dt = time.process_time() - t
    model = s.get_model() if ok else None
    stats = None if name.startswith("kissat") else s.accum_stats()
    s.delete()
    return ok, model, dt, stats


def add_stats(a, b):
    if a is None or b is None:
        return None
    return {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}


def count_two(name, cnf, givens, options):
    """Count to two: (solutions found up to 2, CPU seconds, stats of both solves)."""
    base = cnf.clauses + cnf.units(givens)
    if name.startswith("kissat"):
        ok, model, dt, st = solve_once(name, base, options, None)
        if not ok:
            return 0, dt, st
        grid = cnf.decode(model)
        cnf.check(grid, givens)
        block = [-cnf.var(c, v) for c, v in enumerate(grid) if c not in givens]
        ok2, model2, dt2, st2 = solve_once(name, base + [block], options, None)
        if ok2:
            cnf.check(cnf.decode(model2), givens)
        return 1 + ok2, dt + dt2, add_stats(st, st2)
    s = new_solver(name, options)
    for cl in base:
        s.add_clause(cl)
    t = time.process_time()
    found = 0
    while found < 2 and s.solve():
        grid = cnf.decode(s.get_model())
        cnf.check(grid, givens)
        found += 1
        s.add_clause([-cnf.var(c, v) for c, v in enumerate(grid) if c not in givens])
    dt = time.process_time() - t
    st = s.accum_stats()
    s.delete()
    return found, dt, st


def cpsat_two(path, log):
    """CP-SAT at one worker on a JSON model, as compare.py: solve, forbid the solution, solve
    again; prints each solve's status, CPU seconds, conflicts and branches."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpsat"))
    import encode
    from ortools.sat.python import cp_model

    with open(path) as f:
        model = json.load(f)
    m, x, _ = encode.build(model)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.log_search_progress = log
    t = time.process_time()
    st = solver.Solve(m)
    print(f"  cpsat first: {solver.StatusName(st)} in {time.process_time() - t:.2f} s CPU, "
          f"conflicts {solver.NumConflicts()} branches {solver.NumBranches()}", flush=True)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return
    sol = {c: solver.Value(v) for c, v in x.items()}
    encode.forbid(m, x, sol)
    t = time.process_time()
    st = solver.Solve(m)
    print(f"  cpsat second: {solver.StatusName(st)} in {time.process_time() - t:.2f} s CPU, "
          f"conflicts {solver.NumConflicts()} branches {solver.NumBranches()}", flush=True)


def fmt(st):
    if not st:
        return "(no stats)"
    keys = ["conflicts", "decisions", "propagations", "restarts"]
    return " ".join(f"{k} {st[k]}" for k in keys if k in st)


def parse_options(items):
    out = {}
    for it in items:
        k, v = it.split("=")
        out[k] = int(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", help="JSON models (count to two)")
    ap.add_argument("--solvers", default=SOLVERS,
                    help=f"comma-separated ({SOLVERS}); cadical195:OPT=INT:... with options")
    ap.add_argument("--cadical-option", action="append", default=[],
                    help="NAME=INT for CaDiCaL's configure() (its options.hpp), repeatable")
    ap.add_argument("--seeds", type=int, default=1,
                    help="runs per solver, seed s renaming the variables at random (0: none)")
    ap.add_argument("--cpsat", action="store_true", help="JSON models: CP-SAT too")
    ap.add_argument("--cpsat-log", action="store_true", help="with --cpsat: its search log")
    ap.add_argument("--dump", help="a file of dumped removal checks")
    ap.add_argument("--boxes", default="6x6", help="box shape of the dump's classic grid")
    ap.add_argument("--lines", help="comma-separated 1-based lines of the dump (default all)")
    ap.add_argument("--phases", action="store_true",
                    help="dump checks: the known solution as initial phases")
    args = ap.parse_args()
    options = parse_options(args.cadical_option)
    solvers = [s for s in args.solvers.split(",") if s]
    for path in args.models:
        name, cnf, givens = from_model(path)
        print(f"{name}: {cnf.n * cnf.k} variables, {len(cnf.clauses) + len(givens)} clauses, "
              f"{len(givens)} givens", flush=True)
        for seed in range(args.seeds):
            renamed = Renamed(cnf, seed) if seed else cnf
            for s in solvers:
                found, dt, st = count_two(s, renamed, givens, options)
                print(f"  {s} seed {seed}: {found} solution(s) in {dt:.2f} s CPU, {fmt(st)}",
                      flush=True)
        if args.cpsat:
            cpsat_two(path, args.cpsat_log)
    if args.dump:
        br, bc = (int(x) for x in args.boxes.split("x"))
        with open(args.dump) as f:
            lines = [l for l in f if l.strip()]
        pick = [int(x) for x in args.lines.split(",")] if args.lines else range(1, len(lines) + 1)
        for i in pick:
            cells, sol, givens, cnf = from_dump(lines[i - 1], br, bc)
            differ = [-cnf.var(c, sol[c]) for c in cells]
            clauses = cnf.clauses + cnf.units(givens) + [differ]
            phases = [cnf.var(c, v) for c, v in enumerate(sol)] if args.phases else None
            print(f"check {i}: {len(givens)} givens, cells {cells}", flush=True)
            for s in solvers:
                ok, model, dt, st = solve_once(s, clauses, options, phases)
                if ok:
                    cnf.check(cnf.decode(model), givens)
                word = "found" if ok else "none"
                print(f"  {s}: {word} in {dt:.2f} s CPU, {fmt(st)}", flush=True)


if __name__ == "__main__":
    main()
