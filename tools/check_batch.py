#!/usr/bin/env python3
"""Independent checker for batch solver output.

Usage:
    python3 tools/check_batch.py MODEL.jsonl RESULTS.txt [--allow-multiple LINES.txt]
    python3 tools/check_batch.py --classic PUZZLES.txt RESULTS.txt [--expect multiple]
                                 [--allow-multiple LINES.txt]

RESULTS.txt has one line per puzzle, in order: either a solution string (one symbol grapheme per
cell, in the model's `cells` order; symbols separated by single spaces when some symbol of the
model has more than one grapheme, e.g. `10`) or one of the words `none`, `multiple`, `unknown`. Anything else
(e.g. `invalid: msg`) is a failure. Trailing whitespace is ignored.

Model mode (MODEL.jsonl = one neutral JSON model per line, see docs/FORMATS.md). Knowing only the
model's symbols, values, cells, shapes and givens, a solution must:
  * have one grapheme per cell, each in the symbol set;
  * keep every given;
  * repeat no symbol inside a "unique" shape;
  * make every "sum" shape add up (by `values`) to its `sum`, with distinct symbols if `unique`;
  * keep the rule of every shape of the other kinds (thermometer, arrow, difference, ratio, xv,
    inequality, whispers, renban, palindrome, clone, parity, allowed, little-killer, sandwich,
    skyscraper, quadruple, indexer, between) and pattern (anti-knight, anti-king,
    non-consecutive, non-ratio, non-xv), as docs/FORMATS.md defines them;
  * equal the model's published `solution`, when there is one.
The model's optional `expect` ("unique" by default, "multiple", "none") decides which answer is
right: a solution for "unique", the word `multiple` for "multiple", `none` for "none". Lines listed
in --allow-multiple (a file of 1-based line numbers, whitespace/comma separated, `#` comments)
also accept `multiple`. `unknown` (the solver gave up) is always counted as a failure.

Classic mode (--classic): PUZZLES.txt is a classic 9x9 line file (first 81 chars = puzzle, `.` or
`0` for empty; an optional second whitespace-separated field that is an 81-digit string is the
published solution). A result must be a valid 9x9 sudoku that keeps the givens (and equals the
published solution, if any). With --expect multiple, every result must be `multiple`.

Output: a one-line summary `FAMILY: N ok, M failed` (FAMILY = file name without its extension), then
the first few failures with details. Exit status 1 on any failure (or a line-count mismatch).
Standard library only.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from pathlib import Path

WORDS = ("none", "multiple", "unknown")
MAX_SHOWN = 10


def graphemes(s: str) -> list[str]:
    """Split a string into user-perceived characters (a simplified extended grapheme cluster rule:
    combining marks, variation selectors, emoji modifiers and ZWJ joins attach to the previous
    character). Exact for the ASCII/letter symbol sets used in practice."""
    out: list[str] = []
    for ch in s:
        cp = ord(ch)
        attach = bool(out) and (
            unicodedata.category(ch) in ("Mn", "Me", "Mc")
            or cp in (0x200D, 0xFE0E, 0xFE0F)
            or 0x1F3FB <= cp <= 0x1F3FF
            or 0xE0020 <= cp <= 0xE007F
            or out[-1].endswith("\u200d")
        )
        if attach:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def split_solution(m: "Model", line: str) -> list[str]:
    """The symbols of a solution line: separated by single spaces when some symbol of the model
    is longer than one grapheme, else one grapheme each (a space is then never a symbol)."""
    if any(len(graphemes(s)) != 1 for s in m.symbols):
        return line.split(" ")
    return [g if not g.isspace() else "<space>" for g in graphemes(line)]


class Model:
    """The parts of a neutral JSON model needed for checking, pre-indexed."""

    def __init__(self, obj: dict):
        self.name = obj.get("name", "?")
        self.symbols = list(obj["symbols"])
        values = obj.get("values") or list(range(1, len(self.symbols) + 1))
        self.value = dict(zip(self.symbols, values))
        self.cells = [c["name"] for c in obj["cells"]]
        index = {name: i for i, name in enumerate(self.cells)}
        self.index = index
        self.pos = [tuple(c["pos"]) for c in obj["cells"]]
        self.shapes = []
        for s in obj["shapes"]:
            idx = [index[c] for c in s["cells"]]
            rule = s.get("rule", "unique")
            if rule not in RULES:
                raise ValueError(f"unknown shape rule {rule!r}")
            self.shapes.append((s.get("name", "?"), rule, idx, s))
        lo_hi = list(self.value.values())
        self.extremes = (min(lo_hi), max(lo_hi)) if lo_hi else (0, 0)
        self.givens = [(index[c], v) for c, v in obj.get("givens", {}).items()]
        sol = obj.get("solution")
        self.solution = [sol[c] for c in self.cells] if sol else None
        self.expect = obj.get("expect", "unique")


def check_solution(m: Model, sol: list[str]) -> str | None:
    """None if `sol` (one symbol per cell) satisfies the model, else the first problem found."""
    if len(sol) != len(m.cells):
        return f"length {len(sol)}, expected {len(m.cells)} cells"
    symset = set(m.symbols)
    for i, s in enumerate(sol):
        if s not in symset:
            return f"{m.cells[i]} = {s!r} is not a symbol"
    for i, v in m.givens:
        if sol[i] != v:
            return f"given {m.cells[i]} = {v} changed to {sol[i]}"
    for name, rule, idx, shape in m.shapes:
        vals = [sol[i] for i in idx]
        if (rule in ("unique", "renban") or shape.get("unique") is True) and len(set(vals)) != len(vals):
            seen: dict[str, int] = {}
            for i in idx:
                if sol[i] in seen:
                    return f"{name}: {sol[i]} repeated at {m.cells[seen[sol[i]]]} and {m.cells[i]}"
                seen[sol[i]] = i
        err = check_rule(m, sol, rule, idx, shape)
        if err:
            return f"{name} ({rule}): {err}"
    if m.solution is not None and sol != m.solution:
        diff = [m.cells[i] for i in range(len(sol)) if sol[i] != m.solution[i]]
        return f"valid but differs from the published solution at {len(diff)} cells ({', '.join(diff[:5])})"
    return None


def check_rule(m: Model, sol: list[str], rule: str, idx: list[int], shape: dict) -> str | None:
    """None if the shape's rule holds for `sol`, else what is wrong (docs/FORMATS.md)."""
    v = [m.value[sol[i]] for i in idx]
    if rule == "unique":
        return None
    if rule in ("sum", "little-killer"):
        return None if sum(v) == shape["sum"] else f"sum {sum(v)}, expected {shape['sum']}"
    if rule == "thermometer":
        slow = shape.get("slow") is True
        ok = all(a < b or (slow and a == b) for a, b in zip(v, v[1:]))
        return None if ok else f"not rising: {v}"
    if rule == "arrow":
        k = shape.get("circle", 1)
        circle = 0
        for d in v[:k]:
            circle = circle * 10 + d
        return None if circle == sum(v[k:]) else f"circle {circle}, arrow {sum(v[k:])}"
    if rule == "difference":
        return None if abs(v[0] - v[1]) == shape.get("difference", 1) else f"{v} differ wrongly"
    if rule == "ratio":
        r = shape.get("ratio", 2)
        return None if v[0] == r * v[1] or v[1] == r * v[0] else f"{v} not in ratio {r}"
    if rule == "xv":
        return None if v[0] + v[1] == shape["sum"] else f"{v} do not add up to {shape['sum']}"
    if rule == "inequality":
        return None if v[0] < v[1] else f"{v[0]} is not less than {v[1]}"
    if rule == "whispers":
        d = shape.get("difference", 5)
        return None if all(abs(a - b) >= d for a, b in zip(v, v[1:])) else f"too close: {v}"
    if rule == "renban":
        w = sorted(v)
        return None if all(b == a + 1 for a, b in zip(w, w[1:])) else f"not a run: {v}"
    if rule == "palindrome":
        s = [sol[i] for i in idx]
        return None if s == s[::-1] else f"not a palindrome: {s}"
    if rule == "clone":
        s = [sol[i] for i in idx]
        h = len(s) // 2
        return None if len(s) % 2 == 0 and s[:h] == s[h:] else f"halves differ: {s}"
    if rule == "parity":
        odd = shape["parity"] == "odd"
        return None if all((x % 2 == 1) == odd for x in v) else f"wrong parity: {v}"
    if rule == "allowed":
        allowed = shape["symbols"]
        allowed = set(graphemes(allowed) if isinstance(allowed, str) else allowed)
        return None if all(sol[i] in allowed for i in idx) else "a symbol not allowed"
    if rule == "sandwich":
        lo, hi = m.extremes
        if v.count(lo) != 1 or v.count(hi) != 1:
            return "the line does not hold the lowest and highest values once each"
        a, b = sorted((v.index(lo), v.index(hi)))
        got = sum(v[a + 1:b])
        return None if got == shape["sum"] else f"sandwich {got}, expected {shape['sum']}"
    if rule == "skyscraper":
        seen, count = None, 0
        for x in v:
            if seen is None or x > seen:
                count += 1
                seen = x
        return None if count == shape["count"] else f"{count} visible, expected {shape['count']}"
    if rule == "quadruple":
        left = list(v)
        for want in shape["values"]:
            if want not in left:
                return f"{want} missing"
            left.remove(want)
        return None
    if rule == "indexer":
        at = shape.get("index", 1)
        i = v[at - 1]
        ok = 1 <= i <= len(v) and v[i - 1] == at
        return None if ok else f"index {i} does not point at {at}"
    if rule == "between":
        lo, hi = sorted((v[0], v[-1]))
        return None if all(lo < x < hi for x in v[1:-1]) else f"not between: {v}"
    return check_pattern(m, sol, rule, idx)


def check_pattern(m: Model, sol: list[str], rule: str, idx: list[int]) -> str | None:
    """The patterns: pairs of cells a step apart, from the cells' positions."""
    def marked(kind, key, want, default):
        out = set()
        for _, r, cells, shape in m.shapes:
            if r == kind and len(cells) == 2 and shape.get(key, default) == want:
                out.add(frozenset(cells))
        return out
    white = marked("difference", "difference", 1, 1)
    black = marked("ratio", "ratio", 2, 2)
    x_marks, v_marks = marked("xv", "sum", 10, None), marked("xv", "sum", 5, None)
    for n, a in enumerate(idx):
        for b in idx[n + 1:]:
            dx = round(abs(m.pos[a][0] - m.pos[b][0]))
            dy = round(abs(m.pos[a][1] - m.pos[b][1]))
            va, vb = m.value[sol[a]], m.value[sol[b]]
            side = dx + dy == 1
            pair = frozenset((a, b))
            if rule == "anti-knight":
                bad = (dx, dy) in ((1, 2), (2, 1)) and sol[a] == sol[b]
            elif rule == "anti-king":
                bad = dx <= 1 and dy <= 1 and sol[a] == sol[b]
            elif rule == "non-consecutive":
                bad = side and abs(va - vb) == 1 and pair not in white
            elif rule == "non-ratio":
                bad = side and (va == 2 * vb or vb == 2 * va) and pair not in black
            elif rule == "non-xv":
                bad = side and ((va + vb == 10 and pair not in x_marks)
                                or (va + vb == 5 and pair not in v_marks))
            else:
                return f"unknown rule {rule}"
            if bad:
                return f"broken by {m.cells[a]} and {m.cells[b]}"
    return None


RULES = ("unique", "sum", "little-killer", "thermometer", "arrow", "difference", "ratio", "xv",
         "inequality", "whispers", "renban", "palindrome", "clone", "parity", "allowed",
         "sandwich", "skyscraper", "quadruple", "indexer", "between", "anti-knight", "anti-king",
         "non-consecutive", "non-ratio", "non-xv")


def judge(result: str, expect: str, allow_multiple: bool, check) -> str | None:
    """Common answer logic: None if the result line is right, else an error message."""
    if result in WORDS:
        if result == "unknown":
            return "unknown (no answer)"
        if result == "multiple" and (expect == "multiple" or allow_multiple):
            return None
        if result == "none" and expect == "none":
            return None
        return f"answered {result}, expected {expect}"
    if expect in ("multiple", "none"):
        return f"answered a solution, expected {expect}"
    return check(result)


def read_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def read_line_numbers(path: Path | None) -> set[int]:
    if path is None:
        return set()
    nums = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        for tok in line.split("#", 1)[0].replace(",", " ").split():
            nums.add(int(tok))
    return nums


def check_models(model_path: Path, results: list[str],
                 allowed: set[int]) -> tuple[int, list[tuple[int, str, str]]]:
    """(number of puzzles, failures as (line number, puzzle name, message))."""
    failures = []
    with open(model_path, encoding="utf-8") as f:
        model_lines = [line for line in f if line.strip()]
    for n, line in enumerate(model_lines, 1):
        if n > len(results):
            failures.append((n, "?", "no result line"))
            continue
        m = Model(json.loads(line))
        err = judge(results[n - 1], m.expect, n in allowed,
                    lambda r: check_solution(m, split_solution(m, r)))
        if err:
            failures.append((n, m.name, err))
    for n in range(len(model_lines) + 1, len(results) + 1):
        failures.append((n, "?", "result line without a model line"))
    return len(model_lines), failures


# Classic 9x9

CLASSIC_UNITS = (
    [[9 * r + c for c in range(9)] for r in range(9)]
    + [[9 * r + c for r in range(9)] for c in range(9)]
    + [[9 * (br + u) + bc + v for u in range(3) for v in range(3)]
       for br in (0, 3, 6) for bc in (0, 3, 6)]
)
UNIT_NAMES = ([f"Row {i}" for i in range(1, 10)] + [f"Column {i}" for i in range(1, 10)]
              + [f"Box {i}" for i in range(1, 10)])


def check_classic_solution(puzzle: str, published: str | None, sol: str) -> str | None:
    if len(sol) != 81:
        return f"length {len(sol)}, expected 81"
    if any(ch not in "123456789" for ch in sol):
        return "non-digit in solution"
    for i, p in enumerate(puzzle):
        if p not in ".0" and sol[i] != p:
            return f"given r{i // 9 + 1}c{i % 9 + 1} = {p} changed to {sol[i]}"
    for name, unit in zip(UNIT_NAMES, CLASSIC_UNITS):
        if len({sol[i] for i in unit}) != 9:
            return f"{name} has a repeated digit"
    if published is not None and sol != published:
        return "valid but differs from the published solution"
    return None


def check_classic(puzzles_path: Path, results: list[str], expect: str,
                  allowed: set[int]) -> tuple[int, list[tuple[int, str, str]]]:
    """(number of puzzles, failures as (line number, puzzle, message))."""
    failures = []
    puzzle_lines = [line for line in read_lines(puzzles_path) if line.strip()]
    for n, line in enumerate(puzzle_lines, 1):
        puzzle = line[:81]
        if n > len(results):
            failures.append((n, puzzle, "no result line"))
            continue
        fields = line.split()
        published = fields[1] if len(fields) > 1 and len(fields[1]) == 81 and fields[1].isdigit() else None
        err = judge(results[n - 1], expect, n in allowed,
                    lambda r: check_classic_solution(puzzle, published, r))
        if err:
            failures.append((n, puzzle, err))
    for n in range(len(puzzle_lines) + 1, len(results) + 1):
        failures.append((n, "?", "result line without a puzzle line"))
    return len(puzzle_lines), failures


def main() -> int:
    ap = argparse.ArgumentParser(description="Check batch solver results against puzzle models.")
    ap.add_argument("puzzles", type=Path, help="MODEL.jsonl, or PUZZLES.txt with --classic")
    ap.add_argument("results", type=Path, help="RESULTS.txt, one answer per line")
    ap.add_argument("--classic", action="store_true", help="PUZZLES.txt is a classic 9x9 line file")
    ap.add_argument("--expect", choices=["unique", "multiple"], default="unique",
                    help="classic mode: what every puzzle is expected to have")
    ap.add_argument("--allow-multiple", type=Path, metavar="FILE",
                    help="file of 1-based line numbers for which `multiple` is accepted")
    args = ap.parse_args()
    if args.expect != "unique" and not args.classic:
        ap.error("--expect is for --classic mode (models carry their own `expect`)")

    results = read_lines(args.results)
    allowed = read_line_numbers(args.allow_multiple)
    if args.classic:
        count, failures = check_classic(args.puzzles, results, args.expect, allowed)
    else:
        count, failures = check_models(args.puzzles, results, allowed)
    total = max(count, len(results))
    family = args.puzzles.stem
    print(f"{family}: {total - len(failures)} ok, {len(failures)} failed")
    for n, name, err in failures[:MAX_SHOWN]:
        print(f"  line {n} ({name}): {err}")
    if len(failures) > MAX_SHOWN:
        print(f"  ... and {len(failures) - MAX_SHOWN} more")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
