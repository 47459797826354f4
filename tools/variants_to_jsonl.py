#!/usr/bin/env python3
"""Convert the shared variant-sudoku corpus into anydoku's neutral JSON model (one model per line).

Usage:
    python3 tools/variants_to_jsonl.py SHARED_VARIANTS_DIR OUT_DIR

SHARED_VARIANTS_DIR is the corpus described in its SOURCES.md (e.g. /work/shared/data/variants).
One `.jsonl` file per family is written to OUT_DIR, and per-file counts are printed on stderr.
Standard library only (Python 3.11).

Every output line is the neutral JSON model of docs/FORMATS.md:

    {"name", "symbols", "values", "cells", "shapes", "givens",
     "solution"?  {cell: symbol}, when the source publishes one,
     "expect"?    "multiple" | "none" (absent = a unique solution is expected),
     "source":    {"file": path relative to SHARED_VARIANTS_DIR, "key" or "index": record id, ...}}

Cells are board cells `r{row}c{col}` (1-based) at pos [col-1, row-1], listed row-major; only cells
that exist are listed. Shapes that are all-different over exactly the same cell set as an earlier
shape are dropped (e.g. the boxes shared by two Samurai sub-grids), so each constraint appears once.

Source formats handled (details in SOURCES.md):

* puzzlekit-dataset JSON (janko.at): `{"data": {KEY: {"problem", "solution", "source"}}}` with
  `"R C"` header lines and space-separated tokens, `-` = empty / non-existent.
  - Killer: clue grid (each cage sum written in one of its cells) + cage-id grid; boxes 2x2 (4x4),
    2 rows x 3 cols (6x6), 3x3 (9x9).
  - Jigsaw: givens grid + region-id grid; rows, columns, regions (no boxes).
  - Sudoku (sizes/): 9x9 and 16x16 (4x4 boxes, tokens 1..16 -> the symbols "1".."16").
  - Multi-grid (Samurai, Windmill, Sohei, Butterfly, Gattai-8, Shogun, Sumo, Clueless-1/2): union
    of 9x9 sub-grids at fixed origins; a cell exists iff the solution has a digit there. Clueless
    types add a tenth 9x9 sudoku made of box centres (1) or of the central boxes (2).
  - One Jigsaw record (463_5x5) has its solution grid repeated after a `[solution]` line; the
    repeat is checked to be identical and ignored.
* KrazyDad killer CSV (bnatalha scrape): `puzz_color` (K + 81 cage labels A..Za..z), `puzz_hint`
  (cage sums in label order), `solved` (81 digits).
* ConstraintSolver.jl killer JSON: a list of cages `{"result": sum, "indices": [[row, col], ...]}`
  (1-based), 9x9 with 3x3 boxes, no solution.
* SudoQ XML: a type file `<type>.xml` listing all-different `<constraint>`s of `<position x=col
  y=row>` (0-based), and puzzle files `sudoku_N.xml` with one `<fieldmap editable solution=S>` per
  cell (S = 0-based symbol index; editable="false" = given). The shapes are rebuilt from the
  known geometry (standard NxN, Samurai, X, Hyper; jigsaw regions taken from the type file's
  blocks) and checked to be exactly the type file's constraint sets.
* Andoku `.adk`: lines `CLUES|AREAS|EXTRA` (81 clues; empty AREAS = 3x3 boxes, else 81 region
  digits; EXTRA in {"", X, H, P, C}; the plain jigsaw files omit `|EXTRA`). No solutions.
* michael404/SudokuSolver Swift excerpt: `static let NAME = Puzzel<SudokuNN>("…" + "…",
  solution: "…")` or `try! SudokuBoardNN("…")`; a solution may be `other.solutionString`, which
  is resolved to that puzzle's solution. 16x16 `0-9A-F`, 25x25 `A-Y`, 36x36 `0-9A-Z`.
  `multipleSolutions` and `empty` get "expect": "multiple", `invalid` gets "expect": "none".
* SumoCue V1 (the irregular toroidal puzzle): 9 lines of `=<v>J<r>` cells (v = given, 0 = empty,
  r = region id). Its solution is the one quoted in SOURCES.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterable, Iterator

Cell = tuple[int, int]  # (row, col), 0-based

def digit_symbols(n: int) -> list[str]:
    """The symbols of an n x n numeric puzzle: the numbers 1..n as written (`10` to `16` are
    symbols of two characters)."""
    if n <= 9 or n == 16:
        return [str(v) for v in range(1, n + 1)]
    raise ValueError(f"no numeric symbol set for size {n}")


class ConversionError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# The model


class Model:
    """A puzzle being built: board cells, shapes, givens and (optionally) the solution."""

    def __init__(self, name: str, symbols: str | list[str], source: dict):
        self.name = name
        self.symbols = list(symbols)
        self.values = list(range(1, len(self.symbols) + 1))
        self.source = source
        self.cells: set[Cell] = set()
        self.shapes: list[dict] = []
        self._unique_sets: set[frozenset[Cell]] = set()
        self.givens: dict[Cell, str] = {}
        self.solution: dict[Cell, str] | None = None
        self.expect: str | None = None

    def fail(self, msg: str) -> None:
        raise ConversionError(f"{self.name}: {msg}")

    def add_cells(self, cells: Iterable[Cell]) -> None:
        self.cells.update(cells)

    def add_shape(self, name: str, cells: Iterable[Cell], rule: str = "unique",
                  total: int | None = None) -> None:
        """Add a shape; an all-different shape over an already-covered cell set is skipped."""
        cells = list(cells)
        if len(set(cells)) != len(cells):
            self.fail(f"shape {name} repeats a cell")
        missing = [c for c in cells if c not in self.cells]
        if missing:
            self.fail(f"shape {name} uses non-existent cells {[cell_name(c) for c in missing]}")
        if rule == "unique":
            if len(cells) > len(self.symbols):
                self.fail(f"shape {name} has more cells than symbols")
            key = frozenset(cells)
            if key in self._unique_sets:
                return
            self._unique_sets.add(key)
            self.shapes.append({"name": name, "rule": "unique", "cells": cells})
        elif rule == "sum":
            self.shapes.append({"name": name, "rule": "sum", "cells": cells, "sum": total,
                                "unique": True})
        else:
            raise ValueError(rule)

    def unique_sets(self) -> set[frozenset[Cell]]:
        return set(self._unique_sets)

    def set_given(self, cell: Cell, symbol: str) -> None:
        if cell not in self.cells:
            self.fail(f"given at non-existent cell {cell_name(cell)}")
        if symbol not in self.symbols:
            self.fail(f"given {symbol!r} not in the symbol set")
        self.givens[cell] = symbol

    def set_solution(self, solution: dict[Cell, str]) -> None:
        if set(solution) != self.cells:
            self.fail("solution does not cover exactly the board cells")
        if any(s not in self.symbols for s in solution.values()):
            self.fail("solution uses a symbol outside the symbol set")
        self.solution = solution

    def to_json(self) -> dict:
        """The neutral JSON model, after a consistency check of givens against the solution."""
        if self.solution is not None:
            bad = [c for c, s in self.givens.items() if self.solution[c] != s]
            if bad:
                self.fail(f"givens disagree with the solution at {[cell_name(c) for c in bad]}")
        order = sorted(self.cells)
        obj: dict = {
            "name": self.name,
            "symbols": self.symbols,
            "values": self.values,
            "cells": [{"name": cell_name(c), "pos": [c[1], c[0]]} for c in order],
            "shapes": [dict(s, cells=[cell_name(c) for c in s["cells"]]) for s in self.shapes],
            "givens": {cell_name(c): self.givens[c] for c in order if c in self.givens},
        }
        if self.solution is not None:
            obj["solution"] = {cell_name(c): self.solution[c] for c in order}
        if self.expect is not None:
            obj["expect"] = self.expect
        obj["source"] = self.source
        return obj


def cell_name(c: Cell) -> str:
    return f"r{c[0] + 1}c{c[1] + 1}"


# ---------------------------------------------------------------------------------------------
# Geometry helpers (all coordinates 0-based)


def square(origin: Cell, size: int) -> list[Cell]:
    r0, c0 = origin
    return [(r0 + i, c0 + j) for i in range(size) for j in range(size)]


def add_grid(m: Model, origin: Cell, size: int, box: tuple[int, int] | None,
             suffix: str = "") -> None:
    """Cells, rows, columns and (box height x width) boxes of a square grid at `origin`."""
    r0, c0 = origin
    m.add_cells(square(origin, size))
    for i in range(size):
        m.add_shape(f"Row {i + 1}{suffix}", [(r0 + i, c0 + j) for j in range(size)])
    for j in range(size):
        m.add_shape(f"Column {j + 1}{suffix}", [(r0 + i, c0 + j) for i in range(size)])
    if box:
        bh, bw = box
        if size % bh or size % bw or bh * bw != size:
            m.fail(f"box {bh}x{bw} does not tile a {size}x{size} grid")
        k = 0
        for br in range(0, size, bh):
            for bc in range(0, size, bw):
                k += 1
                m.add_shape(f"Box {k}{suffix}",
                            [(r0 + br + u, c0 + bc + v) for u in range(bh) for v in range(bw)])


def add_regions(m: Model, region_of: dict[Cell, object], prefix: str = "Region") -> None:
    """One all-different shape per region label, numbered in first-appearance (row-major) order."""
    groups: dict[object, list[Cell]] = {}
    for c in sorted(region_of):
        groups.setdefault(region_of[c], []).append(c)
    for k, cells in enumerate(groups.values(), 1):
        m.add_shape(f"{prefix} {k}", cells)


def add_diagonals(m: Model, n: int, main: bool = True, anti: bool = True) -> None:
    if main:
        m.add_shape("Diagonal 1", [(i, i) for i in range(n)])
    if anti:
        m.add_shape("Diagonal 2", [(i, n - 1 - i) for i in range(n)])


def add_windows(m: Model, corners: list[Cell]) -> None:
    for k, (r, c) in enumerate(corners, 1):
        m.add_shape(f"Window {k}", [(r + u, c + v) for u in range(3) for v in range(3)])


HYPER_WINDOWS = [(1, 1), (1, 5), (5, 1), (5, 5)]


def add_cages(m: Model, cages: list[tuple[list[Cell], int]]) -> None:
    for k, (cells, total) in enumerate(cages, 1):
        m.add_shape(f"Cage {k}", cells, rule="sum", total=total)


def add_killer_cages_from_ids(m: Model, cage_of: dict[Cell, object],
                              sum_at: dict[Cell, int]) -> None:
    """Cages from a cage-id map (numbered in first-appearance order) with one sum clue per cage."""
    groups: dict[object, list[Cell]] = {}
    for c in sorted(cage_of):
        groups.setdefault(cage_of[c], []).append(c)
    cages = []
    for cid, cells in groups.items():
        sums = [sum_at[c] for c in cells if c in sum_at]
        if len(sums) != 1:
            m.fail(f"cage {cid} has {len(sums)} sum clues")
        cages.append((cells, sums[0]))
    if len(cages) != len(sum_at):
        m.fail("a sum clue lies outside every cage")
    add_cages(m, cages)


# ---------------------------------------------------------------------------------------------
# puzzlekit-dataset (janko.at) JSON


PK_ORIGINS: dict[str, list[Cell]] = {
    "Samurai": [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)],
    "Windmill": [(0, 3), (3, 12), (6, 6), (9, 0), (12, 9)],
    "Sohei": [(0, 6), (6, 0), (6, 12), (12, 6)],
    "Butterfly": [(0, 0), (0, 3), (3, 0), (3, 3)],
    "Gattai8": [(0, 0), (0, 12), (0, 24), (6, 6), (6, 18), (12, 0), (12, 12), (12, 24)],
    "Shogun": [(0, 0), (0, 12), (0, 24), (0, 36), (6, 6), (6, 18), (6, 30), (12, 0), (12, 12),
               (12, 24), (12, 36)],
    "Sumo": [(0, 0), (0, 12), (0, 24), (6, 6), (6, 18), (12, 0), (12, 12), (12, 24), (18, 6),
             (18, 18), (24, 0), (24, 12), (24, 24)],
    "Clueless1": [(9 * a, 9 * b) for a in range(3) for b in range(3)],
    "Clueless2": [(9 * a, 9 * b) for a in range(3) for b in range(3)],
}


def pk_grids(text: str, ngrids: int) -> tuple[int, int, list[list[list[str]]], list[str]]:
    """Split a puzzlekit problem/solution text into (R, C, grids of tokens, leftover lines)."""
    lines = text.strip("\n").split("\n")
    rows, cols = map(int, lines[0].split())
    body = lines[1:]
    if len(body) < ngrids * rows:
        raise ConversionError(f"expected {ngrids} grids of {rows} lines")
    grids = []
    for g in range(ngrids):
        grid = [line.split() for line in body[g * rows:(g + 1) * rows]]
        if any(len(r) != cols for r in grid):
            raise ConversionError(f"a line of grid {g + 1} does not have {cols} tokens")
        grids.append(grid)
    return rows, cols, grids, body[ngrids * rows:]


def pk_tokens(grid: list[list[str]]) -> Iterator[tuple[Cell, str]]:
    for r, row in enumerate(grid):
        for c, tok in enumerate(row):
            yield (r, c), tok


def pk_symbol(m: Model, tok: str) -> str:
    v = int(tok)
    if not 1 <= v <= len(m.symbols):
        m.fail(f"token {tok} out of range")
    return m.symbols[v - 1]


def pk_solution(m: Model, text: str) -> dict[Cell, str]:
    """The solution grid: {cell: symbol} for every cell holding a digit."""
    _, _, (grid,), rest = pk_grids(text, 1)
    if rest:
        # 463_5x5 repeats its grid after a "[solution]" line; accept only an identical repeat.
        lines = text.strip("\n").split("\n")
        if rest[0].strip() != "[solution]" or rest[1:] != lines[1:1 + len(grid)]:
            m.fail("unexpected trailing lines in the solution")
    return {c: pk_symbol(m, t) for c, t in pk_tokens(grid) if t != "-"}


def pk_givens(m: Model, grid: list[list[str]]) -> None:
    for c, t in pk_tokens(grid):
        if t != "-":
            m.set_given(c, pk_symbol(m, t))


def pk_records(root: Path, rel: str) -> Iterator[tuple[str, str, dict, dict]]:
    """(type name, key, record, source) for every record of a puzzlekit file."""
    data = json.loads((root / rel).read_text(encoding="utf-8"))
    tname = data["name"].removesuffix("Sudoku") or data["name"]
    for key, rec in data["data"].items():
        source = {"file": rel, "key": key}
        if rec.get("source"):
            source["url"] = rec["source"]
        yield tname, key, rec, source


def pk_multigrid(root: Path, rel: str) -> Iterator[Model]:
    for tname, key, rec, source in pk_records(root, rel):
        m = Model(f"puzzlekit {tname} {key}", "123456789", source)
        origins = PK_ORIGINS[tname]
        several = len(origins) > 1
        for g, origin in enumerate(origins, 1):
            add_grid(m, origin, 9, (3, 3), f" of grid {g}" if several else "")
        if tname == "Clueless1":
            add_clueless1_tenth(m)
        elif tname == "Clueless2":
            add_clueless2_tenth(m)
        rows, cols, (grid,), _ = pk_grids(rec["problem"], 1)
        solution = pk_solution(m, rec["solution"])
        if set(solution) != m.cells:
            m.fail("the solution's digit cells differ from the union of the sub-grids")
        if any(r >= rows or c >= cols for r, c in m.cells):
            m.fail("sub-grids exceed the declared size")
        pk_givens(m, grid)
        m.set_solution(solution)
        yield m


def add_clueless1_tenth(m: Model) -> None:
    """Clueless-1: the 10th sudoku is the centre cell of every 3x3 box."""
    sfx = " of grid 10"
    for p in range(9):
        m.add_shape(f"Row {p + 1}{sfx}", [(1 + 3 * p, 1 + 3 * q) for q in range(9)])
    for q in range(9):
        m.add_shape(f"Column {q + 1}{sfx}", [(1 + 3 * p, 1 + 3 * q) for p in range(9)])
    k = 0
    for r in (1, 10, 19):
        for c in (1, 10, 19):
            k += 1
            m.add_shape(f"Box {k}{sfx}", [(r + 3 * u, c + 3 * v) for u in range(3) for v in range(3)])


def add_clueless2_tenth(m: Model) -> None:
    """Clueless-2: the 10th sudoku is the central 3x3 box of each of the nine grids."""
    sfx = " of grid 10"
    idx = [3, 4, 5, 12, 13, 14, 21, 22, 23]
    for p in range(9):
        m.add_shape(f"Row {p + 1}{sfx}", [(idx[p], idx[q]) for q in range(9)])
    for q in range(9):
        m.add_shape(f"Column {q + 1}{sfx}", [(idx[p], idx[q]) for p in range(9)])
    k = 0
    for a in range(3):
        for b in range(3):
            k += 1  # identical to "Box 5" of each grid, so these are dropped as duplicates
            m.add_shape(f"Box {k}{sfx}",
                        [(idx[3 * a + u], idx[3 * b + v]) for u in range(3) for v in range(3)])


def pk_full_square(m: Model, rows: int, cols: int, solution_text: str) -> None:
    if rows != cols or rows != len(m.symbols):
        m.fail(f"unexpected size {rows}x{cols}")
    solution = pk_solution(m, solution_text)
    if len(solution) != rows * cols:
        m.fail("the solution has empty cells")
    m.set_solution(solution)


def pk_jigsaw(root: Path, rel: str) -> Iterator[Model]:
    for tname, key, rec, source in pk_records(root, rel):
        rows, cols, (givens, regions), _ = pk_grids(rec["problem"], 2)
        m = Model(f"puzzlekit {tname} {key}", digit_symbols(rows), source)
        add_grid(m, (0, 0), rows, None)
        add_regions(m, dict(pk_tokens(regions)))
        pk_givens(m, givens)
        pk_full_square(m, rows, cols, rec["solution"])
        if key in NON_UNIQUE.get(rel, ()):
            m.expect = "multiple"
        yield m


KILLER_BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}

# Published puzzles that are NOT unique as the data gives them: anydoku and an independent
# backtracking solver both find two solutions; tools/prove_multiple.py re-derives two distinct
# solutions, checks each against the model independently, and prints them (the proof).
NON_UNIQUE = {
    "jigsaw/puzzlekit_JigsawSudoku_dataset.json": {
        "651_6x6", "652_6x6", "654_6x6", "655_6x6", "662_6x6", "663_6x6",
        "664_6x6", "665_6x6", "671_6x6", "672_6x6", "674_6x6", "675_6x6",
    },
    "killer/puzzlekit_KillerSudoku_dataset.json": {
        "197_9x9", "198_9x9", "249_9x9", "257_9x9", "716_9x9", "717_9x9",
        "719_9x9", "720_9x9", "727_9x9", "728_9x9",
    },
}


def pk_killer(root: Path, rel: str) -> Iterator[Model]:
    for tname, key, rec, source in pk_records(root, rel):
        rows, cols, (clues, ids), _ = pk_grids(rec["problem"], 2)
        m = Model(f"puzzlekit {tname} {key}", digit_symbols(rows), source)
        add_grid(m, (0, 0), rows, KILLER_BOXES[rows])
        sum_at = {c: int(t) for c, t in pk_tokens(clues) if t != "-"}
        add_killer_cages_from_ids(m, dict(pk_tokens(ids)), sum_at)
        pk_full_square(m, rows, cols, rec["solution"])
        if key in NON_UNIQUE.get(rel, ()):
            m.expect = "multiple"
        yield m


def pk_sizes(root: Path, rel: str) -> Iterator[Model]:
    for tname, key, rec, source in pk_records(root, rel):
        rows, cols, (givens,), _ = pk_grids(rec["problem"], 1)
        m = Model(f"puzzlekit {tname} {key}", digit_symbols(rows), source)
        b = {9: 3, 16: 4}[rows]
        add_grid(m, (0, 0), rows, (b, b))
        pk_givens(m, givens)
        pk_full_square(m, rows, cols, rec["solution"])
        yield m


# ---------------------------------------------------------------------------------------------
# KrazyDad killer CSV and ConstraintSolver.jl killer JSON

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def krazydad(root: Path, rel: str) -> Iterator[Model]:
    with open(root / rel, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            index = row[""]
            m = Model(f"krazydad {row['ptitle']}", "123456789",
                      {"file": rel, "index": int(index), "ptitle": row["ptitle"]})
            add_grid(m, (0, 0), 9, (3, 3))
            color = row["puzz_color"]
            if len(color) != 82 or color[0] != "K":
                m.fail("bad puzz_color")
            sums = [int(s) for s in row["puzz_hint"].split(",")]
            groups: dict[str, list[Cell]] = {}
            for i, label in enumerate(color[1:]):
                groups.setdefault(label, []).append(divmod(i, 9))
            if sorted(groups) != sorted(LABELS[:len(sums)]):
                m.fail("cage labels do not match the number of sums")
            add_cages(m, [(groups[label], sums[LABELS.index(label)]) for label in LABELS[:len(sums)]])
            sol = row["solved"]
            if len(sol) != 81 or not sol.isdigit() or "0" in sol:
                m.fail("bad solution")
            m.set_solution({divmod(i, 9): ch for i, ch in enumerate(sol)})
            yield m


def csjl_killer(root: Path, rel: str) -> Iterator[Model]:
    cages_json = json.loads((root / rel).read_text(encoding="utf-8"))
    stem = Path(rel).stem.removeprefix("constraintsolverjl_")
    m = Model(f"ConstraintSolver.jl {stem}", "123456789", {"file": rel})
    add_grid(m, (0, 0), 9, (3, 3))
    cages = [([(r - 1, c - 1) for r, c in cage["indices"]], int(cage["result"]))
             for cage in cages_json]
    covered = [c for cells, _ in cages for c in cells]
    if sorted(covered) != sorted(m.cells) or sum(t for _, t in cages) != 405:
        m.fail("cages do not partition the grid with total 405")
    add_cages(m, cages)
    yield m


# ---------------------------------------------------------------------------------------------
# SudoQ XML


LEVELS = ["easy", "medium", "difficult", "infernal"]


def xml_positions(elem: ET.Element) -> list[Cell]:
    return [(int(p.get("y")), int(p.get("x"))) for p in elem.findall("position")]


def sudoq_family(root: Path, folder: str, label: str, build) -> Iterator[Model]:
    """All puzzles of one SudoQ type folder.

    `build(model, constraints)` adds cells and shapes from the known geometry; the resulting
    all-different sets must equal the type file's constraint sets exactly.
    """
    tdir = root / folder
    (tfile,) = [p for p in tdir.glob("*.xml")]
    troot = ET.parse(tfile).getroot()
    typename = troot.get("typename")
    n = int(troot.get("numberOfSymbols"))
    constraints = []
    for con in troot.findall("constraint"):
        if not con.get("behavior", "").endswith("UniqueConstraintBehavior"):
            raise ConversionError(f"{tfile}: unsupported constraint {con.get('behavior')}")
        constraints.append((con.get("name"), int(con.get("type")), xml_positions(con)))
    type_sets = {frozenset(cells) for _, _, cells in constraints}
    type_cells = {c for _, _, cells in constraints for c in cells}
    symbols = digit_symbols(n)
    for level in LEVELS:
        files = sorted((tdir / level).glob("sudoku_*.xml"), key=lambda p: int(p.stem.split("_")[1]))
        for pf in files:
            rel = pf.relative_to(root).as_posix()
            m = Model(f"sudoq {label} {level} {pf.stem.split('_')[1]}", symbols,
                      {"file": rel, "type_file": tfile.relative_to(root).as_posix()})
            build(m, constraints)
            if m.cells != type_cells or m.unique_sets() != type_sets:
                m.fail("the rebuilt geometry differs from the type file's constraints")
            proot = ET.parse(pf).getroot()
            if proot.get("type") != typename:
                m.fail(f"puzzle type {proot.get('type')} != type file {typename}")
            solution: dict[Cell, str] = {}
            for fm in proot.findall("fieldmap"):
                (c,) = xml_positions(fm)
                if c in solution:
                    m.fail(f"two fieldmaps for {cell_name(c)}")
                s = int(fm.get("solution"))
                if not 0 <= s < n:
                    m.fail(f"solution index {s} out of range")
                solution[c] = symbols[s]
                if fm.get("editable") == "false":
                    m.set_given(c, symbols[s])
            m.set_solution(solution)
            yield m


def sudoq_standard(box: tuple[int, int]):
    def build(m: Model, constraints) -> None:
        add_grid(m, (0, 0), box[0] * box[1], box)
    return build


def sudoq_samurai(m: Model, constraints) -> None:
    for g, origin in enumerate(PK_ORIGINS["Samurai"], 1):
        add_grid(m, origin, 9, (3, 3), f" of grid {g}")


def sudoq_x(m: Model, constraints) -> None:
    add_grid(m, (0, 0), 9, (3, 3))
    add_diagonals(m, 9)


def sudoq_hyper(m: Model, constraints) -> None:
    add_grid(m, (0, 0), 9, (3, 3))
    add_windows(m, HYPER_WINDOWS)


def sudoq_jigsaw(m: Model, constraints) -> None:
    """Rows and columns, plus the type file's irregular blocks (type 1) as regions."""
    add_grid(m, (0, 0), 9, None)
    region_of = {}
    for name, ctype, cells in constraints:
        if ctype == 1:
            for c in cells:
                region_of[c] = name
    add_regions(m, region_of)


# ---------------------------------------------------------------------------------------------
# Andoku .adk


def andoku_lines(path: Path) -> Iterator[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            yield line


def andoku(root: Path, rels: list[str]) -> Iterator[Model]:
    for rel in rels:
        stem = Path(rel).stem.removeprefix("andoku_")
        for i, line in enumerate(andoku_lines(root / rel)):
            m = Model(f"andoku {stem} #{i + 1}", "123456789", {"file": rel, "index": i})
            fields = line.split("|")
            if len(fields) not in (2, 3):
                m.fail(f"expected CLUES|AREAS|EXTRA, got {len(fields)} fields")
            clues, areas, extra = (fields + [""])[:3]
            if len(clues) != 81:
                m.fail("clues are not 81 chars")
            if areas:
                if len(areas) != 81:
                    m.fail("areas are not 81 chars")
                add_grid(m, (0, 0), 9, None)
                add_regions(m, {divmod(k, 9): a for k, a in enumerate(areas)})
            else:
                add_grid(m, (0, 0), 9, (3, 3))
            if extra == "X":
                add_diagonals(m, 9)
            elif extra == "H":
                add_windows(m, HYPER_WINDOWS)
            elif extra == "P":
                add_windows(m, [(1, 1), (5, 5)])
                m.add_shape("Anti-diagonal", [(k, 8 - k) for k in range(9)])
            elif extra == "C":
                for r in range(3):
                    for c in range(3):
                        m.add_shape(f"Disjoint group {3 * r + c + 1}",
                                    [(r + 3 * a, c + 3 * b) for a in range(3) for b in range(3)])
            elif extra:
                m.fail(f"unknown extra region code {extra!r}")
            for k, ch in enumerate(clues):
                if ch != ".":
                    m.set_given(divmod(k, 9), ch)
            yield m


# ---------------------------------------------------------------------------------------------
# michael404/SudokuSolver Swift test data

SWIFT_SYMBOLS = {
    16: "0123456789ABCDEF",
    25: "ABCDEFGHIJKLMNOPQRSTUVWXY",
    36: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
}
SWIFT_EXPECT = {"multipleSolutions": "multiple", "invalid": "none", "empty": "multiple"}


def michael404(root: Path, rel: str) -> Iterator[Model]:
    text = (root / rel).read_text(encoding="utf-8")
    # Drop comment lines so that only declarations remain.
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    for em in re.finditer(r"enum TestData(\d+) \{(.*?)\n\}", code, re.S):
        n = int(em.group(1))
        symbols = SWIFT_SYMBOLS[n]
        box = {16: 4, 25: 5, 36: 6}[n]
        decls = re.split(r"\bstatic let\s+", em.group(2))[1:]
        puzzles: dict[str, tuple[str, str | None]] = {}
        solutions: dict[str, str | None] = {}
        for decl in decls:
            pname, body = re.match(r"(\w+)\s*=\s*(.*)", decl, re.S).groups()
            rep = re.search(r'String\(repeating:\s*"(.)",\s*count:\s*(\d+)\)', body)
            if rep:
                puzzles[pname] = (rep.group(1) * int(rep.group(2)), None)
                continue
            head, _, tail = body.partition("solution:")
            grid = "".join(re.findall(r'"([^"]*)"', head))
            ref = None
            if tail:
                lits = re.findall(r'"([^"]*)"', tail)
                if lits:
                    solutions[pname] = "".join(lits)
                else:
                    ref = re.match(r"\s*(\w+)\.solutionString", tail).group(1)
            puzzles[pname] = (grid, ref)
        for pname, (grid, ref) in puzzles.items():
            sol = solutions.get(pname) or (solutions[ref] if ref else None)
            m = Model(f"michael404 {n}x{n} {pname}", symbols,
                      {"file": rel, "key": f"TestData{n}.{pname}"})
            if ref:
                m.source["solution_from"] = f"TestData{n}.{ref}"
            add_grid(m, (0, 0), n, (box, box))
            if len(grid) != n * n:
                m.fail(f"grid has {len(grid)} chars, expected {n * n}")
            for k, ch in enumerate(grid):
                if ch != ".":
                    m.set_given(divmod(k, n), ch)
            if sol is not None:
                if len(sol) != n * n:
                    m.fail(f"solution has {len(sol)} chars")
                m.set_solution({divmod(k, n): ch for k, ch in enumerate(sol)})
            m.expect = SWIFT_EXPECT.get(pname)
            yield m


# ---------------------------------------------------------------------------------------------
# SumoCue V1 (irregular toroidal)

# Not in the file: the unique solution as quoted (verified) in SOURCES.md section 8.
TOROIDAL_SOLUTION = ("943517628 614825793 892731465 278649531 369458172 "
                     "751263984 485376219 127984356 536192847").split()


def toroidal(root: Path, rel: str) -> Iterator[Model]:
    lines = (root / rel).read_text(encoding="utf-8").split()
    if lines[0] != "SumoCueV1":
        raise ConversionError(f"{rel}: not SumoCueV1")
    m = Model("enjoysudoku Irregular Toroidal", "123456789", {"file": rel})
    cells = [re.findall(r"=(\d+)J(\d+)", line) for line in lines[1:]]
    if len(cells) != 9 or any(len(row) != 9 for row in cells):
        m.fail("expected 9 lines of 9 cells")
    add_grid(m, (0, 0), 9, None)
    add_regions(m, {(r, c): int(reg) for r, row in enumerate(cells) for c, (_, reg) in enumerate(row)})
    for r, row in enumerate(cells):
        for c, (v, _) in enumerate(row):
            if v != "0":
                m.set_given((r, c), v)
    m.set_solution({(r, c): ch for r, row in enumerate(TOROIDAL_SOLUTION) for c, ch in enumerate(row)})
    yield m


# ---------------------------------------------------------------------------------------------
# Families


def adk(root: Path, pattern: str) -> list[str]:
    """Andoku files matching a glob, ordered by name (type, then level)."""
    return sorted(p.relative_to(root).as_posix() for p in root.glob(pattern))


def families(root: Path) -> dict[str, Iterable[Model]]:
    """Output file name -> lazily generated models."""
    def chain(*gens):
        for g in gens:
            yield from g

    gattai = {
        "gattai_butterfly": "Butterfly", "gattai_sohei": "Sohei", "gattai_windmill": "Windmill",
        "gattai_gattai8": "Gattai8", "gattai_shogun": "Shogun", "gattai_sumo": "Sumo",
        "gattai_clueless1": "Clueless1", "gattai_clueless2": "Clueless2",
    }
    fams: dict[str, Iterable[Model]] = {
        "samurai_puzzlekit": pk_multigrid(root, "samurai/puzzlekit_SamuraiSudoku_dataset.json"),
        "samurai_sudoq": sudoq_family(root, "samurai/sudoq_samurai", "Samurai", sudoq_samurai),
    }
    for fam, tname in gattai.items():
        fams[fam] = pk_multigrid(root, f"gattai/puzzlekit_{tname}Sudoku_dataset.json")
    fams.update({
        "jigsaw_puzzlekit": pk_jigsaw(root, "jigsaw/puzzlekit_JigsawSudoku_dataset.json"),
        "jigsaw_sudoq": chain(
            sudoq_family(root, "jigsaw/sudoq_squigglya", "Squiggly-A", sudoq_jigsaw),
            sudoq_family(root, "jigsaw/sudoq_squigglyb", "Squiggly-B", sudoq_jigsaw),
            sudoq_family(root, "jigsaw/sudoq_stairstep", "Stairstep", sudoq_jigsaw)),
        "jigsaw_andoku": andoku(root, adk(root, "jigsaw/andoku_squiggly_n_*.adk")),
        "x_sudoq": sudoq_family(root, "x_diagonal/sudoq_Xsudoku", "X", sudoq_x),
        "x_andoku": andoku(root, adk(root, "x_diagonal/andoku_standard_x_*.adk")
                           + adk(root, "x_diagonal/andoku_squiggly_x_*.adk")),
        "windoku_sudoq": sudoq_family(root, "windoku/sudoq_HyperSudoku", "Hyper", sudoq_hyper),
        "windoku_andoku": andoku(root, adk(root, "windoku/andoku_standard_h_*.adk")
                                 + adk(root, "windoku/andoku_squiggly_h_*.adk")),
        "extra_andoku": andoku(root, adk(root, "extra_regions/andoku_standard_p_*.adk")
                               + adk(root, "extra_regions/andoku_squiggly_p_*.adk")
                               + adk(root, "extra_regions/andoku_standard_c_*.adk")
                               + adk(root, "extra_regions/andoku_squiggly_c_*.adk")),
        "sizes_puzzlekit": pk_sizes(root, "sizes/puzzlekit_Sudoku_dataset.json"),
        "sizes_sudoq": chain(
            sudoq_family(root, "sizes/sudoq_standard4x4", "4x4", sudoq_standard((2, 2))),
            sudoq_family(root, "sizes/sudoq_standard6x6", "6x6", sudoq_standard((2, 3))),
            sudoq_family(root, "sizes/sudoq_standard16x16", "16x16", sudoq_standard((4, 4)))),
        "symbols_michael404": michael404(root, "symbols/michael404_TestData_16_25_36_excerpt.swift.txt"),
        "toroidal": toroidal(root, "toroidal/enjoysudoku_irregular_toroidal_sumocue.txt"),
        "killer_puzzlekit": pk_killer(root, "killer/puzzlekit_KillerSudoku_dataset.json"),
        "killer_krazydad": krazydad(root, "killer/krazydad_killer_bnatalha_dataset_killer_sudoku.csv"),
        "killer_csjl": chain(
            csjl_killer(root, "killer/constraintsolverjl_killer_wikipedia.json"),
            csjl_killer(root, "killer/constraintsolverjl_killer_niallsudoku_5500.json")),
    })
    return fams


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variants_dir", type=Path, help="the shared variants corpus directory")
    ap.add_argument("out_dir", type=Path, help="where the .jsonl files are written")
    args = ap.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    total = 0
    for fam, models in families(args.variants_dir).items():
        out = args.out_dir / f"{fam}.jsonl"
        count = with_solution = 0
        with open(out, "w", encoding="utf-8") as f:
            for m in models:
                obj = m.to_json()
                f.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
                count += 1
                with_solution += "solution" in obj
        total += count
        print(f"{out.name}: {count} puzzles ({with_solution} with solution)", file=sys.stderr)
    print(f"total: {total} puzzles", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
