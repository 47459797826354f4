"""CP-SAT encodings of anydoku's neutral JSON model: every constraint kind of docs/FORMATS.md.

`build(model)` returns a CP-SAT model and the cell variables. Each cell is one integer variable;
when the symbols' `values` are distinct (the usual case) its domain is those values, so every
kind is posted on the values directly; otherwise the variable is the symbol index and each value
comes from an element table. The encodings are what a CP-SAT user would write, using CP-SAT's
strongest global where there is one:

* unique: AllDifferent; sum, little killer: a linear equation (AllDifferent too when `unique`);
* thermometer, inequality: `<` / `<=` between neighbours;
* arrow: the circle's digits (`10 * first + second ...`) equal the arrow's sum;
* kropki white/black, XV, whispers: the pair's allowed value pairs as a table (domain
  consistent, as anydoku's relation tables); palindrome and clone: equalities;
* parity, allowed: the cell's domain restricted;
* renban: AllDifferent and max - min = length - 1;
* quadruple: per listed value, enough cells equal to it (reified equalities);
* between: a Boolean for which end is lower, the middle cells strictly between the ends;
* sandwich: which cell holds the lowest and the highest value (reified, exactly one each), the
  cells between them (products of Booleans), their values' sum;
* skyscraper: the running maximum (AddMaxEquality) and a Boolean per cell for "higher than
  all before", counted;
* indexer: an element constraint;
* patterns (anti-knight, anti-king, non-consecutive, non-ratio, non-xv): the pairs of the
  pattern's cells a step apart by the cells' `pos` (as the model's checker reads them), each
  a `!=` or a forbidden-pairs table, leaving out pairs that carry the matching dot.

To add a kind: write `_kind_name(ctx, shape, cells)` and add it to `KINDS` (aliases in `ALIASES`).
"""

from ortools.sat.python import cp_model

ALIASES = {
    "thermo": "thermometer",
    "white": "difference",
    "kropki-white": "difference",
    "black": "ratio",
    "kropki-black": "ratio",
    "less": "inequality",
    "german-whispers": "whispers",
    "between-line": "between",
}


class Ctx:
    """The model being built: the cell variables and how to read a cell's value."""

    def __init__(self, model, direct):
        self.m = cp_model.CpModel()
        self.json = model
        self.symbols = model["symbols"]
        self.values = model.get("values") or list(range(1, len(self.symbols) + 1))
        self.direct = direct and len(set(self.values)) == len(self.values)
        self.lo, self.hi = min(self.values), max(self.values)
        self.x = {}
        for cell in model["cells"]:
            name = cell["name"]
            if self.direct:
                dom = cp_model.Domain.FromValues(self.values)
                self.x[name] = self.m.NewIntVarFromDomain(dom, name)
            else:
                self.x[name] = self.m.NewIntVar(0, len(self.symbols) - 1, name)
        self.pos = {c["name"]: tuple(c["pos"]) for c in model["cells"]}
        self._val = {}

    def val(self, c):
        """The value variable of cell `c`."""
        if self.direct:
            return self.x[c]
        if c not in self._val:
            v = self.m.NewIntVar(self.lo, self.hi, "v_" + c)
            self.m.AddElement(self.x[c], self.values, v)
            self._val[c] = v
        return self._val[c]

    def code(self, symbol):
        """What a cell variable holds for `symbol`."""
        i = self.symbols.index(symbol)
        return self.values[i] if self.direct else i

    def restrict(self, c, allowed_values):
        """Cell `c` takes one of `allowed_values` (values, not symbols)."""
        vs = sorted(set(allowed_values))
        self.m.AddLinearExpressionInDomain(self.val(c), cp_model.Domain.FromValues(vs))

    def pair_table(self, a, b, ok):
        """The values of cells `a`, `b` are a pair with `ok(va, vb)` (a table constraint)."""
        vals = sorted(set(self.values))
        rows = [(p, q) for p in vals for q in vals if ok(p, q)]
        self.m.AddAllowedAssignments([self.val(a), self.val(b)], rows)

    def pair_forbid(self, a, b, bad):
        """No pair of values with `bad(va, vb)` in cells `a`, `b`."""
        vals = sorted(set(self.values))
        rows = [(p, q) for p in vals for q in vals if bad(p, q)]
        if rows:
            self.m.AddForbiddenAssignments([self.val(a), self.val(b)], rows)

    def is_value(self, c, v, tag):
        """A Boolean that is true exactly when cell `c` holds value `v`."""
        b = self.m.NewBoolVar(tag)
        self.m.Add(self.val(c) == v).OnlyEnforceIf(b)
        self.m.Add(self.val(c) != v).OnlyEnforceIf(b.Not())
        return b

    def all_different(self, cells):
        self.m.AddAllDifferent([self.x[c] for c in cells])


def _unique(ctx, s, cells):
    ctx.all_different(cells)


def _sum(ctx, s, cells):
    ctx.m.Add(sum(ctx.val(c) for c in cells) == s["sum"])
    if s.get("unique", False):
        ctx.all_different(cells)


def _thermometer(ctx, s, cells):
    for a, b in zip(cells, cells[1:]):
        if s.get("slow", False):
            ctx.m.Add(ctx.val(a) <= ctx.val(b))
        else:
            ctx.m.Add(ctx.val(a) < ctx.val(b))


def _inequality(ctx, s, cells):
    ctx.m.Add(ctx.val(cells[0]) < ctx.val(cells[1]))


def _arrow(ctx, s, cells):
    k = s.get("circle", 1)
    circle = sum(10 ** (k - 1 - i) * ctx.val(c) for i, c in enumerate(cells[:k]))
    ctx.m.Add(circle == sum(ctx.val(c) for c in cells[k:]))


def _difference(ctx, s, cells):
    d = s.get("difference", 1)
    ctx.pair_table(cells[0], cells[1], lambda p, q: abs(p - q) == d)


def _ratio(ctx, s, cells):
    r = s.get("ratio", 2)
    ctx.pair_table(cells[0], cells[1], lambda p, q: p == r * q or q == r * p)


def _xv(ctx, s, cells):
    t = s["sum"]
    ctx.pair_table(cells[0], cells[1], lambda p, q: p + q == t)


def _whispers(ctx, s, cells):
    d = s.get("difference", 5)
    for a, b in zip(cells, cells[1:]):
        ctx.pair_table(a, b, lambda p, q: abs(p - q) >= d)


def _renban(ctx, s, cells):
    ctx.all_different(cells)
    vs = [ctx.val(c) for c in cells]
    lo = ctx.m.NewIntVar(ctx.lo, ctx.hi, "")
    hi = ctx.m.NewIntVar(ctx.lo, ctx.hi, "")
    ctx.m.AddMinEquality(lo, vs)
    ctx.m.AddMaxEquality(hi, vs)
    ctx.m.Add(hi - lo == len(cells) - 1)


def _palindrome(ctx, s, cells):
    for i in range(len(cells) // 2):
        ctx.m.Add(ctx.x[cells[i]] == ctx.x[cells[-1 - i]])


def _clone(ctx, s, cells):
    h = len(cells) // 2
    for a, b in zip(cells[:h], cells[h:]):
        ctx.m.Add(ctx.x[a] == ctx.x[b])


def _parity(ctx, s, cells):
    odd = s["parity"] == "odd"
    for c in cells:
        ctx.restrict(c, [v for v in ctx.values if (v % 2 == 1) == odd])


def _allowed(ctx, s, cells):
    syms = s["symbols"]
    syms = list(syms) if isinstance(syms, str) else syms
    vals = [ctx.values[ctx.symbols.index(y)] for y in syms if y in ctx.symbols]
    for c in cells:
        ctx.restrict(c, vals)


def _quadruple(ctx, s, cells):
    want = s["values"]
    for v in sorted(set(want)):
        bs = [ctx.is_value(c, v, f"q{v}_{c}") for c in cells]
        ctx.m.Add(sum(bs) >= want.count(v))


def _between(ctx, s, cells):
    if len(cells) < 3:
        return
    a, z = ctx.val(cells[0]), ctx.val(cells[-1])
    up = ctx.m.NewBoolVar("up")
    ctx.m.Add(a < z).OnlyEnforceIf(up)
    ctx.m.Add(a > z).OnlyEnforceIf(up.Not())
    for c in cells[1:-1]:
        v = ctx.val(c)
        ctx.m.Add(v > a).OnlyEnforceIf(up)
        ctx.m.Add(v < z).OnlyEnforceIf(up)
        ctx.m.Add(v < a).OnlyEnforceIf(up.Not())
        ctx.m.Add(v > z).OnlyEnforceIf(up.Not())


def _and(ctx, a, b):
    """A Boolean equal to `a and b`."""
    r = ctx.m.NewBoolVar("")
    ctx.m.AddBoolAnd([a, b]).OnlyEnforceIf(r)
    ctx.m.AddBoolOr([a.Not(), b.Not()]).OnlyEnforceIf(r.Not())
    return r


def _sandwich(ctx, s, cells):
    ctx.all_different(cells)
    n = len(cells)
    is_lo = [ctx.is_value(c, ctx.lo, "") for c in cells]
    is_hi = [ctx.is_value(c, ctx.hi, "") for c in cells]
    ctx.m.AddExactlyOne(is_lo)
    ctx.m.AddExactlyOne(is_hi)
    terms = []
    for i in range(1, n - 1):
        # the lowest (highest) value is before cell i / after it
        flags = []
        for marks in (is_lo, is_hi):
            before, after = ctx.m.NewBoolVar(""), ctx.m.NewBoolVar("")
            ctx.m.Add(before == sum(marks[:i]))
            ctx.m.Add(after == sum(marks[i + 1:]))
            flags.append((before, after))
        inside = ctx.m.NewBoolVar("")
        ctx.m.Add(inside == _and(ctx, flags[0][0], flags[1][1]) + _and(ctx, flags[1][0], flags[0][1]))
        t = ctx.m.NewIntVar(min(0, ctx.lo), max(0, ctx.hi), "")
        ctx.m.Add(t == ctx.val(cells[i])).OnlyEnforceIf(inside)
        ctx.m.Add(t == 0).OnlyEnforceIf(inside.Not())
        terms.append(t)
    ctx.m.Add(sum(terms) == s["sum"])


def _skyscraper(ctx, s, cells):
    vs = [ctx.val(c) for c in cells]
    seen = [ctx.m.NewBoolVar("") for _ in cells]
    ctx.m.Add(seen[0] == 1)
    top = vs[0]
    for i in range(1, len(vs)):
        ctx.m.Add(vs[i] > top).OnlyEnforceIf(seen[i])
        ctx.m.Add(vs[i] <= top).OnlyEnforceIf(seen[i].Not())
        nxt = ctx.m.NewIntVar(ctx.lo, ctx.hi, "")
        ctx.m.AddMaxEquality(nxt, [top, vs[i]])
        top = nxt
    ctx.m.Add(sum(seen) == s["count"])


def _indexer(ctx, s, cells):
    at = s.get("index", 1)
    vs = [ctx.val(c) for c in cells]
    i = ctx.m.NewIntVar(0, len(cells) - 1, "")
    ctx.m.Add(i == vs[at - 1] - 1)
    ctx.m.AddElement(i, vs, at)


def _steps(ctx, cells):
    """The pairs of `cells` with their position offsets (dx, dy), rounded."""
    for n, a in enumerate(cells):
        pa = ctx.pos[a]
        for b in cells[n + 1:]:
            pb = ctx.pos[b]
            yield a, b, round(abs(pa[0] - pb[0])), round(abs(pa[1] - pb[1]))


def _marked(ctx, rule, key, want, default):
    out = set()
    for s in ctx.json["shapes"]:
        r = ALIASES.get(s.get("rule", "unique"), s.get("rule", "unique"))
        if r == rule and len(s["cells"]) == 2 and s.get(key, default) == want:
            out.add(frozenset(s["cells"]))
    return out


def _anti_knight(ctx, s, cells):
    for a, b, dx, dy in _steps(ctx, cells):
        if (dx, dy) in ((1, 2), (2, 1)):
            ctx.m.Add(ctx.x[a] != ctx.x[b])


def _anti_king(ctx, s, cells):
    for a, b, dx, dy in _steps(ctx, cells):
        if dx <= 1 and dy <= 1:
            ctx.m.Add(ctx.x[a] != ctx.x[b])


def _side_pairs(ctx, cells, skip):
    for a, b, dx, dy in _steps(ctx, cells):
        if dx + dy == 1 and frozenset((a, b)) not in skip:
            yield a, b


def _non_consecutive(ctx, s, cells):
    for a, b in _side_pairs(ctx, cells, _marked(ctx, "difference", "difference", 1, 1)):
        ctx.pair_forbid(a, b, lambda p, q: abs(p - q) == 1)


def _non_ratio(ctx, s, cells):
    for a, b in _side_pairs(ctx, cells, _marked(ctx, "ratio", "ratio", 2, 2)):
        ctx.pair_forbid(a, b, lambda p, q: p == 2 * q or q == 2 * p)


def _non_xv(ctx, s, cells):
    x_marks = _marked(ctx, "xv", "sum", 10, None)
    v_marks = _marked(ctx, "xv", "sum", 5, None)
    for a, b, dx, dy in _steps(ctx, cells):
        if dx + dy != 1:
            continue
        pair = frozenset((a, b))
        bad = []
        if pair not in x_marks:
            bad.append(10)
        if pair not in v_marks:
            bad.append(5)
        ctx.pair_forbid(a, b, lambda p, q: p + q in bad)


KINDS = {
    "unique": _unique,
    "sum": _sum,
    "little-killer": _sum,
    "thermometer": _thermometer,
    "inequality": _inequality,
    "arrow": _arrow,
    "difference": _difference,
    "ratio": _ratio,
    "xv": _xv,
    "whispers": _whispers,
    "renban": _renban,
    "palindrome": _palindrome,
    "clone": _clone,
    "parity": _parity,
    "allowed": _allowed,
    "quadruple": _quadruple,
    "between": _between,
    "sandwich": _sandwich,
    "skyscraper": _skyscraper,
    "indexer": _indexer,
    "anti-knight": _anti_knight,
    "anti-king": _anti_king,
    "non-consecutive": _non_consecutive,
    "non-ratio": _non_ratio,
    "non-xv": _non_xv,
}


def build(model, direct=True):
    """The CP-SAT model of a neutral JSON model: (CpModel, {cell name: variable}, decode) where
    decode(cell variable's value) is the cell's symbol. `direct=False` makes the cell variables
    symbol indices even when the values are distinct (the encoding compare.py used before the
    kinds, for comparing runs with earlier ones)."""
    ctx = Ctx(model, direct)
    for shape in model["shapes"]:
        rule = shape.get("rule", "unique")
        rule = ALIASES.get(rule, rule)
        if rule not in KINDS:
            raise SystemExit(f"compare.py: no CP-SAT encoding of rule {rule!r}")
        KINDS[rule](ctx, shape, shape["cells"])
    for c, sym in (model.get("givens") or {}).items():
        ctx.m.Add(ctx.x[c] == ctx.code(sym))
    if ctx.direct:
        by_value = dict(zip(ctx.values, ctx.symbols))
        decode = by_value.__getitem__
    else:
        decode = ctx.symbols.__getitem__
    return ctx.m, ctx.x, decode


def forbid(m, x, solution):
    """Adds "some cell differs from `solution`" (a dict cell -> value of `x`'s variables) to
    `m`: solving again then proves the first solution unique or finds a second one."""
    diff = []
    for c, v in x.items():
        b = m.NewBoolVar("d_" + c)
        m.Add(v != solution[c]).OnlyEnforceIf(b)
        m.Add(v == solution[c]).OnlyEnforceIf(b.Not())
        diff.append(b)
    m.AddBoolOr(diff)
