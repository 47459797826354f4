"""CaDiCaL on a plain model with and without segment (house intersection) variables.

Usage: segments.py MODEL.json [MODES]   (MODES: comma-separated, default 0,1,2)
  0  the direct encoding of reference.py
  1  plus, per segment (two houses meeting in 2+ cells) and symbol, m <=> symbol in segment
  2  plus, per complete house and symbol, exactly one of the house's segments holds it
Counts to two (solve, block, solve) and prints CPU seconds of the solve calls and conflicts.
The figures are in docs/PERFORMANCE.md ("Segment variables for the learner").
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import from_model, Cnf
from pysat.solvers import Solver

def segments(cnf):
    houses = [set(h) for h in cnf.houses]
    segs = {}
    for i, a in enumerate(houses):
        for j in range(i + 1, len(houses)):
            s = a & houses[j]
            if len(s) >= 2 and s != a and s != houses[j]:
                segs[tuple(sorted(s))] = (i, j)
    return list(segs)

def with_segments(cnf, mode):
    clauses = list(cnf.clauses)
    nv = cnf.n * cnf.k
    segs = segments(cnf)
    seg_var = {}
    for s in segs:
        for v in range(cnf.k):
            nv += 1
            m = nv
            seg_var[(s, v)] = m
            lits = [cnf.var(c, v) for c in s]
            clauses.append([-m] + lits)
            for l in lits:
                clauses.append([-l, m])
    if mode >= 2:
        # each house: its segments (those inside it) that partition it: exactly one holds v
        for h in cnf.houses:
            hs = set(h)
            inside = [s for s in segs if set(s) <= hs]
            cover = set()
            part = []
            for s in inside:
                if not (set(s) & cover):
                    part.append(s); cover |= set(s)
            if cover == hs and len(h) == cnf.k:
                for v in range(cnf.k):
                    ms = [seg_var[(s, v)] for s in part]
                    clauses.append(ms)
                    for a in range(len(ms)):
                        for b in range(a + 1, len(ms)):
                            clauses.append([-ms[a], -ms[b]])
    return clauses, len(segs)

def count_two(clauses, cnf, givens):
    s = Solver(name='cadical195')
    for cl in clauses + cnf.units(givens):
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
    return found, dt, st.get('conflicts')

name, cnf, givens = from_model(sys.argv[1])
modes = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "0,1,2").split(',')]
for mode in modes:
    if mode == 0:
        cl, ns = cnf.clauses, 0
    else:
        cl, ns = with_segments(cnf, mode)
    f, dt, conf = count_two(cl, cnf, givens)
    print(f"{name} mode {mode} segs {ns}: found {f} {dt:.2f} s conflicts {conf}", flush=True)
