#!/usr/bin/env python3
"""Makes Little-Killer-only 9x9 puzzles with few clues for the hard-sum bench set.

A Little Killer clue is the sum of a diagonal (digits may repeat on it). For each seed: take the
solution of a generated classic 9x9 puzzle, give every diagonal of two or more cells its sum (30
clues; alone they do not make a grid unique), then in a seeded random order drop every given the
puzzle does not need, then every clue it does not need (anydoku counts to two; the bench's CP-SAT
side re-checks every answer). What is left is a minimal puzzle of few givens and clues (a
check that runs out of `--timeout` keeps what it tested: the puzzle stays unique, if perhaps not
minimal, and a loaded machine may make another puzzle from the same seed).

    python3 crates/anydoku/benches/hardsums/little_killers.py --anydoku target/release/anydoku \
        --seeds 20-27 --timeout 10 >> crates/anydoku/benches/hardsums/little_killers.jsonl
"""

import argparse
import json
import random
import subprocess
import sys
import tempfile


def count(anydoku, model, timeout):
    """'1', '2' (or more) or 'unknown' for a model, counting to two."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(model, f)
        f.flush()
        out = subprocess.run(
            [anydoku, "count", f.name, "--limit", "2", "--timeout", str(timeout)],
            capture_output=True,
            text=True,
        )
    return out.stdout.strip() or "unknown"


def diagonals():
    """The diagonals of a 9x9 grid with two or more cells, as lists of (row, col), 1-based."""
    out = []
    for d in range(-7, 8):  # down-right: col - row = d
        out.append([(r, r + d) for r in range(1, 10) if 1 <= r + d <= 9])
    for s in range(3, 18):  # down-left: row + col = s
        out.append([(r, s - r) for r in range(1, 10) if 1 <= s - r <= 9])
    return out


def make(anydoku, seed, timeout):
    gen = subprocess.run(
        [anydoku, "generate", "-g", "classic9", "--seed", str(seed), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    model = json.loads(gen.stdout)
    sol = model["solution"]
    model["givens"] = dict(sol)
    model.pop("certificates", None)
    base = [s for s in model["shapes"] if s.get("rule", "unique") == "unique"]
    clues = []
    for k, cells in enumerate(diagonals()):
        names = [f"r{r}c{c}" for r, c in cells]
        total = sum(int(sol[n]) for n in names)
        clues.append({"name": f"Little killer {k + 1}", "cells": names, "rule": "sum",
                      "sum": total, "unique": False})
    model["shapes"] = base + clues
    rng = random.Random(seed)
    cells = sorted(sol)
    rng.shuffle(cells)
    for c in cells:
        v = model["givens"].pop(c)
        if count(anydoku, model, timeout) != "1":
            model["givens"][c] = v
    order = list(range(len(clues)))
    rng.shuffle(order)
    keep = set(order)
    for k in order:
        keep.discard(k)
        model["shapes"] = base + [clues[j] for j in sorted(keep)]
        if count(anydoku, model, timeout) != "1":
            keep.add(k)
    model["shapes"] = base + [clues[j] for j in sorted(keep)]
    model["name"] = f"Little Killer 9x9 (seed {seed})"
    model["source"] = {"generator": "anydoku benches/hardsums/little_killers.py", "seed": seed,
                       "givens": len(model["givens"]), "clues": len(keep)}
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--anydoku", default="target/release/anydoku")
    ap.add_argument("--seeds", default="1-8", help="a range like 1-8")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per uniqueness check")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    for seed in range(lo, hi + 1):
        m = make(args.anydoku, seed, args.timeout)
        print(f"seed {seed}: {len(m['givens'])} givens, {m['source']['clues']} clues",
              file=sys.stderr)
        print(json.dumps(m), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
