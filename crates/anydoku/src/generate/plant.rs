//! Planted constraints: instances of constraint kinds added to the layout from the complete
//! grid, before its givens are thinned out ([`Plant`], [`super::Options::plant`]).
//!
//! Each instance comes from its kind's [`crate::kinds::Kind::plant`] on the grid, so the grid
//! satisfies it (checked again with the kind's checker before use). Instances do not repeat:
//! no two planted shapes have the same cells, a line (more than two cells) shares no cell
//! with another planted line, and single cells are taken only when the kind offers nothing
//! longer. Some names plant one flavour of a kind ([`FLAVOURS`]: `kropki-white` is a
//! difference of 1, `x` an XV sum of 10, `thermometer` a strict one). A negative pattern (`non-consecutive`, `non-ratio`,
//! `non-xv`) is planted on every cell together with every mark the grid needs ([`NEGATIVE`]):
//! the "all dots are given" rule.
//!
//! To plant a new kind, nothing is needed here (its `plant` does it); to add a flavour or a
//! negative rule, add a line to [`FLAVOURS`] or [`NEGATIVE`].

use rand::RngCore;
use rustc_hash::FxHashSet;

use super::GenerateError;
use crate::geometry::{CellId, Geometry, Rule, Shape, ShapeKind};
use crate::kinds::{self, Kind};

/// Names that plant one flavour of a kind: (name, kind, the numbers an instance may have).
/// A kind's own name here narrows it to its usual form.
const FLAVOURS: &[(&str, &str, &[&[i64]])] = &[
    ("thermometer", "thermometer", &[&[0]]),
    ("thermo", "thermometer", &[&[0]]),
    ("slow-thermometer", "thermometer", &[&[1]]),
    ("kropki-white", "difference", &[&[1]]),
    ("white", "difference", &[&[1]]),
    ("kropki-black", "ratio", &[&[2]]),
    ("black", "ratio", &[&[2]]),
    ("xv", "xv", &[&[10], &[5]]),
    ("x", "xv", &[&[10]]),
    ("v", "xv", &[&[5]]),
];

/// Negative patterns: (pattern, the kind of its marks, the numbers a mark may have). Planted,
/// the pattern covers every cell and every pair of orthogonal neighbours of the grid that a
/// mark fits gets that mark.
const NEGATIVE: &[(&str, &str, &[&[i64]])] = &[
    ("non-consecutive", "difference", &[&[1]]),
    ("non-ratio", "ratio", &[&[2]]),
    ("non-xv", "xv", &[&[10], &[5]]),
];

/// Tries of a kind's `plant` per instance.
const TRIES: usize = 200;
/// Tries before an instance of a single cell is taken.
const LONGER_TRIES: usize = 50;

/// Instances of a constraint kind to plant: `thermometer:4`, `kropki-white:6`,
/// `non-consecutive` (a negative pattern with all its marks). The count defaults to 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plant {
    /// The kind's name or alias, a flavour (`kropki-white`, `kropki-black`, `x`, `v`) or a
    /// negative pattern (`non-consecutive`, `non-ratio`, `non-xv`).
    pub kind: String,
    /// How many instances (1 for a negative pattern).
    pub count: usize,
}

impl std::str::FromStr for Plant {
    type Err = GenerateError;

    /// Reads `KIND` or `KIND:COUNT` and checks the kind and the count.
    fn from_str(text: &str) -> Result<Plant, GenerateError> {
        let (kind, count) = match text.split_once(':') {
            Some((k, c)) => {
                let count = c.trim().parse::<usize>().ok().filter(|&c| c >= 1);
                let count = count.ok_or_else(|| {
                    GenerateError::Option(format!(
                        "plant '{text}': the count '{c}' is not a number from 1"
                    ))
                })?;
                (k.trim(), count)
            }
            None => (text.trim(), 1),
        };
        let plant = Plant {
            kind: kind.to_string(),
            count,
        };
        resolve(&plant)?;
        Ok(plant)
    }
}

impl std::fmt::Display for Plant {
    /// As written: `KIND:COUNT`, or `KIND` for one.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self.count {
            1 => write!(f, "{}", self.kind),
            n => write!(f, "{}:{n}", self.kind),
        }
    }
}

/// What a plant asks for, resolved.
enum How {
    /// Instances of a kind whose numbers are one of `only` (any when empty).
    Instances(u16, &'static dyn Kind, &'static [&'static [i64]]),
    /// A negative pattern on every cell with its marks.
    Negative(u16, u16, &'static [&'static [i64]]),
}

/// The kind(s) behind a plant, or why it cannot be planted.
fn resolve(p: &Plant) -> Result<How, GenerateError> {
    let name = p.kind.as_str();
    let bad = |m: String| GenerateError::Option(format!("plant '{p}': {m}"));
    let kind = |k: &str| kinds::by_name(k).expect("the tables name known kinds");
    if let Some((_, k, only)) = FLAVOURS.iter().find(|f| f.0.eq_ignore_ascii_case(name)) {
        let (id, kind) = kind(k);
        return Ok(How::Instances(id, kind, only));
    }
    if let Some((pattern, mark, only)) = NEGATIVE.iter().find(|f| f.0 == name) {
        if p.count != 1 {
            return Err(bad(format!(
                "a pattern is planted once (on every cell), not {} times",
                p.count
            )));
        }
        return Ok(How::Negative(kind(pattern).0, kind(mark).0, only));
    }
    let Some((id, k)) = kinds::by_name(name) else {
        let flavours: Vec<&str> = FLAVOURS.iter().map(|f| f.0).collect();
        return Err(bad(format!(
            "unknown kind; expected one of {}, or a flavour: {}",
            kinds::names(),
            flavours.join(", ")
        )));
    };
    if k.is_pattern() {
        return Err(bad(format!(
            "\"{}\" is a pattern of the whole layout: declare it in the layout \
             ([[pattern]] kind = \"{}\") and generate on that layout",
            k.name(),
            k.name()
        )));
    }
    if id == kinds::id_of(&Rule::Unique) {
        return Err(bad(
            "unique shapes are the layout's own; nothing to plant".into()
        ));
    }
    Ok(How::Instances(id, k, &[]))
}

/// The planted shapes so far, to keep new ones from repeating them.
struct Planted {
    shapes: Vec<Shape>,
    cell_sets: FxHashSet<Vec<u32>>,
    line_cells: FxHashSet<u32>,
    names: FxHashSet<String>,
}

impl Planted {
    fn new(g: &Geometry) -> Self {
        Planted {
            shapes: Vec::new(),
            cell_sets: FxHashSet::default(),
            line_cells: FxHashSet::default(),
            names: g.shapes.iter().map(|s| s.name.clone()).collect(),
        }
    }

    /// Whether an instance of `rule` on `cells` repeats a planted one: the same cells, a line
    /// crossing a line, or a cell shared with another instance of the same kind (except two
    /// pairs: dots may meet at a cell).
    fn clashes(&self, rule: &Rule, cells: &[CellId]) -> bool {
        let kind = kinds::id_of(rule);
        let shared = |s: &Shape| s.cells.iter().any(|c| cells.contains(c));
        self.cell_sets.contains(&sorted(cells))
            || (cells.len() > 2 && cells.iter().any(|c| self.line_cells.contains(&c.0)))
            || self.shapes.iter().any(|s| {
                kinds::id_of(&s.rule) == kind && (cells.len() > 2 || s.cells.len() > 2) && shared(s)
            })
    }

    /// Adds a shape named after `title` (the first free "Title k").
    fn add(&mut self, title: &str, rule: Rule, cells: Vec<CellId>) {
        let name = (1..)
            .map(|k| format!("{title} {k}"))
            .find(|n| !self.names.contains(n))
            .expect("a free name");
        self.names.insert(name.clone());
        self.cell_sets.insert(sorted(&cells));
        if cells.len() > 2 {
            self.line_cells.extend(cells.iter().map(|c| c.0));
        }
        self.shapes.push(Shape {
            name,
            rule,
            cells,
            kind: ShapeKind::Extra,
        });
    }
}

fn sorted(cells: &[CellId]) -> Vec<u32> {
    let mut v: Vec<u32> = cells.iter().map(|c| c.0).collect();
    v.sort_unstable();
    v
}

/// Checks every plant of `plants` (kinds and counts) without planting.
pub(crate) fn validate(plants: &[Plant]) -> Result<(), GenerateError> {
    plants.iter().try_for_each(|p| resolve(p).map(|_| ()))
}

/// The geometry `g` with the instances of `plants` planted from the complete grid `grid`.
pub(crate) fn plant(
    g: &Geometry,
    grid: &[u8],
    plants: &[Plant],
    rng: &mut dyn RngCore,
) -> Result<Geometry, GenerateError> {
    let mut planted = Planted::new(g);
    for p in plants {
        match resolve(p)? {
            How::Instances(id, kind, only) => {
                plant_instances(g, grid, p, (id, kind, only), &mut planted, rng)?
            }
            How::Negative(pattern, mark, only) => {
                plant_negative(g, grid, (pattern, mark, only), &mut planted)
            }
        }
    }
    let planted = g
        .with_extra_shapes(planted.shapes)
        .map_err(|e| GenerateError::Option(format!("cannot add the planted shapes: {e}")))?;
    for s in &planted.shapes[g.shapes.len()..] {
        kinds::check(s, &planted, grid).map_err(|m| {
            GenerateError::Option(format!("planted shape '{}' does not hold: {m}", s.name))
        })?;
    }
    Ok(planted)
}

/// Plants `p.count` instances of a kind.
fn plant_instances(
    g: &Geometry,
    grid: &[u8],
    p: &Plant,
    (id, kind, only): (u16, &'static dyn Kind, &[&[i64]]),
    planted: &mut Planted,
    rng: &mut dyn RngCore,
) -> Result<(), GenerateError> {
    for made in 0..p.count {
        let found = (0..TRIES).find_map(|t| {
            let (cells, params) = kind.plant(g, grid, rng)?;
            let rule = kinds::rule(id, params);
            let fits = (only.is_empty() || only.contains(&kinds::params(&rule).as_ref()))
                && !planted.clashes(&rule, &cells)
                && (cells.len() >= 2 || t >= LONGER_TRIES);
            fits.then_some((cells, rule))
        });
        let Some((cells, rule)) = found else {
            return Err(GenerateError::Option(format!(
                "plant '{p}': the grid had room for only {made} (no two alike, lines \
                 not crossing); ask for fewer"
            )));
        };
        planted.add(kind.title(), rule, cells);
    }
    Ok(())
}

/// Plants a negative pattern on every cell, and a mark on every pair of orthogonal neighbours
/// that one fits.
fn plant_negative(
    g: &Geometry,
    grid: &[u8],
    (pattern, mark, only): (u16, u16, &[&[i64]]),
    planted: &mut Planted,
) {
    let all: Vec<CellId> = (0..g.cell_count() as u32).map(CellId).collect();
    let title = kinds::by_id(mark).title();
    for [a, b] in kinds::pick::pairs_at(g, &all, kinds::pick::ORTHOGONAL) {
        for params in only {
            let shape = Shape {
                name: String::new(),
                rule: kinds::rule(mark, params.to_vec()),
                cells: vec![a, b],
                kind: ShapeKind::Extra,
            };
            let cells = sorted(&shape.cells);
            let there =
                (planted.shapes.iter()).any(|s| s.rule == shape.rule && sorted(&s.cells) == cells);
            if !there && kinds::check(&shape, g, grid).is_ok() {
                planted.add(title, shape.rule, shape.cells);
                break;
            }
        }
    }
    let kind = kinds::by_id(pattern);
    let name = if planted.names.contains(kind.title()) {
        format!("{} (planted)", kind.title())
    } else {
        kind.title().to_string()
    };
    planted.names.insert(name.clone());
    planted.shapes.push(Shape {
        name,
        rule: kinds::rule(pattern, Vec::new()),
        cells: all,
        kind: ShapeKind::Extra,
    });
}
