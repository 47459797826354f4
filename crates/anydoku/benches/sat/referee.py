"""An independent referee for generated puzzles (`anydoku generate --format json`, unique
shapes only, no symmetry): it knows only the cells, shapes, givens, solution and
certificates. The solution keeps every shape and given and is the only one (CaDiCaL through
python-sat finds no other), and every given's certificate is a full grid that keeps every
shape and every other given and differs at that given. Any failure raises."""
import json, sys, itertools
from pysat.solvers import Solver

def check(path):
    d = json.load(open(path)); p = d[0] if isinstance(d, list) else d
    cells = [c["name"] for c in p["cells"]]; idx = {c: i for i, c in enumerate(cells)}
    syms = p["symbols"]; S = len(syms); sidx = {s: i for i, s in enumerate(syms)}
    shapes = [[idx[c] for c in sh["cells"]] for sh in p["shapes"] if sh["rule"] == "unique"]
    assert len(shapes) == len(p["shapes"])
    var = lambda c, v: c * S + v + 1
    cnf = []
    for c in range(len(cells)):
        cnf.append([var(c, v) for v in range(S)])
        cnf += [[-var(c, a), -var(c, b)] for a, b in itertools.combinations(range(S), 2)]
    for sh in shapes:
        for v in range(S):
            cnf += [[-var(a, v), -var(b, v)] for a, b in itertools.combinations(sh, 2)]
            if len(sh) == S:  # a full shape holds every symbol (implied; large grids need it)
                cnf.append([var(c, v) for c in sh])
    def valid(grid):
        return all(len({grid[c] for c in sh}) == len(sh) for sh in shapes)
    sol = [sidx[p["solution"][c]] for c in cells]
    givens = {idx[c]: sidx[s] for c, s in p["givens"].items()}
    assert valid(sol) and all(sol[c] == v for c, v in givens.items())
    with Solver(name="cadical195", bootstrap_with=cnf) as s:
        for c, v in givens.items():
            s.add_clause([var(c, v)])
        s.add_clause([-var(c, sol[c]) for c in range(len(cells))])
        assert not s.solve(), "second solution"
    for g, cert in p["certificates"].items():
        grid = [sidx[cert[c]] for c in cells]
        gi = idx[g]
        assert valid(grid) and grid[gi] != sol[gi]
        assert all(grid[c] == v for c, v in givens.items() if c != gi)
    assert set(p["certificates"]) == set(p["givens"]) and p["source"]["minimal"]
    return len(givens)

for f in sys.argv[1:]:
    print(f, check(f), "givens: unique, minimal, certificates ok")
