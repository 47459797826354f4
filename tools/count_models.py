#!/usr/bin/env python3
"""A deliberately naive, independent solution counter for neutral JSON models.

Usage: python3 tools/count_models.py MODEL.json [LIMIT]

Knows only cells, symbols, unique shapes and givens (sum shapes are checked at the leaves). Picks
the empty cell with the fewest symbols not used by a peer, tries each, and counts complete grids up
to LIMIT (default 1000). Used to cross-check anydoku's counts on small cases (Tredoku examples).
"""

import json
import sys


def count(model: dict, limit: int) -> int:
    names = [c["name"] for c in model["cells"]]
    idx = {n: i for i, n in enumerate(names)}
    symbols = model["symbols"]
    values = model.get("values") or list(range(1, len(symbols) + 1))
    n = len(names)
    peers = [set() for _ in range(n)]
    sums = []
    for s in model["shapes"]:
        cells = [idx[c] for c in s["cells"]]
        if s["rule"] == "unique" or s.get("unique"):
            for a in cells:
                peers[a].update(x for x in cells if x != a)
        if s["rule"] == "sum":
            sums.append((cells, s["sum"]))
    grid = [None] * n
    for cell, sym in model.get("givens", {}).items():
        grid[idx[cell]] = symbols.index(sym)
    for i in range(n):
        if grid[i] is not None and any(grid[p] == grid[i] for p in peers[i]):
            return 0
    found = 0

    def options(i):
        used = {grid[p] for p in peers[i]}
        return [s for s in range(len(symbols)) if s not in used]

    def rec():
        nonlocal found
        best, best_opts = None, None
        for i in range(n):
            if grid[i] is None:
                o = options(i)
                if best is None or len(o) < len(best_opts):
                    best, best_opts = i, o
                    if not o:
                        return
        if best is None:
            if all(sum(values[grid[c]] for c in cells) == t for cells, t in sums):
                found += 1
            return
        for s in best_opts:
            grid[best] = s
            rec()
            grid[best] = None
            if found >= limit:
                return

    rec()
    return found


if __name__ == "__main__":
    model = json.load(open(sys.argv[1], encoding="utf-8"))
    print(count(model, int(sys.argv[2]) if len(sys.argv) > 2 else 1000))
