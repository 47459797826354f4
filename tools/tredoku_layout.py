#!/usr/bin/env python3
"""Build a Tredoku (3-D sudoku) geometry from a list of face placements.

Usage:
    python3 tools/tredoku_layout.py EXAMPLES_FILE INDEX OUT.toml
        [--name NAME] [--puzzle OUT.json] [--no-poly] [--quiet]

EXAMPLES_FILE is a Python file with a ``lists(self, index)`` function whose
``if index == N:`` blocks assign the list literals

    self.existing_face_index_list, self.new_type_list, self.new_location_list
    self.pos_list, self.num_list          (givens, only needed for --puzzle)

(the layout of github.com/victoria-y-wright/sudoku_solver's examples.py).  The
file is parsed with ``ast`` and never executed.  Face 0 is implicit: a ``top``
face.  Entry m of the three placement lists creates face m+1, of type ``top``,
``left`` or ``right``, next to face ``existing_face_index_list[m]``, at a
location such as ``left``, ``right above`` or ``below``.

Screen geometry (y down, face side s = 3, so a cell edge is 1 unit):

    top:   dx' = (u, -v), dy' = (u, v)      u = sqrt(3)/2, v = 1/2
    left:  dx' = (u,  v), dy' = (0, 2v)
    right: dx' = (u, -v), dy' = (0, 2v)

Cell k = 3*i + j of a face (i = row along dy', j = column along dx') is drawn
at centre + (j-1)*dx' + (i-1)*dy'; its rhombus has corners at
centre + (j-1 +- 1/2)*dx' + (i-1 +- 1/2)*dy'.

Placement: every way of gluing an edge of a new face of the requested type to
an edge of the existing face (same segment, the new face on the other side of
it) is a candidate; the candidate whose centre offset points closest to the
requested direction (left/right -> x, above/below -> y) is taken.

Constraints: each face is a unique 3x3 shape ("Face N").  A row or column
strip of a face continues through a shared edge into the neighbour's strip
that crosses the same point of that edge; maximal chains of strips spanning
three faces (9 cells) are unique shapes ("Line N").  Shorter chains impose
nothing (they are reported with --verbose-chains for information).

Cells are named F{face}{row}{col} with a 1-based face number (matching the
shape "Face N"), row letter a-c and column digit 1-3: F1a1 .. F1c3 is face 0
of the source list (cell (0, 0) .. (0, 8) of pos_list).
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import sys

U = math.sqrt(3) / 2
V = 0.5
FACE_VECTORS = {
    "top": ((U, -V), (U, V)),
    "left": ((U, V), (0.0, 2 * V)),
    "right": ((U, -V), (0.0, 2 * V)),
}
ROW_LETTERS = "abc"
EPS = 1e-6


# ---------------------------------------------------------------- parsing

def read_examples(path: str) -> dict[int, dict[str, object]]:
    """Return {index: {list_name: value}} from the ``if index == N`` blocks."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), filename=path)
    examples: dict[int, dict[str, object]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        test = node.test
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1
                and isinstance(test.ops[0], ast.Eq)
                and isinstance(test.left, ast.Name) and test.left.id == "index"
                and isinstance(test.comparators[0], ast.Constant)):
            continue
        index = test.comparators[0].value
        data: dict[str, object] = {}
        for stmt in node.body:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Attribute)):
                data[stmt.targets[0].attr] = ast.literal_eval(stmt.value)
        examples[index] = data
    return examples


# ---------------------------------------------------------------- geometry

def add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def mul(k, a):
    return (k * a[0], k * a[1])


def cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def point_key(p):
    return (round(p[0], 4) + 0.0, round(p[1], 4) + 0.0)


def face_point(kind, centre, a, b):
    """centre + a*dx' + b*dy'."""
    dx, dy = FACE_VECTORS[kind]
    return add(centre, add(mul(a, dx), mul(b, dy)))


def face_corners(kind, centre):
    """The four corners in the source's vertex order; edge e joins corner e and e+1."""
    return [face_point(kind, centre, a, b)
            for a, b in ((-1.5, -1.5), (-1.5, 1.5), (1.5, 1.5), (1.5, -1.5))]


def face_edges(kind, centre):
    c = face_corners(kind, centre)
    return [(c[e], c[(e + 1) % 4]) for e in range(4)]


def same_segment(e, f):
    ka, kb = point_key(e[0]), point_key(e[1])
    kc, kd = point_key(f[0]), point_key(f[1])
    return {ka, kb} == {kc, kd}


def location_vector(location: str):
    words = location.lower().split()
    x = y = 0.0
    for w in words:
        if w == "left":
            x -= 1
        elif w == "right":
            x += 1
        elif w == "above":
            y -= 1
        elif w == "below":
            y += 1
        else:
            raise ValueError(f"unknown location word {w!r} in {location!r}")
    if x == 0 and y == 0:
        raise ValueError(f"empty location {location!r}")
    return (x, y)


def place_face(old_kind, old_centre, new_kind, location):
    """Centre of a new face of new_kind glued to an edge of the old face."""
    want = location_vector(location)
    want_len = math.hypot(*want)
    candidates = []
    for old_edge in face_edges(old_kind, old_centre):
        mid_old = mul(0.5, add(*old_edge))
        for new_edge in face_edges(new_kind, (0.0, 0.0)):
            mid_new = mul(0.5, add(*new_edge))
            centre = sub(mid_old, mid_new)
            moved = [(add(p, centre)) for p in new_edge]
            if not same_segment(old_edge, moved):
                continue
            d = sub(old_edge[1], old_edge[0])
            side_old = cross(d, sub(old_centre, old_edge[0]))
            side_new = cross(d, sub(centre, old_edge[0]))
            if side_old * side_new >= 0:  # new face would overlap the old one
                continue
            off = sub(centre, old_centre)
            score = (off[0] * want[0] + off[1] * want[1]) / (math.hypot(*off) * want_len)
            candidates.append((score, centre))
    if not candidates:
        raise ValueError(f"no way to glue a {new_kind} face to a {old_kind} face")
    candidates.sort(key=lambda t: -t[0])
    if len(candidates) > 1 and candidates[0][0] - candidates[1][0] < 1e-3:
        raise ValueError(f"ambiguous placement {location!r} of {new_kind} next to {old_kind}")
    if candidates[0][0] <= 0:
        raise ValueError(f"no {new_kind} face can go {location!r} of a {old_kind} face")
    return candidates[0][1]


def build_faces(existing, types, locations):
    if not (len(existing) == len(types) == len(locations)):
        raise ValueError("placement lists differ in length")
    faces = [("top", (0.0, 0.0))]
    for m, (old, kind, loc) in enumerate(zip(existing, types, locations)):
        if kind not in FACE_VECTORS:
            raise ValueError(f"unknown face type {kind!r}")
        if not 0 <= old < len(faces):
            raise ValueError(f"face {m + 1} attached to unknown face {old}")
        old_kind, old_centre = faces[old]
        centre = place_face(old_kind, old_centre, kind, loc)
        faces.append((kind, centre))
        # the glued edge must be shared (sanity check of the placement itself)
        if not any(same_segment(e, f) for e in face_edges(old_kind, old_centre)
                   for f in face_edges(kind, centre)):
            raise AssertionError("placement does not share an edge")
    return faces


def cell_name(face, k):
    i, j = divmod(k, 3)
    return f"F{face + 1}{ROW_LETTERS[i]}{j + 1}"


def build_cells(faces):
    cells = []  # (name, face, k, pos, poly)
    for f, (kind, centre) in enumerate(faces):
        for k in range(9):
            i, j = divmod(k, 3)
            pos = face_point(kind, centre, j - 1, i - 1)
            poly = [face_point(kind, centre, j - 1 + a, i - 1 + b)
                    for a, b in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))]
            cells.append((cell_name(f, k), f, k, pos, poly))
    seen = {}
    for name, _, _, pos, _ in cells:
        key = point_key(pos)
        if key in seen:
            raise ValueError(f"cells {seen[key]} and {name} coincide: faces overlap")
        seen[key] = name
    return cells


def face_neighbours(faces):
    pairs = set()
    for a in range(len(faces)):
        for b in range(a + 1, len(faces)):
            if any(same_segment(e, f) for e in face_edges(*faces[a]) for f in face_edges(*faces[b])):
                pairs.add((a, b))
    return pairs


def build_chains(faces):
    """Maximal chains of strips through shared edges.

    A strip is (face, 'row'|'col', index).  Its two ends are the points where
    its centre line crosses the face boundary.  Strip ends of different faces
    at the same point are joined.  Returns a list of chains, each a list of
    (face, k) cells in order, together with the number of faces it spans and
    whether it closes into a loop.
    """
    strips = []  # (face, cells in order, end points (start, finish))
    for f, (kind, centre) in enumerate(faces):
        for i in range(3):  # rows: fixed i, j = 0..2 along dx'
            ks = [3 * i + j for j in range(3)]
            ends = (face_point(kind, centre, -1.5, i - 1), face_point(kind, centre, 1.5, i - 1))
            strips.append((f, ks, ends))
        for j in range(3):  # columns: fixed j, i = 0..2 along dy'
            ks = [3 * i + j for i in range(3)]
            ends = (face_point(kind, centre, j - 1, -1.5), face_point(kind, centre, j - 1, 1.5))
            strips.append((f, ks, ends))
    at_point: dict[tuple, list] = {}
    for s, (_, _, ends) in enumerate(strips):
        for e, p in enumerate(ends):
            at_point.setdefault(point_key(p), []).append((s, e))
    link = {}
    for key, ends in at_point.items():
        if len(ends) > 2:
            raise ValueError(f"more than two faces meet along an edge at {key}")
        if len(ends) == 2:
            (s1, e1), (s2, e2) = ends
            link[(s1, e1)] = (s2, e2)
            link[(s2, e2)] = (s1, e1)
    done = set()
    chains = []
    for s0 in range(len(strips)):
        if s0 in done:
            continue
        # walk backwards from end 0 to find the start of the chain
        s, e = s0, 0
        loop = False
        while (s, e) in link:
            s, e = link[(s, e)]
            e = 1 - e  # leave the strip through its other end
            if s == s0:
                loop = True
                break
        # now (s, e): strip s, entered via end 1-e... normalise: start at strip s, walk from end e
        start_strip, start_end = (s0, 0) if loop else (s, e)
        order = []
        s, e = start_strip, start_end
        while True:
            order.append((s, e))  # enter strip s through end e
            done.add(s)
            nxt = link.get((s, 1 - e))
            if nxt is None or nxt[0] == start_strip:
                break
            s, e = nxt
        if loop is False and strips[order[-1][0]][0] < strips[order[0][0]][0]:
            # read the chain from its lower-numbered face
            order = [(s, 1 - e) for s, e in reversed(order)]
        cells = []
        for s, e in order:
            f, ks, _ = strips[s]
            cells.extend((f, k) for k in (ks if e == 0 else reversed(ks)))
        chains.append((cells, len(order), loop))
    return chains


# ---------------------------------------------------------------- output

def fmt(x):
    x = round(x, 4) + 0.0
    return f"{x:.4f}".rstrip("0").rstrip(".") if x != int(x) else f"{int(x)}.0"


def build_model(data, name, with_poly=True):
    faces = build_faces(data["existing_face_index_list"], data["new_type_list"],
                        data["new_location_list"])
    cells = build_cells(faces)
    # translate so that every corner has x, y >= 0
    xs = [p[0] for c in cells for p in c[4]]
    ys = [p[1] for c in cells for p in c[4]]
    ox, oy = min(xs), min(ys)
    shift = lambda p: (p[0] - ox, p[1] - oy)  # noqa: E731
    cells = [(n, f, k, shift(pos), [shift(p) for p in poly]) for n, f, k, pos, poly in cells]

    shapes = []
    for f in range(len(faces)):
        shapes.append({"name": f"Face {f + 1}", "rule": "unique",
                       "cells": [cell_name(f, k) for k in range(9)]})
    chains = build_chains(faces)
    lines = [c for c in chains if c[1] == 3 and not c[2]]
    odd = [c for c in chains if c[1] > 3 or c[2]]
    if odd:
        raise ValueError(f"{len(odd)} strip chains span more than 3 faces or loop")
    for n, (cs, _, _) in enumerate(lines, 1):
        shapes.append({"name": f"Line {n}", "rule": "unique",
                       "cells": [cell_name(f, k) for f, k in cs]})
    model = {
        "name": name,
        "symbols": list("123456789"),
        "values": list(range(1, 10)),
        "cells": [],
        "shapes": shapes,
    }
    for n, f, k, pos, poly in cells:
        entry = {"name": n, "pos": [round(pos[0], 4) + 0.0, round(pos[1], 4) + 0.0]}
        if with_poly:
            entry["poly"] = [[round(p[0], 4) + 0.0, round(p[1], 4) + 0.0] for p in poly]
        model["cells"].append(entry)
    info = {
        "faces": faces,
        "neighbours": face_neighbours(faces),
        "chain_lengths": sorted(c[1] for c in chains),
        "short_chains": [[cell_name(f, k) for f, k in c[0]] for c in chains if c[1] == 2],
    }
    return model, info


def givens_of(data, n_faces):
    pos_list = data.get("pos_list")
    num_list = data.get("num_list")
    if pos_list is None or num_list is None:
        raise ValueError("the example has no pos_list/num_list")
    if len(pos_list) != len(num_list):
        raise ValueError("pos_list and num_list differ in length")
    givens = {}
    for (f, k), d in zip(pos_list, num_list):
        if not (0 <= f < n_faces and 0 <= k < 9 and 1 <= d <= 9):
            raise ValueError(f"bad given {(f, k)} = {d}")
        givens[cell_name(f, k)] = str(d)
    return givens


def toml_str(s):
    return json.dumps(s, ensure_ascii=False)


def write_toml(model, path, header_lines):
    out = [f"# {h}" if h else "#" for h in header_lines]
    out += [f"name    = {toml_str(model['name'])}",
            f"symbols = {toml_str(''.join(model['symbols']))}", ""]
    for c in model["cells"]:
        out.append("[[cell]]")
        out.append(f"name = {toml_str(c['name'])}")
        out.append(f"pos  = [{fmt(c['pos'][0])}, {fmt(c['pos'][1])}]")
        if "poly" in c:
            pts = ", ".join(f"[{fmt(x)}, {fmt(y)}]" for x, y in c["poly"])
            out.append(f"poly = [{pts}]")
        out.append("")
    for s in model["shapes"]:
        out.append("[[shape]]")
        out.append(f"name  = {toml_str(s['name'])}")
        out.append(f"cells = {toml_str(' '.join(s['cells']))}")
        out.append(f"rule  = {toml_str(s['rule'])}")
        out.append("")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out).rstrip("\n") + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("examples", help="Python file with the lists(self, index) placement literals")
    ap.add_argument("index", type=int, help="example index (the N of `if index == N`)")
    ap.add_argument("out", help="geometry TOML to write")
    ap.add_argument("--name", help="geometry name (default: 'Tredoku example INDEX')")
    ap.add_argument("--puzzle", "--givens", dest="puzzle", metavar="OUT.json",
                    help="also write the neutral JSON model with the example's givens")
    ap.add_argument("--no-poly", action="store_true", help="leave out the per-cell rhombus corners")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--verbose-chains", action="store_true",
                    help="list the 2-face strip chains (which impose no constraint)")
    args = ap.parse_args(argv)

    examples = read_examples(args.examples)
    if args.index not in examples:
        ap.error(f"no example {args.index} in {args.examples} (found {sorted(examples)})")
    data = examples[args.index]
    name = args.name or f"Tredoku example {args.index}"
    model, info = build_model(data, name, with_poly=not args.no_poly)
    n_faces = len(info["faces"])
    n_lines = sum(1 for s in model["shapes"] if s["name"].startswith("Line "))
    header = [
        f"{name} (3-D sudoku): {n_faces} faces, {9 * n_faces} cells, {n_lines} lines of 9 cells.",
        "The layout follows the arrangement of a published Tredoku example;",
        "built by tools/tredoku_layout.py (cell F{face}{row a-c}{column 1-3}, face 1-based).",
        "pos = cell centre" + ("" if args.no_poly else ", poly = rhombus corners")
        + ", in cell units (x right, y down).",
    ]
    write_toml(model, args.out, header)
    if args.puzzle:
        pm = dict(model)
        pm["givens"] = givens_of(data, n_faces)
        with open(args.puzzle, "w", encoding="utf-8") as fh:
            json.dump(pm, fh, ensure_ascii=False)
            fh.write("\n")
    if not args.quiet:
        print(f"{name}: {n_faces} faces, {len(model['cells'])} cells, {n_lines} lines, "
              f"{len(info['neighbours'])} shared edges; strip chains by face count: "
              f"{ {n: info['chain_lengths'].count(n) for n in sorted(set(info['chain_lengths']))} }",
              file=sys.stderr)
        if args.verbose_chains:
            for c in info["short_chains"]:
                print("  2-face chain:", " ".join(c), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
