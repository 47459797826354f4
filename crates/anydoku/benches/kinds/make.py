#!/usr/bin/env python3
"""Makes the second bench set: 9x9 puzzles with long thermometers, arrows, kropki dots.

The set is `kinds_long.jsonl` (see README.md). For puzzle i (seed = FIRST + i): `anydoku generate -g classic9 --seed S` gives a full grid; on it
this script plants 3 thermometers (strictly rising king-step walks of 3 to 6 cells), 3 arrows (a
circle cell and a walk of 2 or 3 cells adding up to its value) and 8 kropki dots (orthogonal
neighbours differing by 1, white, or one double the other, black), in cells not used by another
line; writes that layout as a geometry TOML, and `anydoku generate -g LAYOUT --seed S --format
json` makes a minimal puzzle on it (its own random grid, givens removed while unique, with the
solution and certificates). The planted grid only shows the layout can be filled.

    python3 crates/anydoku/benches/kinds/make.py --anydoku target/release/anydoku \\
        --count 50 --first 1 > crates/anydoku/benches/kinds/kinds_long.jsonl
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ORTHO = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def grid_of(anydoku, seed):
    out = subprocess.run(
        [anydoku, "generate", "-g", "classic9", "--seed", str(seed), "--format", "json"],
        check=True, capture_output=True, text=True,
    )
    sol = json.loads(out.stdout.splitlines()[0])["solution"]
    return {(r, c): int(sol[f"r{r}c{c}"]) for r in range(1, 10) for c in range(1, 10)}


def walk(rng, grid, used, start, length, ok):
    """A random king-step walk from `start` over unused cells, each step passing ok(path, next)."""
    path = [start]
    while len(path) < length:
        r, c = path[-1]
        nxt = [(r + dr, c + dc) for dr, dc in KING
               if (r + dr, c + dc) in grid and (r + dr, c + dc) not in used
               and (r + dr, c + dc) not in path and ok(path, (r + dr, c + dc))]
        if not nxt:
            return None
        path.append(rng.choice(nxt))
    return path


def plant(rng, grid):
    """The shapes: (rule, cells, keys)."""
    used, shapes = set(), []
    cells = sorted(grid)
    for _ in range(3):
        for _try in range(200):
            p = walk(rng, grid, used, rng.choice(cells), rng.randint(3, 6),
                     lambda path, n: grid[n] > grid[path[-1]])
            if p and not used & set(p):
                used |= set(p)
                shapes.append(("thermometer", p, ""))
                break
    for _ in range(3):
        for _try in range(500):
            circle = rng.choice(cells)
            if circle in used:
                continue
            k = rng.randint(2, 3)
            p = walk(rng, grid, used | {circle}, circle, k + 1, lambda path, n: True)
            if p and sum(grid[x] for x in p[1:]) == grid[circle]:
                used |= set(p)
                shapes.append(("arrow", p, ""))
                break
    dots = 0
    for _try in range(2000):
        if dots == 8:
            break
        a = rng.choice(cells)
        dr, dc = rng.choice(ORTHO)
        b = (a[0] + dr, a[1] + dc)
        if b not in grid or {a, b} & used:
            continue
        x, y = grid[a], grid[b]
        want_black = dots % 2 == 1
        if want_black and (x == 2 * y or y == 2 * x):
            shapes.append(("ratio", [a, b], ""))
        elif not want_black and abs(x - y) == 1:
            shapes.append(("difference", [a, b], ""))
        else:
            continue
        used |= {a, b}
        dots += 1
    return shapes


def layout_toml(name, shapes):
    out = [f'name = "{name}"', 'symbols = "123456789"', "", "[[grid]]", "size = 9",
           "boxes = [3, 3]"]
    for rule, cells, keys in shapes:
        out += ["", "[[shape]]", f'rule = "{rule}"',
                'cells = "' + " ".join(f"r{r}c{c}" for r, c in cells) + '"']
        if keys:
            out.append(keys)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--anydoku", default="target/release/anydoku")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--first", type=int, default=1)
    args = ap.parse_args()
    for seed in range(args.first, args.first + args.count):
        rng = random.Random(seed)
        shapes = plant(rng, grid_of(args.anydoku, seed))
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write(layout_toml(f"Thermo, arrow and kropki {seed}", shapes))
            name = f.name
        try:
            out = subprocess.run(
                [args.anydoku, "generate", "-g", name, "--seed", str(seed), "--format", "json"],
                check=True, capture_output=True, text=True,
            )
        finally:
            os.unlink(name)
        sys.stdout.write(out.stdout.splitlines()[0] + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
