//! The neutral JSON model: symbols, cells, shapes and givens, readable by any tool.
//!
//! `{"name", "symbols": [...], "values": [...], "cells": [{"name", "pos": [x, y]}],
//!   "shapes": [{"name", "rule", "cells": [...], ...}], "givens": {cell: symbol}}`
//!
//! A shape's `rule` names its kind ("unique", "sum", "thermometer", ...) and the kind's own keys
//! follow (`sum` and `unique` for a sum shape; see `crate::kinds` and docs/FORMATS.md). Readers
//! accept (and ignore) `solution`, `certificates` and other bookkeeping keys listed in
//! [`ModelJson`].

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Puzzle;
use crate::error::Error;
use crate::geometry::{Cell, CellId, Geometry, GeometryError, Rule, Shape, ShapeKind};
use crate::symbols::SymbolSet;

/// A cell in the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellJson {
    pub name: String,
    pub pos: [f64; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poly: Option<Vec<[f64; 2]>>,
}

/// A shape in the model: its kind's keys (checked by the kind) follow the cells. `sum` and
/// `unique`, the keys of every Killer cage, are typed fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShapeJson {
    pub name: String,
    pub rule: String,
    pub cells: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sum: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    /// The kind's other keys.
    #[serde(flatten)]
    pub keys: Map<String, Value>,
}

impl ShapeJson {
    /// The model of shape `s` of `g`.
    fn of(s: &Shape, g: &Geometry) -> Self {
        let mut keys = crate::kinds::write(&s.rule, &g.symbols);
        let sum = keys.remove("sum").and_then(|v| v.as_i64());
        let unique = keys.remove("unique").and_then(|v| v.as_bool());
        ShapeJson {
            name: s.name.clone(),
            rule: s.rule.kind().into(),
            cells: s.cells.iter().map(|c| g.cell(*c).name.clone()).collect(),
            sum,
            unique,
            keys,
        }
    }
}

/// The whole model.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelJson {
    pub name: String,
    pub symbols: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<i64>>,
    pub cells: Vec<CellJson>,
    pub shapes: Vec<ShapeJson>,
    #[serde(default)]
    pub givens: Map<String, Value>,
    /// Bookkeeping keys accepted on input and ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificates: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Value>,
}

/// The model of a puzzle.
pub fn to_model(p: &Puzzle) -> ModelJson {
    let g = &p.geometry;
    ModelJson {
        name: g.name.clone(),
        symbols: g.symbols.symbols().to_vec(),
        values: Some(g.symbols.values().to_vec()),
        cells: g
            .cells
            .iter()
            .map(|c| CellJson {
                name: c.name.clone(),
                pos: c.pos,
                poly: c.poly.clone(),
            })
            .collect(),
        shapes: g.shapes.iter().map(|s| ShapeJson::of(s, g)).collect(),
        givens: p
            .givens
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                v.map(|v| {
                    (
                        g.cells[i].name.clone(),
                        Value::String(g.symbols.symbol(v as usize).to_string()),
                    )
                })
            })
            .collect(),
        solution: None,
        certificates: None,
        source: None,
        expect: None,
    }
}

/// `{cell: symbol}` for a full or partial grid, in cell order.
pub fn grid_map(g: &Geometry, grid: &[Option<u8>]) -> Map<String, Value> {
    grid.iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.map(|v| {
                (
                    g.cells[i].name.clone(),
                    Value::String(g.symbols.symbol(v as usize).to_string()),
                )
            })
        })
        .collect()
}

/// Reads the model from JSON text.
pub fn from_json(text: &str) -> Result<Puzzle, Error> {
    if text.trim().is_empty() {
        return Err(Error::Syntax {
            message: "the file is empty".into(),
            location: None,
        });
    }
    from_model(&parse_model(text)?)
}

/// Parses a JSON model without building its geometry (see [`from_model`]).
pub fn parse_model(text: &str) -> Result<ModelJson, Error> {
    if text.trim().is_empty() {
        return Err(Error::Syntax {
            message: "the file is empty".into(),
            location: None,
        });
    }
    let start = text.len()
        - text
            .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .len();
    if text[start..].starts_with('[') {
        return Err(Error::Syntax {
            message:
                "a JSON array is not a puzzle model (an object with \"name\", \"symbols\", \
                      \"cells\" and \"shapes\"); a list of Killer cages is read by `anydoku import`"
                    .into(),
            location: Some(crate::error::Location::of_offset(text, start)),
        });
    }
    serde_json::from_str(text).map_err(|e| Error::from_json(&e))
}

/// Builds a puzzle from the model.
pub fn from_model(m: &ModelJson) -> Result<Puzzle, Error> {
    let cells: Vec<CellRef> = m
        .cells
        .iter()
        .map(|c| CellRef {
            name: Cow::Borrowed(&c.name),
            pos: c.pos,
            poly: c.poly.clone(),
        })
        .collect();
    let shapes: Vec<ShapeRef> = m
        .shapes
        .iter()
        .map(|s| ShapeRef {
            name: Cow::Borrowed(&s.name),
            rule: Cow::Borrowed(&s.rule),
            cells: s.cells.iter().map(|c| Cow::Borrowed(c.as_str())).collect(),
            sum: s.sum,
            unique: s.unique,
            keys: s.keys.clone(),
        })
        .collect();
    let geometry = build_geometry(
        m.name.clone(),
        m.symbols.clone(),
        m.values.clone(),
        &cells,
        &shapes,
    )?;
    let givens = givens_of(&geometry, m)?;
    Ok(Puzzle {
        geometry: Arc::new(geometry),
        givens,
    })
}

/// A cell of the model, its name borrowed from the text where it can be.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CellRef<'a> {
    #[serde(borrow)]
    pub(crate) name: Cow<'a, str>,
    pub(crate) pos: [f64; 2],
    #[serde(default)]
    pub(crate) poly: Option<Vec<[f64; 2]>>,
}

/// A shape of the model, its names borrowed from the text where they can be.
#[derive(Debug, Deserialize)]
pub(crate) struct ShapeRef<'a> {
    #[serde(borrow)]
    pub(crate) name: Cow<'a, str>,
    #[serde(borrow)]
    pub(crate) rule: Cow<'a, str>,
    #[serde(borrow)]
    pub(crate) cells: Vec<Cow<'a, str>>,
    /// `sum` and `unique` (read typed: the keys of every Killer cage).
    #[serde(default)]
    pub(crate) sum: Option<i64>,
    #[serde(default)]
    pub(crate) unique: Option<bool>,
    /// The kind's other keys.
    #[serde(flatten)]
    pub(crate) keys: Map<String, Value>,
}

/// The shapes of a model, their cells looked up by name with `cell_id`.
fn shapes_from_refs(
    cell_id: impl Fn(&str) -> Option<CellId>,
    shapes: &[ShapeRef],
    symbols: &SymbolSet,
) -> Result<Vec<Shape>, Error> {
    let mut out = Vec::with_capacity(shapes.len());
    for s in shapes {
        let mut cells = Vec::with_capacity(s.cells.len());
        for c in &s.cells {
            cells.push(
                cell_id(c.as_ref()).ok_or_else(|| GeometryError::UnknownCell {
                    cell: c.to_string(),
                    context: format!("shape '{}'", s.name),
                })?,
            );
        }
        let keys = crate::kinds::Params::new(&s.keys, s.sum, s.unique);
        let rule = crate::kinds::read_with(&s.rule, &keys, cells.len(), symbols)
            .map_err(|m| GeometryError::Invalid(format!("shape '{}' {m}", s.name)))?;
        // sum shapes read from a model are drawn and named as cages
        let kind = match rule {
            Rule::Sum { .. } => ShapeKind::Cage,
            _ => ShapeKind::Extra,
        };
        out.push(Shape {
            name: s.name.to_string(),
            rule,
            cells,
            kind,
        });
    }
    Ok(out)
}

/// What [`build_geometry`] gives for a model whose symbols, values and cells are those of
/// `base` (already checked when `base` was built): only the shapes are read.
pub(crate) fn build_geometry_on(
    base: &Geometry,
    name: String,
    shapes: &[ShapeRef],
) -> Result<Geometry, Error> {
    crate::limits::check_shapes(shapes.len())?;
    let out = shapes_from_refs(|c| base.cell_id(c), shapes, &base.symbols)?;
    let geometry = base.with_shapes(name, out)?;
    crate::geometry::build::check_sums(&geometry)?;
    Ok(geometry)
}

/// The validated geometry of a model's parts.
pub(crate) fn build_geometry(
    name: String,
    symbols: Vec<String>,
    values: Option<Vec<i64>>,
    cells: &[CellRef],
    shapes: &[ShapeRef],
) -> Result<Geometry, Error> {
    crate::limits::check_cells(cells.len())?;
    crate::limits::check_shapes(shapes.len())?;
    let symbols = SymbolSet::from_list(symbols, values)?;
    let index: rustc_hash::FxHashMap<&str, CellId> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_ref(), CellId(i as u32)))
        .collect();
    let out = shapes_from_refs(|c| index.get(c).copied(), shapes, &symbols)?;
    let cells = cells
        .iter()
        .map(|c| Cell {
            name: c.name.to_string(),
            pos: c.pos,
            board: crate::geometry::build::parse_board_name(&c.name),
            poly: c.poly.clone(),
        })
        .collect();
    let geometry = Geometry::new(name, symbols, cells, out)?;
    crate::geometry::build::check_sums(&geometry)?;
    Ok(geometry)
}

/// A JSON model with its layout left as raw text, as serde reads it (nothing is allocated for
/// the cells and shapes). Fields are those of [`ModelJson`]. The batch reader
/// ([`super::scan`]) does the same with a byte scan and is tested against this.
#[cfg(test)]
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // every key is listed, to be refused or accepted as the model is
pub struct RawModel<'a> {
    #[serde(borrow)]
    pub name: &'a serde_json::value::RawValue,
    #[serde(borrow)]
    pub symbols: &'a serde_json::value::RawValue,
    #[serde(default, borrow)]
    pub values: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow)]
    pub cells: &'a serde_json::value::RawValue,
    #[serde(borrow)]
    pub shapes: &'a serde_json::value::RawValue,
    #[serde(default)]
    pub givens: Map<String, Value>,
    #[serde(default, borrow)]
    pub solution: Option<&'a serde_json::value::RawValue>,
    #[serde(default, borrow)]
    pub certificates: Option<&'a serde_json::value::RawValue>,
    #[serde(default, borrow)]
    pub source: Option<&'a serde_json::value::RawValue>,
    #[serde(default, borrow)]
    pub expect: Option<&'a serde_json::value::RawValue>,
}

#[cfg(test)]
impl RawModel<'_> {
    /// The layout's text (symbols, values, cells, shapes), to compare with another line's.
    pub fn layout_text(&self) -> [&str; 4] {
        [
            self.symbols.get(),
            self.values.map_or("", |v| v.get()),
            self.cells.get(),
            self.shapes.get(),
        ]
    }
}

/// The givens of model `m`, read against `geometry` (built from `m` or from a model with the
/// same layout).
pub fn givens_of(geometry: &Geometry, m: &ModelJson) -> Result<Vec<Option<u8>>, Error> {
    givens_from_map(geometry, &m.givens)
}

/// Givens (cell name to symbol) read against `geometry`.
pub fn givens_from_map(
    geometry: &Geometry,
    map: &Map<String, Value>,
) -> Result<Vec<Option<u8>>, Error> {
    let mut givens = vec![None; geometry.cell_count()];
    for (cell, v) in map {
        put_given(geometry, &mut givens, cell, v.as_str())?;
    }
    Ok(givens)
}

/// Sets the given of `cell` to symbol `sym` (`None`: the JSON value was not a string), with the
/// model's messages for an unknown cell, a value that is not a string, an unknown symbol.
pub(crate) fn put_given(
    geometry: &Geometry,
    givens: &mut [Option<u8>],
    cell: &str,
    sym: Option<&str>,
) -> Result<(), Error> {
    let id = geometry
        .cell_id(cell)
        .ok_or_else(|| Error::puzzle(format!("a given is in cell {cell}, which does not exist")))?;
    let sym = sym.ok_or_else(|| Error::puzzle(format!("the given of {cell} must be a string")))?;
    let s = geometry.symbols.index_of(sym).ok_or_else(|| {
        Error::puzzle(format!(
            "'{sym}' (for cell {cell}) is not in the symbol set {}",
            geometry.symbols.describe()
        ))
    })?;
    givens[id.index()] = Some(s as u8);
    Ok(())
}
