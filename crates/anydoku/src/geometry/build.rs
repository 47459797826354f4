//! Expansion of a [`GeometrySpec`] into a validated [`Geometry`].
//!
//! Grids become board cells plus row, column, box, region and diagonal shapes; explicit cells are
//! appended in declaration order; extra shapes and cages are resolved through [`selector`]. Every
//! error carries the line and column of the table it comes from.
//!
//! To add a generator, expand it here into plain [`Shape`]s.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use toml::Spanned;
use unicode_segmentation::UnicodeSegmentation;

use super::selector;
use super::spec::{
    CageSpec, CellsSpec, GeometrySpec, GridSpec, PatternSpec, ShapeSpec, SymbolsSpec,
};
use super::{Cell, CellId, Geometry, GeometryError, Rule, Shape, ShapeKind};
use crate::error::Error;
use crate::limits;
use crate::symbols::SymbolSet;

/// Parses and builds a geometry from TOML text.
pub fn from_toml(text: &str) -> Result<Geometry, Error> {
    if text.trim().is_empty() {
        return Err(Error::Syntax {
            message: "the geometry file is empty".into(),
            location: None,
        });
    }
    let spec: GeometrySpec = toml::from_str(text).map_err(|e| table_error(&e, text))?;
    from_spec(&spec, text)
}

/// A TOML error, with a message in the file's terms when a list of tables (`[[grid]]`) was
/// written as one table (`[grid]`).
pub(crate) fn table_error(e: &toml::de::Error, text: &str) -> Error {
    let err = Error::from_toml(e, text);
    let header = e
        .span()
        .and_then(|s| text.get(s.start..))
        .and_then(|t| t.strip_prefix('['))
        .filter(|t| !t.starts_with('['))
        .and_then(|t| t.split_once(']'))
        .map(|(key, _)| key.trim());
    match header {
        Some(key) if e.message().contains("expected a sequence") => Error::Syntax {
            message: format!(
                "[{key}] is one table, but {key} is a list of tables: write [[{key}]] (two \
                 brackets) before each one"
            ),
            location: err.location(),
        },
        _ => err,
    }
}

/// Builds a geometry from its parsed spec; `text` is the source, for error locations.
pub fn from_spec(spec: &GeometrySpec, text: &str) -> Result<Geometry, Error> {
    let symbols = symbols_of(spec).map_err(|e| e.at(text, Some(spec.symbols.span())))?;
    let mut board: BTreeSet<(i32, i32)> = BTreeSet::new();
    for grid in &spec.grid {
        let at_grid = |e: GeometryError| Error::from(e).at(text, Some(grid.span()));
        check_grid(grid.get_ref(), symbols.len()).map_err(at_grid)?;
        let g = grid.get_ref();
        for r in 0..g.size as i32 {
            for c in 0..g.size as i32 {
                board.insert((g.origin[0] + r, g.origin[1] + c));
            }
        }
        limits::check_cells(board.len()).map_err(at_grid)?;
    }
    limits::check_cells(board.len() + spec.cell.len())?;
    let mut cells: Vec<Cell> = board
        .iter()
        .map(|&(r, c)| Cell {
            name: format!("r{r}c{c}"),
            pos: [(c - 1) as f64, (r - 1) as f64],
            board: Some((r, c)),
            poly: None,
        })
        .collect();
    let mut explicit: HashMap<&str, ()> = HashMap::new();
    for cell in &spec.cell {
        let c = cell.get_ref();
        let at_cell = |e: GeometryError| Error::from(e).at(text, Some(cell.span()));
        if explicit.insert(&c.name, ()).is_some() {
            return Err(at_cell(GeometryError::DuplicateCellName(c.name.clone())));
        }
        limits::check_name("cell", &c.name).map_err(at_cell)?;
        limits::check_position(c.pos, &c.name).map_err(at_cell)?;
        if let Some(poly) = &c.poly {
            limits::check_polygon(poly, &c.name).map_err(at_cell)?;
        }
        if parse_board_name(&c.name).is_some() {
            return Err(Error::from(GeometryError::Invalid(format!(
                "explicit cell '{}' uses a board name; choose another name or put the cell in a grid",
                c.name
            )))
            .at(text, Some(cell.span())));
        }
        cells.push(Cell {
            name: c.name.clone(),
            pos: c.pos,
            board: None,
            poly: c.poly.clone(),
        });
    }
    let index: HashMap<String, CellId> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.clone(), CellId(i as u32)))
        .collect();
    let board_id = |r: i32, c: i32| index[&format!("r{r}c{c}")];

    let grid_shapes_count: usize = spec
        .grid
        .iter()
        .map(|g| {
            let g = g.get_ref();
            let n = g.size as usize;
            (g.rows as usize + g.columns as usize) * n
                + g.boxes.map_or(0, |[h, w]| n * n / (h * w).max(1) as usize)
                + g.regions.as_ref().map_or(0, |_| n * n)
                + 2
        })
        .sum();
    let declared = spec.shape.len() + spec.cage.len() + spec.pattern.len();
    limits::check_shapes(grid_shapes_count + declared)?;
    let mut shapes = Vec::new();
    let many = spec.grid.len() > 1;
    let mut grid_names: HashMap<&str, ()> = HashMap::new();
    for (gi, grid) in spec.grid.iter().enumerate() {
        let g = grid.get_ref();
        if let Some(name) = &g.name {
            if grid_names.insert(name, ()).is_some() {
                return Err(Error::from(GeometryError::Invalid(format!(
                    "two grids are named '{name}'; give each its own name (the names tell \
                     their rows, columns and boxes apart: 'Row 1 of {name}')"
                )))
                .at(text, Some(grid.span())));
            }
        }
        let suffix = if many {
            format!(
                " of {}",
                g.name.clone().unwrap_or(format!("grid {}", gi + 1))
            )
        } else {
            String::new()
        };
        grid_shapes(g, &suffix, &board_id, &mut shapes)
            .map_err(|e| Error::from(e).at(text, Some(grid.span())))?;
    }
    shapes.extend(extra_shapes(&spec.shape, &index, &symbols, &cells, text)?);
    let n_cells = cells.len();
    shapes.extend(pattern_shapes(
        &spec.pattern,
        &index,
        n_cells,
        &symbols,
        text,
    )?);
    let first_cage = shapes.len();
    for (i, c) in spec.cage.iter().enumerate() {
        let shape = cage_shape(c, i, &index, text)
            .and_then(|shape| Ok(check_shape(&shape, &symbols, &cells).map(|()| shape)?))
            .map_err(|e| e.at(text, Some(c.span())))?;
        shapes.push(shape);
    }
    overlapping_cage(&shapes[first_cage..], &cells)
        .map_err(|(i, e)| Error::from(e).at(text, Some(spec.cage[i].span())))?;
    let geometry = Geometry::new(spec.name.clone(), symbols, cells, shapes)?;
    check_sums(&geometry)?;
    Ok(geometry)
}

fn symbols_of(spec: &GeometrySpec) -> Result<SymbolSet, Error> {
    let values = spec.values.as_ref().map(|v| v.get_ref().clone());
    let set = match spec.symbols.get_ref() {
        SymbolsSpec::Text(t) => SymbolSet::from_text(t, values),
        SymbolsSpec::List(l) => SymbolSet::from_list(l.clone(), values),
    };
    Ok(set?)
}

fn check_grid(g: &GridSpec, symbols: usize) -> Result<(), GeometryError> {
    if g.size == 0 {
        return Err(GeometryError::Invalid(
            "a grid needs size of at least 1".into(),
        ));
    }
    if g.size as usize > symbols && (g.rows || g.columns) {
        return Err(GeometryError::Invalid(format!(
            "a {0}x{0} grid has rows of {0} cells but there are only {1} symbols",
            g.size, symbols
        )));
    }
    if let Some([h, w]) = g.boxes {
        if h == 0 || w == 0 || !g.size.is_multiple_of(h) || !g.size.is_multiple_of(w) {
            return Err(GeometryError::Invalid(format!(
                "boxes of {h}x{w} do not tile a {0}x{0} grid",
                g.size
            )));
        }
    }
    if g.origin[0] < 1 || g.origin[1] < 1 {
        return Err(GeometryError::Invalid(
            "a grid's origin is [row, col], both at least 1".into(),
        ));
    }
    let cells = g.size as u64 * g.size as u64;
    if cells > limits::MAX_CELLS as u64 {
        return Err(GeometryError::Limit(format!(
            "a {0}x{0} grid has {cells} cells, over the limit of {1} (see docs/LIMITS.md)",
            g.size,
            limits::MAX_CELLS
        )));
    }
    let far = [0, 1].map(|i| g.origin[i] as i64 + g.size as i64 - 1);
    if far.iter().any(|&x| x > limits::MAX_COORDINATE) {
        return Err(GeometryError::Limit(format!(
            "a {0}x{0} grid at [{1}, {2}] reaches row {3}, column {4}, beyond the board's limit of {5} (see docs/LIMITS.md)",
            g.size,
            g.origin[0],
            g.origin[1],
            far[0],
            far[1],
            limits::MAX_COORDINATE
        )));
    }
    Ok(())
}

fn grid_shapes(
    g: &GridSpec,
    suffix: &str,
    id: &dyn Fn(i32, i32) -> CellId,
    shapes: &mut Vec<Shape>,
) -> Result<(), GeometryError> {
    let n = g.size as i32;
    let [r0, c0] = g.origin;
    let unique = |name: String, cells: Vec<CellId>, kind: ShapeKind| Shape {
        name,
        rule: Rule::Unique,
        cells,
        kind,
    };
    if g.rows {
        for r in 0..n {
            let cells = (0..n).map(|c| id(r0 + r, c0 + c)).collect();
            shapes.push(unique(
                format!("Row {}{suffix}", r + 1),
                cells,
                ShapeKind::Row,
            ));
        }
    }
    if g.columns {
        for c in 0..n {
            let cells = (0..n).map(|r| id(r0 + r, c0 + c)).collect();
            shapes.push(unique(
                format!("Column {}{suffix}", c + 1),
                cells,
                ShapeKind::Column,
            ));
        }
    }
    if let Some([h, w]) = g.boxes {
        let (h, w) = (h as i32, w as i32);
        let mut k = 0;
        for br in (0..n).step_by(h as usize) {
            for bc in (0..n).step_by(w as usize) {
                k += 1;
                let mut cells = Vec::with_capacity((h * w) as usize);
                for r in br..br + h {
                    for c in bc..bc + w {
                        cells.push(id(r0 + r, c0 + c));
                    }
                }
                shapes.push(unique(format!("Box {k}{suffix}"), cells, ShapeKind::Box));
            }
        }
    }
    if let Some(map) = &g.regions {
        let labels: Vec<&str> = map
            .get_ref()
            .graphemes(true)
            .filter(|s| !s.trim().is_empty())
            .collect();
        if labels.len() != (n * n) as usize {
            return Err(GeometryError::Invalid(format!(
                "the regions map has {} entries but the grid has {} cells",
                labels.len(),
                n * n
            )));
        }
        let mut regions: BTreeMap<usize, (String, Vec<CellId>)> = BTreeMap::new();
        let mut first_seen: HashMap<&str, usize> = HashMap::new();
        for (i, label) in labels.iter().enumerate() {
            if *label == "." {
                continue;
            }
            let order = *first_seen.entry(label).or_insert(i);
            let (r, c) = (i as i32 / n, i as i32 % n);
            regions
                .entry(order)
                .or_insert_with(|| (label.to_string(), Vec::new()))
                .1
                .push(id(r0 + r, c0 + c));
        }
        for (label, cells) in regions.into_values() {
            shapes.push(unique(
                format!("Region {label}{suffix}"),
                cells,
                ShapeKind::Region,
            ));
        }
    }
    if g.diagonals {
        let main = (0..n).map(|i| id(r0 + i, c0 + i)).collect();
        let anti = (0..n).map(|i| id(r0 + i, c0 + n - 1 - i)).collect();
        shapes.push(unique(
            format!("Diagonal ↘{suffix}"),
            main,
            ShapeKind::Diagonal,
        ));
        shapes.push(unique(
            format!("Diagonal ↙{suffix}"),
            anti,
            ShapeKind::Diagonal,
        ));
    }
    Ok(())
}

/// Resolves a cells spec to ids; `what` names the shape for messages.
/// Errors are located at the cells in `text`, the file they were read from.
pub(crate) fn resolve_cells(
    cells: &Spanned<CellsSpec>,
    what: &str,
    index: &HashMap<String, CellId>,
    text: &str,
) -> Result<Vec<CellId>, Error> {
    resolve(cells, what, index).map_err(|e| e.at(text, Some(cells.span())))
}

fn resolve(
    cells: &Spanned<CellsSpec>,
    what: &str,
    index: &HashMap<String, CellId>,
) -> Result<Vec<CellId>, Error> {
    let tokens: Vec<&str> = match cells.get_ref() {
        CellsSpec::Text(t) => vec![t.as_str()],
        CellsSpec::List(l) => l.iter().map(String::as_str).collect(),
    };
    let mut out = Vec::new();
    for t in tokens {
        // a shape names each cell at most once, so never more cells than there are
        let most = index.len().saturating_sub(out.len());
        let names =
            selector::expand_at_most(t, most).map_err(|e| GeometryError::Invalid(e.to_string()))?;
        for name in names {
            let canonical = parse_board_name(&name)
                .map(|(r, c)| format!("r{r}c{c}"))
                .unwrap_or(name);
            match index.get(&canonical) {
                Some(&id) => out.push(id),
                None if parse_board_name(&canonical).is_none()
                    && selector::looks_like_range(&canonical) =>
                {
                    return Err(GeometryError::Invalid(format!(
                        "bad cell selector '{canonical}' (in {what}): a block of cells is \
                         written r1-2c1-3 (rows 1 to 2, columns 1 to 3), one cell r1c1, and \
                         several separated by spaces"
                    ))
                    .into())
                }
                None => {
                    return Err(GeometryError::UnknownCell {
                        cell: canonical,
                        context: what.to_string(),
                    }
                    .into())
                }
            }
        }
    }
    let mut sorted = out.clone();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        let cell = index
            .iter()
            .find(|(_, &id)| id == w[0])
            .map_or(String::new(), |(name, _)| name.clone());
        return Err(GeometryError::Invalid(format!(
            "{what} names cell {cell} twice; a shape holds each cell once"
        ))
        .into());
    }
    Ok(out)
}

/// The shapes of `[[shape]]` entries: unnamed ones are numbered per kind ("Thermometer 2").
pub(crate) fn extra_shapes(
    specs: &[Spanned<ShapeSpec>],
    index: &HashMap<String, CellId>,
    symbols: &SymbolSet,
    all: &[Cell],
    text: &str,
) -> Result<Vec<Shape>, Error> {
    let mut numbers: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::with_capacity(specs.len());
    for spec in specs {
        let s = spec.get_ref();
        let rule_name = s.rule.as_deref().unwrap_or("unique");
        let title = crate::kinds::by_name(rule_name).map_or("Shape", |(_, k)| k.title());
        let number = numbers.entry(title).or_insert(0);
        *number += 1;
        let name = s.name.clone().unwrap_or(format!("{title} {number}"));
        let shape = (|| {
            let cells = resolve_cells(&s.cells, &format!("shape '{name}'"), index, text)?;
            let rule = crate::kinds::read(rule_name, &json_keys(&s.params), cells.len(), symbols)
                .map_err(|m| GeometryError::Invalid(format!("shape '{name}' {m}")))?;
            let shape = Shape {
                name: name.clone(),
                rule,
                cells,
                kind: ShapeKind::Extra,
            };
            check_shape(&shape, symbols, all)?;
            Ok::<_, Error>(shape)
        })();
        out.push(shape.map_err(|e| e.at(text, Some(spec.span())))?);
    }
    Ok(out)
}

/// The shapes of `[[pattern]]` entries: each applies to every cell unless it lists its cells.
pub(crate) fn pattern_shapes(
    specs: &[Spanned<PatternSpec>],
    index: &HashMap<String, CellId>,
    n_cells: usize,
    symbols: &SymbolSet,
    text: &str,
) -> Result<Vec<Shape>, Error> {
    let mut out = Vec::with_capacity(specs.len());
    for spec in specs {
        let p = spec.get_ref();
        let shape = (|| {
            let kind = match crate::kinds::by_name(&p.kind) {
                Some((_, k)) if k.is_pattern() => k,
                Some((_, k)) => {
                    return Err(GeometryError::Invalid(format!(
                        "\"{}\" is not a pattern; write it as a [[shape]] with rule = \"{}\" and its cells",
                        p.kind,
                        k.name()
                    ))
                    .into())
                }
                None => {
                    return Err(GeometryError::Invalid(format!(
                        "unknown pattern \"{}\"; the patterns are {}",
                        p.kind,
                        crate::kinds::pattern_names()
                    ))
                    .into())
                }
            };
            let name = p.name.clone().unwrap_or(kind.title().to_string());
            let cells = match &p.cells {
                Some(c) => resolve_cells(c, &format!("pattern '{name}'"), index, text)?,
                None => (0..n_cells as u32).map(CellId).collect(),
            };
            let rule = crate::kinds::read(kind.name(), &json_keys(&p.params), cells.len(), symbols)
                .map_err(|m| GeometryError::Invalid(format!("pattern '{name}' {m}")))?;
            Ok::<_, Error>(Shape {
                name,
                rule,
                cells,
                kind: ShapeKind::Extra,
            })
        })();
        out.push(shape.map_err(|e| e.at(text, Some(spec.span())))?);
    }
    Ok(out)
}

/// A TOML table's keys as the JSON map the kinds read.
fn json_keys(params: &BTreeMap<String, toml::Value>) -> serde_json::Map<String, serde_json::Value> {
    params
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
            )
        })
        .collect()
}

/// Builds the shape of a `[[cage]]` entry.
pub(crate) fn cage_shape(
    c: &Spanned<CageSpec>,
    i: usize,
    index: &HashMap<String, CellId>,
    text: &str,
) -> Result<Shape, Error> {
    let c = c.get_ref();
    let name = c.name.clone().unwrap_or(format!("Cage {}", i + 1));
    let cells = resolve_cells(&c.cells, &format!("cage '{name}'"), index, text)?;
    Ok(Shape {
        name,
        rule: Rule::Sum {
            total: c.sum,
            unique: c.unique,
        },
        cells,
        kind: ShapeKind::Cage,
    })
}

/// Rejects a shape that cannot be satisfied on its own: a unique shape with more cells than
/// there are symbols, or a sum shape whose total no assignment of symbol values can reach.
/// Checked where each shape is read, so the message can point at it.
pub fn check_shape(s: &Shape, symbols: &SymbolSet, cells: &[Cell]) -> Result<(), GeometryError> {
    let k = s.cells.len();
    let n = symbols.len();
    let mut sorted = s.cells.clone();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(GeometryError::DuplicateCellInShape {
            shape: s.name.clone(),
            cell: cells[w[0].index()].name.clone(),
        });
    }
    if s.is_unique() && k > n {
        return Err(GeometryError::ShapeTooLarge {
            shape: s.name.clone(),
            cells: k,
            symbols: n,
        });
    }
    let Rule::Sum { total, unique } = s.rule else {
        return Ok(());
    };
    limits::check_total(total, &s.name)?;
    let mut values: Vec<i64> = symbols.values().to_vec();
    values.sort_unstable();
    // values are at most MAX_VALUE and shapes at most MAX_CELLS cells: no overflow
    let (lo, hi) = if unique {
        (
            values[..k].iter().sum::<i64>(),
            values[n - k..].iter().sum::<i64>(),
        )
    } else {
        (values[0] * k as i64, values[n - 1] * k as i64)
    };
    if total < lo || total > hi {
        let distinct = if unique { "distinct " } else { "" };
        return Err(GeometryError::Invalid(format!(
            "'{}' has sum {total}, which is impossible for {k} {distinct}cells (possible: {lo} to {hi})",
            s.name
        )));
    }
    Ok(())
}

/// Rejects sum shapes whose total no assignment of symbol values can reach (see
/// [`check_shape`]), and cage totals that contradict the shapes they tile.
pub fn check_sums(g: &Geometry) -> Result<(), GeometryError> {
    for s in &g.shapes {
        if matches!(s.rule, Rule::Sum { .. }) {
            check_shape(s, &g.symbols, &g.cells)?;
        }
    }
    super::partition::check(g)
}

/// Rejects `[[cage]]` entries that share a cell (Killer cages may not overlap).
pub fn check_disjoint_cages(cages: &[Shape], cells: &[Cell]) -> Result<(), GeometryError> {
    overlapping_cage(cages, cells).map_err(|(_, e)| e)
}

/// [`check_disjoint_cages`], with the index of the later of two overlapping cages (to locate
/// the message at it).
pub fn overlapping_cage(cages: &[Shape], cells: &[Cell]) -> Result<(), (usize, GeometryError)> {
    let mut owner: HashMap<CellId, usize> = HashMap::new();
    for (i, c) in cages.iter().enumerate() {
        for &cell in &c.cells {
            if let Some(&j) = owner.get(&cell) {
                if j != i {
                    return Err((
                        i,
                        GeometryError::Invalid(format!(
                            "cages '{}' and '{}' overlap at {}; Killer cages may not share cells",
                            cages[j].name,
                            c.name,
                            cells[cell.index()].name
                        )),
                    ));
                }
            }
            owner.insert(cell, i);
        }
    }
    Ok(())
}

/// Parses `r{R}c{C}` (any case) into board coordinates.
pub fn parse_board_name(name: &str) -> Option<(i32, i32)> {
    let rest = name.strip_prefix(['r', 'R'])?;
    let cpos = rest.find(['c', 'C'])?;
    let r = rest[..cpos].parse().ok()?;
    let c = rest[cpos + 1..].parse().ok()?;
    Some((r, c))
}
