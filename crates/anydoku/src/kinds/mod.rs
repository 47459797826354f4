//! Constraint kinds: one module per kind of rule a shape can carry, and the registry of them.
//!
//! A shape is a list of cells with a [`Rule`]; the rule's *kind* (unique, sum, thermometer,
//! arrow, kropki dot, ...) says what the cells must satisfy. Everything anydoku knows about a
//! kind lives in the kind's module, behind the [`Kind`] trait:
//!
//! * its file form: the `rule = "..."` name, the keys it takes and how they read
//!   ([`Kind::read`], [`Kind::write`]): the same keys in TOML (`[[shape]]`, `[[pattern]]`)
//!   and in the neutral JSON model;
//! * its engine form ([`Kind::flatten`]): complete shapes, peers, sum shapes, or a cell-major
//!   propagator ([`crate::engine::constraint::Propagator`]) that narrows candidates without
//!   allocating;
//! * an independent checker ([`Kind::check`]): whether a filled grid satisfies the shape, written
//!   plainly from the rule (the conformance tests count solutions with it alone);
//! * random instances that a given grid satisfies ([`Kind::plant`]), for the conformance tests
//!   and for generation;
//! * its f-puzzles mapping ([`Kind::fpuzzles_keys`], [`Kind::read_fpuzzles`], see [`fpuzzles`]);
//! * its drawing in the SVG picture ([`Kind::draw`], with the pen of `kinds::draw`).
//!
//! Unique and sum are kinds like the others; the engine's fastest paths (the bitboard kernels,
//! CDCL, the law of 45) know them by their own [`Rule`] variants, every other kind is a
//! [`Constraint`] (its kind's id and its numbers).
//!
//! **Adding a kind** is one new module and one line in the `registry!` call below:
//!
//! 1. write `kinds/my_kind.rs` with a unit struct implementing [`Kind`] (copy a kind close to
//!    yours: a pair relation like `difference`, a line like `thermometer`, a pattern like
//!    `anti_knight` or `non_consecutive` (with the helpers of `pattern`)), its conformance
//!    test at the bottom (`harness::conform`);
//! 2. add `my_kind::MyKind` to `registry!`.
//!
//! Nothing else changes: the readers, the engine, the checkers, the pictures and the f-puzzles
//! mapping go through this registry; so do the logic layer's constraint steps (the kind's
//! propagator narrows its shape alone, and the constraint combinations rule searches the
//! fillings of the kind's shape and of the houses it crosses with it).

use std::borrow::Cow;

use rand::RngCore;
use serde_json::{Map, Value};

use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Constraint, Geometry, Rule, Shape};
use crate::symbols::SymbolSet;

pub(crate) mod draw;
mod equal;
pub(crate) mod fpuzzles;
mod linear;
mod params;
mod pattern;
pub(crate) mod pick;
mod relation;

#[cfg(test)]
pub(crate) mod harness;
#[cfg(test)]
mod round_trip;

pub(crate) use params::Params;

/// What one kind of constraint is: its file form, engine form, checker and random instances.
/// See the module docs for how to add one.
pub(crate) trait Kind: Sync {
    /// The rule's name in files (`rule = "thermometer"`), lower case with hyphens.
    fn name(&self) -> &'static str;

    /// Other names accepted when reading (e.g. "thermo").
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// What a shape of this kind is called in steps and pictures ("Thermometer"): shapes
    /// without a name of their own get "Thermometer 1", "Thermometer 2", ...
    fn title(&self) -> &'static str;

    /// The keys its shapes take besides `name`, `rule` and `cells`.
    fn keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether it is declared once for a whole layout as a `[[pattern]]` (its cells, by
    /// default every cell, are where it applies; what it constrains follows from their
    /// positions).
    fn is_pattern(&self) -> bool {
        false
    }

    /// Reads the kind's numbers from a shape's keys; `cells` is how many cells the shape has.
    /// The message says what is wrong (the caller names the shape and where it was written).
    /// By default a kind has no numbers (and so [`Kind::keys`] is empty).
    fn read(&self, _p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        Ok(Vec::new())
    }

    /// Writes the keys [`Kind::read`] reads back from `params` (by default none).
    fn write(&self, _params: &[i64], _symbols: &SymbolSet, _out: &mut Map<String, Value>) {}

    /// Whether no symbol may repeat among the shape's cells (they become peers).
    fn distinct(&self, _params: &[i64]) -> bool {
        false
    }

    /// Adds the shape to the engine's tables.
    fn flatten(&self, s: &Shape, params: &[i64], g: &Geometry, out: &mut Flat);

    /// Whether a full grid (symbol index per cell of `g`) satisfies the shape: `Err` says how
    /// it does not. Written from the rule alone, independent of the propagator.
    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String>;

    /// The f-puzzles keys whose entries this kind reads (see [`fpuzzles`]).
    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// The instances of this kind in the f-puzzles entry `entry` under `key`.
    fn read_fpuzzles(
        &self,
        _key: &str,
        _entry: &Value,
        _fp: &fpuzzles::Fp,
    ) -> Result<fpuzzles::Instances, String> {
        Ok(Vec::new())
    }

    /// Writes shape `s` (numbers `params`) into an f-puzzles puzzle, under the keys
    /// [`Kind::read_fpuzzles`] reads back. By default the kind has no f-puzzles form: the
    /// message says so (the caller names the shape).
    fn write_fpuzzles(
        &self,
        _s: &Shape,
        _params: &[i64],
        _out: &mut fpuzzles::Out,
    ) -> Result<(), String> {
        Err(format!(
            "cannot be written: f-puzzles has no \"{}\" constraint",
            self.name()
        ))
    }

    /// Writes every shape of this kind in a puzzle into f-puzzles: by default each with
    /// [`Kind::write_fpuzzles`]; a kind whose f-puzzles form spans several shapes overrides
    /// it. The message names the shape that cannot be written.
    fn write_fpuzzles_all(&self, shapes: &[&Shape], out: &mut fpuzzles::Out) -> Result<(), String> {
        for s in shapes {
            self.write_fpuzzles(s, &params(&s.rule), out)
                .map_err(|m| format!("'{}' (rule \"{}\") {m}", s.name, self.name()))?;
        }
        Ok(())
    }

    /// Draws a shape of this kind in the SVG picture (by default a line through its cells).
    fn draw(&self, s: &Shape, _params: &[i64], g: &Geometry, pen: &mut draw::Pen) {
        draw::path(g, &s.cells, pen);
    }

    /// A random instance of the kind on `g` that the full grid `grid` satisfies (its cells and
    /// numbers), or `None` when the layout has no room for one.
    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)>;

    /// The rule of shape `s` as a sentence for logic steps, in the layout's names ("values
    /// increase along r1c1→r1c4"): the step adds what its propagator removed. By default the
    /// kind's title on the shape's cells.
    fn explain(&self, s: &Shape, _params: &[i64], g: &Geometry) -> String {
        if self.is_pattern() {
            format!("the {} rule", self.title().to_lowercase())
        } else {
            format!(
                "the {} rule on {}",
                self.title().to_lowercase(),
                path_text(g, &s.cells)
            )
        }
    }

    /// The weight of a logic step that applies this kind's propagator (on the scale of
    /// `logic::rate`: near the singles for a simple local filter, higher for sums and counts).
    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_LINE
    }
}

/// Cells written as a path, "r1c1→r1c2→r1c3" (the middle left out on long lines).
pub(crate) fn path_text(g: &Geometry, cells: &[CellId]) -> String {
    let name = |c: &CellId| g.cell(*c).name.as_str();
    if cells.len() <= 10 {
        return cells.iter().map(name).collect::<Vec<_>>().join("→");
    }
    let head: Vec<&str> = cells[..4].iter().map(name).collect();
    let tail: Vec<&str> = cells[cells.len() - 2..].iter().map(name).collect();
    format!("{}→…→{}", head.join("→"), tail.join("→"))
}

/// The sentence of shape `s`'s rule for logic steps (see [`Kind::explain`]).
pub(crate) fn explain(s: &Shape, g: &Geometry) -> String {
    of(&s.rule).explain(s, &params(&s.rule), g)
}

/// The weight of a logic step by shape `s`'s propagator (see [`Kind::logic_weight`]).
pub(crate) fn logic_weight(s: &Shape) -> f64 {
    of(&s.rule).logic_weight(&params(&s.rule))
}

/// Declares the kind modules and lists them, in order: a kind's id is its index here (unique
/// and sum come first, as the [`Rule`] variants say).
macro_rules! registry {
    ($($module:ident :: $kind:ident),* $(,)?) => {
        $(mod $module;)*

        /// Every kind, by id.
        pub(crate) static KINDS: &[&dyn Kind] = &[$(&$module::$kind),*];
    };
}

registry! {
    unique::Unique,
    sum::Sum,
    thermometer::Thermometer,
    anti_knight::AntiKnight,
    anti_king::AntiKing,
    difference::Difference,
    ratio::Ratio,
    xv::Xv,
    inequality::Inequality,
    non_consecutive::NonConsecutive,
    non_ratio::NonRatio,
    non_xv::NonXv,
    arrow::Arrow,
    little_killer::LittleKiller,
    allowed::Allowed,
    parity::Parity,
    palindrome::Palindrome,
    clone::Clones,
    quadruple::Quadruple,
    renban::Renban,
    whispers::Whispers,
    between::Between,
    sandwich::Sandwich,
    indexer::Indexer,
    skyscraper::Skyscraper,
}

/// The id of the unique kind.
const UNIQUE: u16 = 0;
/// The id of the sum kind.
const SUM: u16 = 1;

/// The kind with id `id`.
pub(crate) fn by_id(id: u16) -> &'static dyn Kind {
    KINDS[id as usize]
}

/// The kind of a rule.
pub(crate) fn of(rule: &Rule) -> &'static dyn Kind {
    by_id(id_of(rule))
}

/// The id of a rule's kind.
pub(crate) fn id_of(rule: &Rule) -> u16 {
    match rule {
        Rule::Unique => UNIQUE,
        Rule::Sum { .. } => SUM,
        Rule::Constraint(c) => c.kind,
    }
}

/// A kind by its name or one of its aliases.
pub(crate) fn by_name(name: &str) -> Option<(u16, &'static dyn Kind)> {
    KINDS
        .iter()
        .enumerate()
        .find(|(_, k)| k.name() == name || k.aliases().contains(&name))
        .map(|(i, k)| (i as u16, *k))
}

/// The names of every kind, for messages.
pub(crate) fn names() -> String {
    KINDS
        .iter()
        .map(|k| format!("\"{}\"", k.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rule of kind `id` with `params`.
pub(crate) fn rule(id: u16, params: Vec<i64>) -> Rule {
    match id {
        UNIQUE => Rule::Unique,
        SUM => Rule::Sum {
            total: params[0],
            unique: params[1] != 0,
        },
        kind => Rule::Constraint(Constraint { kind, params }),
    }
}

/// A rule's numbers (what [`rule`] takes back).
pub(crate) fn params(rule: &Rule) -> Cow<'_, [i64]> {
    match rule {
        Rule::Unique => Cow::Borrowed(&[]),
        Rule::Sum { total, unique } => Cow::Owned(vec![*total, *unique as i64]),
        Rule::Constraint(c) => Cow::Borrowed(&c.params),
    }
}

/// Reads a rule named `name` (a kind's name or alias) with the keys `keys`, for a shape of
/// `cells` cells. The message names what is wrong, not the shape (the caller does).
pub(crate) fn read(
    name: &str,
    keys: &Map<String, Value>,
    cells: usize,
    symbols: &SymbolSet,
) -> Result<Rule, String> {
    read_with(name, &Params::new(keys, None, None), cells, symbols)
}

/// [`read`] with the keys `sum` and `unique` parsed already (as the JSON readers do).
pub(crate) fn read_with(
    name: &str,
    keys: &Params,
    cells: usize,
    symbols: &SymbolSet,
) -> Result<Rule, String> {
    let (id, kind) =
        by_name(name).ok_or_else(|| format!("has rule \"{name}\"; expected one of {}", names()))?;
    if let Some(k) = keys.keys().find(|k| !kind.keys().contains(k)) {
        let takes = match kind.keys() {
            [] => "no other keys".to_string(),
            keys => keys.join(", "),
        };
        return Err(format!(
            "(rule \"{}\") has an unknown key '{k}'; it takes {takes}",
            kind.name()
        ));
    }
    let params = kind.read(keys, cells, symbols)?;
    Ok(rule(id, params))
}

/// The keys of a rule as the files write them (without `rule`, `name` and `cells`).
pub(crate) fn write(rule: &Rule, symbols: &SymbolSet) -> Map<String, Value> {
    let mut out = Map::new();
    of(rule).write(&params(rule), symbols, &mut out);
    out
}

/// Whether the full grid `grid` satisfies shape `s` of `g` (see [`Kind::check`]).
pub(crate) fn check(s: &Shape, g: &Geometry, grid: &[u8]) -> Result<(), String> {
    of(&s.rule).check(s, &params(&s.rule), g, grid)
}

/// Adds shape `s` of `g` to the engine's tables (see [`Kind::flatten`]).
pub(crate) fn flatten(s: &Shape, g: &Geometry, out: &mut Flat) {
    of(&s.rule).flatten(s, &params(&s.rule), g, out)
}

/// Draws shape `s` of `g` (a constraint kind's shape) with `pen`; patterns draw nothing (the
/// picture's note names them).
pub(crate) fn draw(s: &Shape, g: &Geometry, pen: &mut draw::Pen) {
    let kind = of(&s.rule);
    if !kind.is_pattern() {
        kind.draw(s, &params(&s.rule), g, pen);
    }
}

/// The names of the pattern kinds, for messages.
pub(crate) fn pattern_names() -> String {
    KINDS
        .iter()
        .filter(|k| k.is_pattern())
        .map(|k| format!("\"{}\"", k.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the filled cells of a partial grid break in shape `s` of `g`: the kind's check, once
/// every cell the shape's rule reads is filled (a pattern reads every cell of the layout).
pub(crate) fn broken(s: &Shape, g: &Geometry, grid: &[Option<u8>]) -> Option<String> {
    let filled = |c: &CellId| grid[c.index()].is_some();
    let ready = if of(&s.rule).is_pattern() {
        grid.iter().all(Option::is_some)
    } else {
        s.cells.iter().all(filled)
    };
    if !ready {
        return None;
    }
    let full: Vec<u8> = grid.iter().map(|v| v.unwrap_or(0)).collect();
    check(s, g, &full).err()
}
