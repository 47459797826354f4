//! f-puzzles (<https://www.f-puzzles.com>) links and JSON, both ways.
//!
//! An f-puzzles puzzle is a JSON object (`size`, `grid[r][c]` with `value`/`given`/`region`, and
//! one array or flag per constraint), compressed with LZ-string (`compressToBase64`, see
//! [`super::lzstring`]) into the `?load=` parameter of a link. [`parse`] accepts the link, the
//! base64 string or the JSON itself.
//!
//! Supported: any size up to 16 (symbols the numbers 1..N, as f-puzzles shows them), givens, irregular regions
//! (`region`), killer cages (`killercage`, with or without a sum), the diagonals (`diagonal+` is
//! the one from bottom-left to top-right, `diagonal-` from top-left to bottom-right) and extra
//! regions (`extraregion`); `antiknight`/`antiking` become two-cell unique shapes (cells a knight's
//! or king's move apart differ) and `disjointgroups` N-cell ones (same place in every box). The
//! other constraints (thermometers, arrows, kropki dots, …) are read by their kinds
//! ([`crate::kinds`], each kind maps its own keys). Cosmetic lines, cages, circles, rectangles
//! and texts carry no rule and are left out; every other non-empty constraint is named in an
//! error: nothing with a rule is silently dropped.
//!
//! [`to_json`]/[`to_url`] write a puzzle on one N×N board (classic, jigsaw, X, Killer, extra
//! regions, and every constraint kind f-puzzles has: each kind writes its own shapes, see
//! `kinds::fpuzzles`; a kind f-puzzles lacks is refused by name) so it can be opened in the
//! browser. A new constraint kind maps itself in its module; a new board-level key goes into
//! [`SUPPORTED`], [`from_value`] and [`to_json`].

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::{lzstring, Puzzle};
use crate::error::Error;
use crate::geometry::{build, Cell, CellId, Geometry, Rule, Shape, ShapeKind};
use crate::kinds;
use crate::symbols::SymbolSet;

/// Top-level keys anydoku reads.
pub const SUPPORTED: &[&str] = &[
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "killercage",
    "extraregion",
    "antiknight",
    "antiking",
    "disjointgroups",
];

/// Whether anydoku reads the top-level key `key`: one of [`SUPPORTED`] or a key some constraint
/// kind reads (thermometers, arrows, kropki dots, …).
pub fn is_supported(key: &str) -> bool {
    SUPPORTED.contains(&key) || kinds::fpuzzles::reads(key)
}

/// Top-level keys that carry no rule (titles, solver settings, the stored solution, and the
/// cosmetic lines, cages, circles, rectangles and texts a setter draws for looks).
const IGNORED: &[&str] = &[
    "title",
    "author",
    "ruleset",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
    "highlightConflicts",
    "line",
    "cage",
    "circle",
    "rectangle",
    "text",
];

/// Cell keys that carry no rule (pencil marks and colours).
const IGNORED_CELL: &[&str] = &[
    "centerPencilMarks",
    "cornerPencilMarks",
    "highlight",
    "c",
    "cosmetic",
];

/// The biggest grid f-puzzles draws.
pub const MAX_SIZE: usize = 16;

const URL_PREFIX: &str = "https://www.f-puzzles.com/?load=";

fn err(message: impl Into<String>) -> Error {
    Error::puzzle(message)
}

/// Whether `text` looks like an f-puzzles link, base64 string or JSON object (and not like
/// anydoku's own formats).
pub fn looks_like(text: &str) -> bool {
    let t = text.trim();
    if t.starts_with("http://") || t.starts_with("https://") {
        return t.contains("load=");
    }
    if t.starts_with('{') {
        return serde_json::from_str::<Value>(t).is_ok_and(|v| is_fpuzzles_object(&v));
    }
    // a stream too long to decompress is taken for what it claims to be, so that reading it
    // says why it is refused
    is_base64_token(t)
        && match lzstring::decompress_at_most(t, crate::limits::MAX_FPUZZLES_TEXT) {
            Ok(s) => serde_json::from_str::<Value>(&s).is_ok_and(|v| is_fpuzzles_object(&v)),
            Err(e) => e != lzstring::LzError::Corrupt,
        }
}

fn is_fpuzzles_object(v: &Value) -> bool {
    v.get("size").is_some() && v.get("grid").is_some() && v.get("cells").is_none()
}

fn is_base64_token(t: &str) -> bool {
    t.len() >= 8
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=')
}

/// Undoes `%XX` escapes of a link's query value (and `+`, which links sometimes carry for `+`).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("");
            if let Ok(v) = u8::from_str_radix(hex, 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The f-puzzles JSON of a link, a base64 string or JSON text.
pub fn decode(text: &str) -> Result<Value, Error> {
    let t = text.trim();
    let json_text = if t.starts_with('{') {
        t.to_string()
    } else {
        let data = if t.starts_with("http://") || t.starts_with("https://") {
            let start = t.find("load=").ok_or_else(|| {
                err("this link has no `load=` parameter, so it holds no f-puzzles puzzle")
            })? + "load=".len();
            let rest = &t[start..];
            let end = rest.find('&').unwrap_or(rest.len());
            percent_decode(&rest[..end]).replace(' ', "+")
        } else {
            t.to_string()
        };
        if !is_base64_token(&data) {
            return Err(err(
                "not an f-puzzles puzzle: expected a link with ?load=, its base64 string or its JSON",
            ));
        }
        lzstring::decompress_at_most(&data, crate::limits::MAX_FPUZZLES_TEXT).map_err(|e| match e {
            lzstring::LzError::Corrupt => err(
                "the f-puzzles data is corrupt: LZ-string decompression failed (is the link complete?)",
            ),
            e => err(format!("the f-puzzles data is refused: {e}")),
        })?
    };
    serde_json::from_str(&json_text).map_err(|e| match Error::from_json(&e) {
        Error::Syntax { message, location } => Error::Syntax {
            message: format!("f-puzzles JSON: {message}"),
            location,
        },
        other => other,
    })
}

/// Reads an f-puzzles link, base64 string or JSON into a puzzle.
pub fn parse(text: &str) -> Result<Puzzle, Error> {
    from_value(&decode(text)?)
}

/// Whether a JSON value holds anything (not `false`, `null`, `""`, `[]` or `{}`).
fn non_empty(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => false,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => true,
    }
}

/// Box height and width of f-puzzles' default regions for size `n` (1×n when n is prime).
pub fn default_boxes(n: usize) -> (usize, usize) {
    let mut h = 1;
    for d in 1..=n {
        if d * d > n {
            break;
        }
        if n.is_multiple_of(d) {
            h = d;
        }
    }
    (h, n / h)
}

/// `R3C4` (any case) as 0-based (row, col) inside an `n`×`n` grid.
fn cell_ref(v: &Value, n: usize, what: &str) -> Result<(usize, usize), Error> {
    let s = v.as_str().ok_or_else(|| {
        err(format!(
            "{what}: a cell must be a string like \"R1C1\", not {v}"
        ))
    })?;
    match build::parse_board_name(s) {
        Some((r, c)) if r >= 1 && c >= 1 && r as usize <= n && c as usize <= n => {
            Ok((r as usize - 1, c as usize - 1))
        }
        _ => Err(err(format!(
            "{what}: cell \"{s}\" is not a cell of the {n}x{n} grid"
        ))),
    }
}

fn cells_of(entry: &Value, n: usize, what: &str) -> Result<Vec<(usize, usize)>, Error> {
    let cells = entry
        .get("cells")
        .and_then(Value::as_array)
        .ok_or_else(|| err(format!("{what} has no \"cells\" list")))?;
    if cells.is_empty() {
        return Err(err(format!("{what} has no cells")));
    }
    cells.iter().map(|c| cell_ref(c, n, what)).collect()
}

/// Builds a puzzle from f-puzzles JSON. Unsupported constraints are listed in the error.
pub fn from_value(v: &Value) -> Result<Puzzle, Error> {
    let obj = v
        .as_object()
        .ok_or_else(|| err("f-puzzles data must be a JSON object"))?;
    let mut unsupported: Vec<String> = obj
        .iter()
        .filter(|(k, x)| !is_supported(k) && !IGNORED.contains(&k.as_str()) && non_empty(x))
        .map(|(k, _)| k.clone())
        .collect();
    let n = obj
        .get("size")
        .and_then(Value::as_u64)
        .ok_or_else(|| err("f-puzzles data has no numeric \"size\""))? as usize;
    if n == 0 || n > MAX_SIZE {
        return Err(err(format!(
            "f-puzzles size {n} is not supported (1 to {MAX_SIZE})"
        )));
    }
    let grid = obj
        .get("grid")
        .and_then(Value::as_array)
        .ok_or_else(|| err("f-puzzles data has no \"grid\""))?;
    if grid.len() != n
        || grid
            .iter()
            .any(|r| r.as_array().is_none_or(|r| r.len() != n))
    {
        return Err(err(format!(
            "the f-puzzles \"grid\" must be {n} rows of {n} cells"
        )));
    }
    let (givens, region, irregular) = read_cells(grid, n, &mut unsupported)?;
    if !unsupported.is_empty() {
        return Err(err(format!(
            "this f-puzzles puzzle uses constraints anydoku does not support yet: {} (supported: givens, regions, {}, {})",
            unsupported.join(", "),
            SUPPORTED[2..].join(", "),
            kinds::fpuzzles::keys()
        )));
    }

    // f-puzzles shows the values 1..N as numbers (`10` to `16` on a 16x16)
    let symbols = SymbolSet::from_list((1..=n).map(|v| v.to_string()).collect(), None)?;
    let id = |r: usize, c: usize| CellId((r * n + c) as u32);
    let cells: Vec<Cell> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            Cell {
                name: format!("r{}c{}", r + 1, c + 1),
                pos: [c as f64, r as f64],
                board: Some((r as i32 + 1, c as i32 + 1)),
                poly: None,
            }
        })
        .collect();
    let mut shapes = board_shapes(obj, n, &region, irregular);
    let list = |key: &str| -> Result<Vec<Value>, Error> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => Ok(a.clone()),
            Some(other) => Err(err(format!("\"{key}\" must be a list, not {other}"))),
        }
    };
    for (i, cage) in list("killercage")?.iter().enumerate() {
        let name = format!("Cage {}", i + 1);
        let cells: Vec<CellId> = cells_of(cage, n, &name)?
            .into_iter()
            .map(|(r, c)| id(r, c))
            .collect();
        let total = match cage.get("value") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.trim().is_empty() => None,
            Some(Value::String(s)) => Some(s.trim().parse::<i64>().map_err(|_| {
                err(format!(
                    "{name} has value \"{s}\", which is not a number (anydoku supports numeric cage sums)"
                ))
            })?),
            Some(Value::Number(x)) => Some(x.as_i64().ok_or_else(|| {
                err(format!(
                    "{name} has value {x}, which is not a whole number (cage sums are whole numbers)"
                ))
            })?),
            Some(other) => return Err(err(format!("{name} has value {other}, expected a number"))),
        };
        let rule = match total {
            Some(total) => Rule::Sum {
                total,
                unique: true,
            },
            None => Rule::Unique,
        };
        shapes.push(Shape {
            name,
            rule,
            cells,
            kind: ShapeKind::Cage,
        });
    }
    extra_shapes(obj, n, &list("extraregion")?, &mut shapes)?;
    kinds::fpuzzles::import(obj, n, &mut shapes).map_err(err)?;
    let title = obj
        .get("title")
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
        .map_or(format!("f-puzzles {n}x{n}"), |t| {
            // a title is free text: a long one is cut to the longest name taken
            let t = t.trim();
            let mut end = t.len().min(crate::limits::MAX_NAME_BYTES);
            while !t.is_char_boundary(end) {
                end -= 1;
            }
            t[..end].to_string()
        });
    let geometry = Geometry::new(title, symbols, cells, shapes)?;
    build::check_sums(&geometry)?;
    Ok(Puzzle {
        geometry: Arc::new(geometry),
        givens,
    })
}

/// A unique shape.
fn unique(name: String, cells: Vec<CellId>, kind: ShapeKind) -> Shape {
    Shape {
        name,
        rule: Rule::Unique,
        cells,
        kind,
    }
}

/// The givens and regions of the grid's cells, and whether any cell names its region (an
/// irregular layout); a cell key anydoku does not support is added to `unsupported`.
#[allow(clippy::type_complexity)]
fn read_cells(
    grid: &[Value],
    n: usize,
    unsupported: &mut Vec<String>,
) -> Result<(Vec<Option<u8>>, Vec<Option<i64>>, bool), Error> {
    let cell_obj = |r: usize, c: usize| &grid[r][c];
    // givens, regions, unsupported cell keys
    let mut givens = vec![None; n * n];
    let (bh, bw) = default_boxes(n);
    let mut region: Vec<Option<i64>> = (0..n * n)
        .map(|i| Some(((i / n) / bh * (n / bw) + (i % n) / bw) as i64))
        .collect();
    let mut irregular = false;
    for r in 0..n {
        for c in 0..n {
            let cell = cell_obj(r, c);
            let Some(cell) = cell.as_object() else {
                return Err(err(format!(
                    "grid cell R{}C{} is not an object",
                    r + 1,
                    c + 1
                )));
            };
            for (k, val) in cell {
                match k.as_str() {
                    "value" | "given" | "region" => {}
                    k if IGNORED_CELL.contains(&k) => {}
                    k if kinds::fpuzzles::reads(&format!("cell:{k}")) => {}
                    k if non_empty(val) => {
                        let name = format!("cell {k}");
                        if !unsupported.contains(&name) {
                            unsupported.push(name);
                        }
                    }
                    _ => {}
                }
            }
            let given = cell.get("given").and_then(Value::as_bool).unwrap_or(false);
            if given {
                let value = cell.get("value").and_then(Value::as_u64).ok_or_else(|| {
                    err(format!(
                        "given cell R{}C{} has no numeric value",
                        r + 1,
                        c + 1
                    ))
                })? as usize;
                if value == 0 || value > n {
                    return Err(err(format!(
                        "given R{}C{} = {value} is outside 1..{n}",
                        r + 1,
                        c + 1
                    )));
                }
                givens[r * n + c] = Some((value - 1) as u8);
            }
            if let Some(reg) = cell.get("region") {
                irregular = true;
                region[r * n + c] = match reg {
                    Value::Null => None,
                    _ => Some(reg.as_i64().ok_or_else(|| {
                        err(format!(
                            "cell R{}C{} has region {reg}, expected a number",
                            r + 1,
                            c + 1
                        ))
                    })?),
                };
            }
        }
    }
    Ok((givens, region, irregular))
}

/// Rows, columns, boxes or regions, and the diagonals the data asks for.
fn board_shapes(
    obj: &Map<String, Value>,
    n: usize,
    region: &[Option<i64>],
    irregular: bool,
) -> Vec<Shape> {
    let id = |r: usize, c: usize| CellId((r * n + c) as u32);
    let mut shapes = Vec::new();
    for r in 0..n {
        let cells = (0..n).map(|c| id(r, c)).collect();
        shapes.push(unique(format!("Row {}", r + 1), cells, ShapeKind::Row));
    }
    for c in 0..n {
        let cells = (0..n).map(|r| id(r, c)).collect();
        shapes.push(unique(
            format!("Column {}", c + 1),
            cells,
            ShapeKind::Column,
        ));
    }
    let mut regions: BTreeMap<i64, Vec<CellId>> = BTreeMap::new();
    for (i, reg) in region.iter().enumerate() {
        if let Some(reg) = reg {
            regions.entry(*reg).or_default().push(CellId(i as u32));
        }
    }
    let (word, kind) = if irregular {
        ("Region", ShapeKind::Region)
    } else {
        ("Box", ShapeKind::Box)
    };
    for (k, cells) in regions.into_values().enumerate() {
        shapes.push(unique(format!("{word} {}", k + 1), cells, kind));
    }
    if obj.get("diagonal-").is_some_and(non_empty) {
        let cells = (0..n).map(|i| id(i, i)).collect();
        shapes.push(unique("Diagonal ↘".into(), cells, ShapeKind::Diagonal));
    }
    if obj.get("diagonal+").is_some_and(non_empty) {
        let cells = (0..n).map(|i| id(n - 1 - i, i)).collect();
        shapes.push(unique("Diagonal ↗".into(), cells, ShapeKind::Diagonal));
    }
    shapes
}

/// Extra regions, anti-knight and anti-king pairs, disjoint groups.
fn extra_shapes(
    obj: &Map<String, Value>,
    n: usize,
    extra_regions: &[Value],
    shapes: &mut Vec<Shape>,
) -> Result<(), Error> {
    let id = |r: usize, c: usize| CellId((r * n + c) as u32);
    let (bh, bw) = default_boxes(n);
    for (i, extra) in extra_regions.iter().enumerate() {
        let name = format!("Extra region {}", i + 1);
        let cells = cells_of(extra, n, &name)?
            .into_iter()
            .map(|(r, c)| id(r, c))
            .collect();
        shapes.push(unique(name, cells, ShapeKind::Extra));
    }
    let flag = |key: &str| obj.get(key).is_some_and(non_empty);
    let pairs = |moves: &[(i64, i64)], word: &str, shapes: &mut Vec<Shape>| {
        for r in 0..n as i64 {
            for c in 0..n as i64 {
                for &(dr, dc) in moves {
                    let (r2, c2) = (r + dr, c + dc);
                    if (0..n as i64).contains(&r2) && (0..n as i64).contains(&c2) {
                        let (a, b) = (id(r as usize, c as usize), id(r2 as usize, c2 as usize));
                        shapes.push(unique(
                            format!("{word} r{}c{}-r{}c{}", r + 1, c + 1, r2 + 1, c2 + 1),
                            vec![a, b],
                            ShapeKind::Extra,
                        ));
                    }
                }
            }
        }
    };
    if flag("antiknight") {
        pairs(&[(1, 2), (2, 1), (1, -2), (2, -1)], "Anti-knight", shapes);
    }
    if flag("antiking") {
        pairs(&[(1, 1), (1, -1)], "Anti-king", shapes);
    }
    if flag("disjointgroups") {
        let mut groups: BTreeMap<usize, Vec<CellId>> = BTreeMap::new();
        for r in 0..n {
            for c in 0..n {
                groups
                    .entry((r % bh) * bw + c % bw)
                    .or_default()
                    .push(id(r, c));
            }
        }
        for (k, cells) in groups.into_values().enumerate() {
            shapes.push(unique(
                format!("Disjoint group {}", k + 1),
                cells,
                ShapeKind::Extra,
            ));
        }
    }
    Ok(())
}

/// The side of the square board `r1c1..rNcN` the geometry lies on, if it is one.
fn square_board(g: &Geometry) -> Option<usize> {
    let n = g.symbol_count();
    if g.cell_count() != n * n {
        return None;
    }
    for c in g.cells.iter() {
        let (r, col) = c.board?;
        if r < 1 || col < 1 || r as usize > n || col as usize > n {
            return None;
        }
    }
    Some(n)
}

/// The side N of `g`'s board when f-puzzles can draw it: one N×N board (N ≤ 16), and symbols
/// of values 1..N where a shape reads values.
fn board_size(g: &Geometry) -> Result<usize, Error> {
    let n = square_board(g).ok_or_else(|| {
        err(format!(
            "'{}' is not a single NxN grid with N symbols, so f-puzzles cannot show it",
            g.name
        ))
    })?;
    if n > MAX_SIZE {
        return Err(err(format!(
            "f-puzzles draws grids up to {MAX_SIZE}x{MAX_SIZE}; '{}' is {n}x{n}",
            g.name
        )));
    }
    let valued = g.shapes.iter().any(|s| !matches!(s.rule, Rule::Unique));
    if valued && g.symbols.values() != (1..=n as i64).collect::<Vec<_>>() {
        return Err(err(
            "f-puzzles constraints read digits 1..N, but this puzzle's symbols have other values",
        ));
    }
    Ok(n)
}

/// The f-puzzles JSON of a puzzle on one N×N board (N ≤ 16): rows and columns, boxes or regions,
/// diagonals, Killer cages (with or without sums), other unique shapes as extra regions, and
/// every constraint kind f-puzzles has (a kind it lacks is refused by name).
pub fn to_json(p: &Puzzle) -> Result<Value, Error> {
    let g = &p.geometry;
    let n = board_size(g)?;
    let rc = |id: CellId| {
        let (r, c) = g.cell(id).board.expect("board cell");
        (r as usize - 1, c as usize - 1)
    };
    let name = |id: CellId| {
        let (r, c) = rc(id);
        format!("R{}C{}", r + 1, c + 1)
    };
    let mut rows = vec![false; n];
    let mut cols = vec![false; n];
    let mut region = vec![None::<usize>; n * n];
    let mut region_count = 0;
    let (mut diag_minus, mut diag_plus) = (false, false);
    let mut cages = Vec::new();
    let mut extras = Vec::new();
    let mut constraints = Vec::new();
    for s in &g.shapes {
        let pos: Vec<(usize, usize)> = s.cells.iter().map(|&c| rc(c)).collect();
        let full = s.cells.len() == n && s.rule == Rule::Unique;
        let same_row = pos.iter().all(|p| p.0 == pos[0].0);
        let same_col = pos.iter().all(|p| p.1 == pos[0].1);
        if full && same_row {
            rows[pos[0].0] = true;
        } else if full && same_col {
            cols[pos[0].1] = true;
        } else if full && pos.iter().all(|p| p.0 == p.1) {
            diag_minus = true;
        } else if full && pos.iter().all(|p| p.0 + p.1 == n - 1) {
            diag_plus = true;
        } else if let Rule::Sum { total, unique } = s.rule {
            if !unique {
                return Err(err(format!(
                    "'{}' is a sum without the no-repeat rule; f-puzzles killer cages always forbid repeats",
                    s.name
                )));
            }
            let cells: Vec<String> = s.cells.iter().map(|&c| name(c)).collect();
            cages.push(json!({"cells": cells, "value": total.to_string()}));
        } else if let Rule::Constraint(_) = s.rule {
            constraints.push(s);
        } else if s.kind == ShapeKind::Cage {
            let cells: Vec<String> = s.cells.iter().map(|&c| name(c)).collect();
            cages.push(json!({"cells": cells}));
        } else if full
            && matches!(
                s.kind,
                ShapeKind::Box | ShapeKind::Region | ShapeKind::Extra
            )
            && pos.iter().all(|p| region[p.0 * n + p.1].is_none())
        {
            for p in &pos {
                region[p.0 * n + p.1] = Some(region_count);
            }
            region_count += 1;
        } else {
            let cells: Vec<String> = s.cells.iter().map(|&c| name(c)).collect();
            extras.push(json!({ "cells": cells }));
        }
    }
    if rows.iter().any(|r| !r) || cols.iter().any(|c| !c) {
        return Err(err(format!(
            "'{}' does not have every row and column as a shape; f-puzzles always has them",
            g.name
        )));
    }
    // Cells in no region: f-puzzles needs one per cell; a grid without regions cannot be shown.
    // A row (then a column) none of whose cells has a region is one (a layout of rows as
    // regions, or an irregular one whose region along a row is that row).
    for line in (0..n)
        .map(|r| (0..n).map(move |c| r * n + c).collect::<Vec<_>>())
        .chain((0..n).map(|c| (0..n).map(move |r| r * n + c).collect()))
    {
        if line.iter().all(|&i| region[i].is_none()) {
            line.iter().for_each(|&i| region[i] = Some(region_count));
            region_count += 1;
        }
    }
    if region.iter().any(Option::is_none) {
        return Err(err(format!(
            "'{}' does not split the grid into {n} regions of {n} cells; f-puzzles needs them",
            g.name
        )));
    }
    let grid = grid_json(p, n, &region, rc);
    let mut out = Map::new();
    out.insert("size".into(), json!(n));
    out.insert("title".into(), json!(g.name));
    out.insert("author".into(), json!(""));
    out.insert("ruleset".into(), json!(""));
    out.insert("grid".into(), json!(grid));
    if diag_plus {
        out.insert("diagonal+".into(), json!(true));
    }
    if diag_minus {
        out.insert("diagonal-".into(), json!(true));
    }
    if !cages.is_empty() {
        out.insert("killercage".into(), json!(cages));
    }
    if !extras.is_empty() {
        out.insert("extraregion".into(), json!(extras));
    }
    kinds::fpuzzles::export(g, n, &constraints, &mut out).map_err(err)?;
    Ok(Value::Object(out))
}

/// The `grid` of the f-puzzles JSON: per cell its given (if any) and its region; `rc` gives a
/// cell's 0-based row and column.
fn grid_json(
    p: &Puzzle,
    n: usize,
    region: &[Option<usize>],
    rc: impl Fn(CellId) -> (usize, usize),
) -> Vec<Vec<Value>> {
    let mut cell_at = vec![CellId(0); n * n];
    for i in 0..p.geometry.cell_count() {
        let (r, c) = rc(CellId(i as u32));
        cell_at[r * n + c] = CellId(i as u32);
    }
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let mut cell = Map::new();
                    if let Some(v) = p.givens[cell_at[r * n + c].index()] {
                        cell.insert("value".into(), json!(v as usize + 1));
                        cell.insert("given".into(), json!(true));
                    }
                    cell.insert("region".into(), json!(region[r * n + c].unwrap()));
                    Value::Object(cell)
                })
                .collect()
        })
        .collect()
}

/// An f-puzzles link that opens the puzzle in the browser.
pub fn to_url(p: &Puzzle) -> Result<String, Error> {
    let text = serde_json::to_string(&to_json(p)?).expect("JSON serialises");
    Ok(format!(
        "{URL_PREFIX}{}",
        lzstring::compress_to_base64(&text)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_boxes_match_f_puzzles() {
        assert_eq!(default_boxes(9), (3, 3));
        assert_eq!(default_boxes(6), (2, 3));
        assert_eq!(default_boxes(8), (2, 4));
        assert_eq!(default_boxes(12), (3, 4));
        assert_eq!(default_boxes(16), (4, 4));
        assert_eq!(default_boxes(7), (1, 7));
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%2Bb%3D"), "a+b=");
        assert_eq!(percent_decode("abc%"), "abc%");
        assert_eq!(percent_decode("abc%4"), "abc%4");
    }
}
