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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import count_two, from_model

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

name, cnf, givens = from_model(sys.argv[1])
modes = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "0,1,2").split(',')]
direct = cnf.clauses
for mode in modes:
    cnf.clauses = direct
    if mode > 0:
        cnf.clauses, ns = with_segments(cnf, mode)
    else:
        ns = 0
    f, dt, st = count_two("cadical195", cnf, givens, {})
    conf = st.get("conflicts")
    print(f"{name} mode {mode} segs {ns}: found {f} {dt:.2f} s conflicts {conf}", flush=True)
