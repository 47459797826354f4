//! Reading one-line JSON models fast: what `batch` does with each line of a `.jsonl` file.
//!
//! [`split_members`] finds a line's top-level members with one validating pass over its bytes
//! (strings, numbers, nesting: a line that is not well-formed JSON is left to serde, which says
//! what is wrong), and when the layout of a line seen before is known it recognises that layout
//! by comparing its text instead of scanning it. [`geometry_from_members`] builds a new layout
//! from the members, reading the common plain form of cells and shapes (no escapes, no
//! polygons) by a byte scan with borrowed names and anything else through serde;
//! [`givens_from_text`] reads the givens without building a JSON map. Each piece is tested
//! against serde (same results on what it accepts; everything else is left to serde).
//!
//! To accept a new member of the model, add it to [`Members`] and to the key match in
//! [`split_members`] (and to [`super::json::ModelJson`]).

use std::borrow::Cow;

use serde::Deserialize;

use super::json::{build_geometry, build_geometry_on, put_given, CellRef, ShapeRef};
use crate::error::Error;
use crate::geometry::Geometry;

/// The top-level members of a one-line model, located by a byte scan without parsing them:
/// what a batch uses to recognise a line that repeats the layout it has already built.
///
/// `known` holds the raw text of a layout seen before (symbols, values, cells, shapes, as
/// [`Members::layout_text`] gives them); a member whose text starts with the known one is taken
/// as that text with one comparison instead of a scan (a repeated Samurai layout is most of a
/// 34 kB line). `None` when the line is not a plain JSON object of the model's members (an
/// unknown or repeated key, a value that is not well-formed JSON): the caller falls back to the
/// full parser, which reports what is wrong. Every member is checked to be well-formed JSON (a
/// known layout member by its equality with the text of one that was), but not against the
/// model's schema.
pub fn split_members<'a>(line: &'a str, known: Option<&[String; 4]>) -> Option<Members<'a>> {
    let b = line.as_bytes();
    let mut m = Members::default();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return (skip_ws(b, i + 1) == b.len()).then_some(m);
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let end = skip_string(b, i)?;
        let key = &line[i + 1..end - 1];
        i = skip_ws(b, end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        let slot = match key {
            "name" => &mut m.name,
            "symbols" => &mut m.symbols,
            "values" => &mut m.values,
            "cells" => &mut m.cells,
            "shapes" => &mut m.shapes,
            "givens" => &mut m.givens,
            "solution" => &mut m.solution,
            "certificates" => &mut m.certificates,
            "source" => &mut m.source,
            "expect" => &mut m.expect,
            _ => return None,
        };
        if slot.is_some() {
            return None;
        }
        let expected = known.and_then(|k| match key {
            "symbols" => Some(&k[0]),
            "values" => Some(&k[1]),
            "cells" => Some(&k[2]),
            "shapes" => Some(&k[3]),
            _ => None,
        });
        let rest = &b[i..];
        let len = match expected {
            // a known value (a whole JSON value) followed by a delimiter is exactly that value
            Some(k)
                if !k.is_empty()
                    && rest.starts_with(k.as_bytes())
                    && rest.get(k.len()).is_some_and(|c| {
                        matches!(c, b',' | b'}' | b' ' | b'\t' | b'\r' | b'\n')
                    }) =>
            {
                k.len()
            }
            _ => skip_value(b, i)? - i,
        };
        *slot = Some(&line[i..i + len]);
        i = skip_ws(b, i + len);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return (skip_ws(b, i + 1) == b.len()).then_some(m),
            _ => return None,
        }
    }
}

/// The raw text of each top-level member of a model line (see [`split_members`]).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Members<'a> {
    pub name: Option<&'a str>,
    pub symbols: Option<&'a str>,
    pub values: Option<&'a str>,
    pub cells: Option<&'a str>,
    pub shapes: Option<&'a str>,
    pub givens: Option<&'a str>,
    pub solution: Option<&'a str>,
    pub certificates: Option<&'a str>,
    pub source: Option<&'a str>,
    pub expect: Option<&'a str>,
}

impl Members<'_> {
    /// The layout's text (symbols, values or "", cells, shapes), as serde's raw values give it
    /// (`None` when a required member is missing).
    pub fn layout_text(&self) -> Option<[&str; 4]> {
        Some([
            self.symbols?,
            self.values.unwrap_or(""),
            self.cells?,
            self.shapes?,
        ])
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b
        .get(i)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
    {
        i += 1;
    }
    i
}

/// The end of the well-formed JSON value starting at `i`, or `None` when it is not one (or is
/// nested deeper than 64 levels: such lines take the full parser). One pass over the bytes.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    skip_value_at(b, i, 0)
}

fn skip_value_at(b: &[u8], i: usize, depth: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'[' | b'{' if depth >= 64 => None,
        b'[' => {
            let mut j = skip_ws(b, i + 1);
            if b.get(j) == Some(&b']') {
                return Some(j + 1);
            }
            loop {
                j = skip_ws(b, skip_value_at(b, j, depth + 1)?);
                match *b.get(j)? {
                    b',' => j = skip_ws(b, j + 1),
                    b']' => return Some(j + 1),
                    _ => return None,
                }
            }
        }
        b'{' => {
            let mut j = skip_ws(b, i + 1);
            if b.get(j) == Some(&b'}') {
                return Some(j + 1);
            }
            loop {
                if b.get(j) != Some(&b'"') {
                    return None;
                }
                j = skip_ws(b, skip_string(b, j)?);
                if b.get(j) != Some(&b':') {
                    return None;
                }
                j = skip_ws(b, skip_value_at(b, skip_ws(b, j + 1), depth + 1)?);
                match *b.get(j)? {
                    b',' => j = skip_ws(b, j + 1),
                    b'}' => return Some(j + 1),
                    _ => return None,
                }
            }
        }
        b't' => b[i..].starts_with(b"true").then_some(i + 4),
        b'f' => b[i..].starts_with(b"false").then_some(i + 5),
        b'n' => b[i..].starts_with(b"null").then_some(i + 4),
        _ => skip_number(b, i),
    }
}

/// The end of the JSON number at `i`.
fn skip_number(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |b: &[u8], mut i: usize| {
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > start).then_some(i)
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = if b.get(i) == Some(&b'0') {
        i + 1
    } else {
        digits(b, i)?
    };
    if b.get(i) == Some(&b'.') {
        i = digits(b, i + 1)?;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(b, i)?;
    }
    Some(i)
}

/// The end of the JSON string whose opening quote is at `i` (control characters and unknown
/// escapes are errors; the text is already valid UTF-8).
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        // eight bytes at a time up to the first quote, backslash or control character
        while let Some(chunk) = b.get(j..j + 8) {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            let special = special_bytes(word);
            if special != 0 {
                j += special.trailing_zeros() as usize / 8;
                break;
            }
            j += 8;
        }
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => match *b.get(j + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j += 2,
                b'u' if b.get(j + 2..j + 6)?.iter().all(u8::is_ascii_hexdigit) => j += 6,
                _ => return None,
            },
            0..=0x1f => return None,
            _ => j += 1,
        }
    }
}

/// The high bit of each byte of `word` (little-endian) that is a quote, a backslash or below
/// 0x20, possibly also of some bytes after the first such byte: the lowest bit set always marks
/// one (the borrows of the subtractions only run upwards).
#[inline(always)]
fn special_bytes(word: u64) -> u64 {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES * 0x80;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    zero_byte(word ^ (ONES * b'"' as u64))
        | zero_byte(word ^ (ONES * b'\\' as u64))
        | (word.wrapping_sub(ONES * 0x20) & !word & HIGH)
}

/// The geometry of a line split by [`split_members`], read without copying the names it does not
/// keep (what a batch builds for each new layout). Same checks and messages as
/// [`from_model`](super::json::from_model).
pub fn geometry_from_members(m: &Members) -> Result<Geometry, Error> {
    // the common plain form is read by a byte scan; anything else (escapes, polygons, other
    // spacing of numbers, errors) by serde
    let cells: Vec<CellRef> = match m.cells.and_then(plain_cells) {
        Some(cells) => cells,
        None => part(m.cells, "cells")?,
    };
    build_geometry(
        part(m.name, "name")?,
        part(m.symbols, "symbols")?,
        m.values.map(|v| part(Some(v), "values")).transpose()?,
        &cells,
        &shapes_of(m)?,
    )
}

/// [`geometry_from_members`] for a line whose symbols, values and cells have the same text as
/// those `base` was built from: only its name and shapes are read (a batch of Killers on one
/// grid differs only in its cages). Same checks and messages.
pub fn geometry_on_members(base: &Geometry, m: &Members) -> Result<Geometry, Error> {
    build_geometry_on(base, part(m.name, "name")?, &shapes_of(m)?)
}

/// A member read by serde.
fn part<'a, T: Deserialize<'a>>(text: Option<&'a str>, what: &str) -> Result<T, Error> {
    let text = text.ok_or_else(|| Error::puzzle(format!("the model has no \"{what}\"")))?;
    serde_json::from_str(text).map_err(|e| Error::from_json(&e))
}

/// The shapes member, by the byte scan in its plain form, else by serde.
fn shapes_of<'a>(m: &Members<'a>) -> Result<Vec<ShapeRef<'a>>, Error> {
    match m.shapes.and_then(plain_shapes) {
        Some(shapes) => Ok(shapes),
        None => part(m.shapes, "shapes"),
    }
}

/// Reads a JSON array of objects, calling `visit(Some((key, start)))` for each member of each
/// object, which reads the value starting at byte `start` and returns where it ends, and
/// `visit(None)` after each object (any `Some` it returns then goes on); `None` when the text is
/// not such an array or the visitor says no. (The visitor reads each value itself, so a list of
/// cells is scanned once.)
fn plain_objects<'a>(
    text: &'a str,
    mut visit: impl FnMut(Option<(&'a str, usize)>) -> Option<usize>,
) -> Option<()> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b']') {
        return (skip_ws(b, i + 1) == b.len()).then_some(());
    }
    loop {
        if b.get(i) != Some(&b'{') {
            return None;
        }
        i = skip_ws(b, i + 1);
        if b.get(i) != Some(&b'}') {
            loop {
                let end_key = skip_string(b, i)?;
                let key = plain_str(text, i, end_key)?;
                i = skip_ws(b, end_key);
                if b.get(i) != Some(&b':') {
                    return None;
                }
                i = skip_ws(b, i + 1);
                i = skip_ws(b, visit(Some((key, i)))?);
                match b.get(i) {
                    Some(b',') => i = skip_ws(b, i + 1),
                    Some(b'}') => break,
                    _ => return None,
                }
            }
        }
        visit(None)?;
        i = skip_ws(b, i + 1);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b']') => return (skip_ws(b, i + 1) == b.len()).then_some(()),
            _ => return None,
        }
    }
}

/// The contents of the JSON string `text[from..to]` (quotes included), when it has no escapes.
fn plain_str(text: &str, from: usize, to: usize) -> Option<&str> {
    let inner = text.get(from + 1..to - 1)?;
    (!inner.contains('\\')).then_some(inner)
}

/// A JSON string value without escapes.
fn plain_string_value(v: &str) -> Option<&str> {
    (v.len() >= 2 && v.starts_with('"')).then(|| plain_str(v, 0, v.len()))?
}

/// `[x, y]`, two JSON numbers.
fn plain_pos(v: &str) -> Option<[f64; 2]> {
    let inner = v.strip_prefix('[')?.strip_suffix(']')?;
    let (x, y) = inner.split_once(',')?;
    Some([x.trim().parse().ok()?, y.trim().parse().ok()?])
}

/// The JSON value of `text` at byte `start` and where it ends.
fn value_at(text: &str, start: usize) -> Option<(&str, usize)> {
    let end = skip_value(text.as_bytes(), start)?;
    Some((&text[start..end], end))
}

/// The cells of a model in their plain form (name and position, no escapes), or `None`.
fn plain_cells(text: &str) -> Option<Vec<CellRef<'_>>> {
    let mut cells = Vec::new();
    let (mut name, mut pos) = (None, None);
    plain_objects(text, |member| {
        let Some((key, start)) = member else {
            cells.push(CellRef {
                name: Cow::Borrowed(name.take()?),
                pos: pos.take()?,
                poly: None,
            });
            return Some(0);
        };
        let (value, end) = value_at(text, start)?;
        match key {
            "name" if name.is_none() => name = Some(plain_string_value(value)?),
            "pos" if pos.is_none() => pos = Some(plain_pos(value)?),
            _ => return None,
        }
        Some(end)
    })?;
    Some(cells)
}

/// The shapes of a model in their plain form (no escapes), or `None`.
fn plain_shapes(text: &str) -> Option<Vec<ShapeRef<'_>>> {
    let mut shapes = Vec::new();
    let (mut name, mut rule, mut cells, mut sum, mut unique) = (None, None, None, None, None);
    let mut keys = serde_json::Map::new();
    let b = text.as_bytes();
    plain_objects(text, |member| {
        let Some((key, start)) = member else {
            shapes.push(ShapeRef {
                name: Cow::Borrowed(name.take()?),
                rule: Cow::Borrowed(rule.take()?),
                cells: cells.take()?,
                sum: sum.take(),
                unique: unique.take(),
                keys: std::mem::take(&mut keys),
            });
            return Some(0);
        };
        if key == "cells" && cells.is_none() {
            // a list of strings, read in one pass
            if b.get(start) != Some(&b'[') {
                return None;
            }
            // (a capacity that holds most shapes without growing)
            let mut list = Vec::with_capacity(16);
            let mut i = skip_ws(b, start + 1);
            if b.get(i) != Some(&b']') {
                loop {
                    if b.get(i) != Some(&b'"') {
                        return None;
                    }
                    let end = skip_string(b, i)?;
                    list.push(Cow::Borrowed(plain_str(text, i, end)?));
                    i = skip_ws(b, end);
                    match b.get(i) {
                        Some(b',') => i = skip_ws(b, i + 1),
                        Some(b']') => break,
                        _ => return None,
                    }
                }
            }
            cells = Some(list);
            return Some(i + 1);
        }
        let (value, end) = value_at(text, start)?;
        match key {
            "name" if name.is_none() => name = Some(plain_string_value(value)?),
            "rule" if rule.is_none() => rule = Some(plain_string_value(value)?),
            "sum" if sum.is_none() => sum = Some(value.parse::<i64>().ok()?),
            "unique" if unique.is_none() => {
                unique = Some(match value {
                    "true" => true,
                    "false" => false,
                    _ => return None,
                })
            }
            // a kind's own key, read by serde (checked by the kind)
            "name" | "rule" | "cells" | "sum" | "unique" => return None,
            key if !keys.contains_key(key) => {
                keys.insert(key.to_string(), serde_json::from_str(value).ok()?);
            }
            _ => return None,
        }
        Some(end)
    })?;
    Some(shapes)
}

/// Givens read straight from the raw text of a model's `givens` object (cell name to symbol),
/// borrowing the names where they have no escapes: what a batch line with a known layout needs,
/// without building a JSON map. Same checks and messages as
/// [`givens_from_map`](super::json::givens_from_map).
pub fn givens_from_text(geometry: &Geometry, text: &str) -> Result<Vec<Option<u8>>, Error> {
    use serde::de::{Deserializer, MapAccess, Visitor};
    use serde_json::value::RawValue;

    /// A JSON string, borrowed when it has no escapes.
    #[derive(Deserialize)]
    struct Str<'a>(#[serde(borrow)] Cow<'a, str>);

    /// The members of the givens object in their order: cell name, raw value.
    struct Pairs<'a>(Vec<(Str<'a>, &'a RawValue)>);
    impl<'de> Deserialize<'de> for Pairs<'de> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Pairs<'de>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("an object of cell names to symbols")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Pairs<'de>, A::Error> {
                    let mut v = Vec::with_capacity(a.size_hint().unwrap_or(0));
                    while let Some(entry) = a.next_entry()? {
                        v.push(entry);
                    }
                    Ok(Pairs(v))
                }
            }
            d.deserialize_map(V)
        }
    }
    let pairs: Pairs = serde_json::from_str(text).map_err(|e| Error::from_json(&e))?;
    // A name given twice keeps its last value, as in the JSON map the full reader builds.
    let mut seen = std::collections::HashSet::with_capacity(pairs.0.len());
    let last: Vec<bool> = pairs
        .0
        .iter()
        .rev()
        .map(|(cell, _)| seen.insert(&cell.0))
        .collect();
    let mut givens = vec![None; geometry.cell_count()];
    for ((cell, value), _) in pairs
        .0
        .iter()
        .zip(last.iter().rev())
        .filter(|(_, &last)| last)
    {
        let sym = serde_json::from_str::<Str>(value.get()).ok();
        put_given(
            geometry,
            &mut givens,
            &cell.0,
            sym.as_ref().map(|s| s.0.as_ref()),
        )?;
    }
    Ok(givens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::json::{to_model, RawModel};
    use crate::puzzle::Puzzle;
    use serde_json::{Map, Value};
    use std::sync::Arc;

    fn model_line() -> String {
        let g = crate::geometry::builtin::load("classic4").unwrap();
        let mut givens = vec![None; 16];
        givens[0] = Some(0);
        givens[5] = Some(2);
        let p = Puzzle {
            geometry: Arc::new(g),
            givens,
        };
        serde_json::to_string(&to_model(&p)).unwrap()
    }

    /// The members `split_members` finds are the raw values serde finds, with or without a
    /// known layout, whatever the spacing and key order.
    #[test]
    fn split_members_agrees_with_serde() {
        let line = model_line();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        let mut reordered = serde_json::Map::new();
        for k in ["givens", "shapes", "name", "cells", "values", "symbols"] {
            reordered.insert(k.to_string(), v[k].clone());
        }
        let reordered = serde_json::Value::Object(reordered).to_string();
        for text in [&line, &pretty, &reordered] {
            let raw: RawModel = serde_json::from_str(text).unwrap();
            let known = raw.layout_text().map(str::to_string);
            for k in [None, Some(&known)] {
                let m = split_members(text, k).expect("a well-formed model");
                assert_eq!(m.layout_text(), Some(raw.layout_text()));
                assert_eq!(m.name, Some(raw.name.get()));
                let givens: Map<String, Value> = serde_json::from_str(m.givens.unwrap()).unwrap();
                assert_eq!(givens, raw.givens);
            }
        }
    }

    /// The byte scan of plain cells and shapes reads what serde reads, and leaves anything
    /// else (escapes, polygons, numbers where strings belong, unknown keys) to serde.
    #[test]
    fn plain_cells_and_shapes_agree_with_serde() {
        let killer = crate::puzzle::file::load_path(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../puzzles/killer6.toml"
        )))
        .unwrap();
        for p in [
            &killer,
            &Puzzle {
                geometry: Arc::new(crate::geometry::builtin::load("samurai").unwrap()),
                givens: vec![None; 369],
            },
        ] {
            let m = to_model(p);
            let cells = serde_json::to_string(&m.cells).unwrap();
            let shapes = serde_json::to_string_pretty(&m.shapes).unwrap();
            let ours = plain_cells(&cells).expect("plain cells");
            let theirs: Vec<CellRef> = serde_json::from_str(&cells).unwrap();
            assert_eq!(ours.len(), theirs.len());
            for (a, b) in ours.iter().zip(&theirs) {
                assert_eq!((&a.name, a.pos, &a.poly), (&b.name, b.pos, &b.poly));
            }
            let ours = plain_shapes(&shapes).expect("plain shapes");
            let theirs: Vec<ShapeRef> = serde_json::from_str(&shapes).unwrap();
            assert_eq!(ours.len(), theirs.len());
            for (a, b) in ours.iter().zip(&theirs) {
                assert_eq!(
                    (&a.name, &a.rule, &a.cells, a.sum, a.unique, &a.keys),
                    (&b.name, &b.rule, &b.cells, b.sum, b.unique, &b.keys)
                );
            }
        }
        for text in [
            r#"[{"name":"r\u0031c1","pos":[0,0]}]"#,
            r#"[{"name":"r1c1","pos":[0,0],"poly":[[0,0],[1,0],[0,1]]}]"#,
            r#"[{"name":"r1c1","pos":[0,0],"x":1}]"#,
            r#"[{"name":1,"pos":[0,0]}]"#,
            r#"[{"name":"r1c1"}]"#,
            r#"[{"name":"r1c1","name":"r1c2","pos":[0,0]}]"#,
        ] {
            assert!(plain_cells(text).is_none(), "{text}");
        }
        // a kind's keys hold any JSON value (the kind checks them), read as serde reads them
        for text in [
            r#"[{"name":"A","rule":"thermometer","cells":["r1c1"],"slow":{"x":[1,"y"]}}]"#,
            r#"[{"name":"A","rule":"ratio","cells":["r1c1"],"ratio":2.5}]"#,
        ] {
            let ours = plain_shapes(text).expect("plain shapes");
            let theirs: Vec<ShapeRef> = serde_json::from_str(text).unwrap();
            assert_eq!(ours[0].keys, theirs[0].keys, "{text}");
        }
        for text in [
            r#"[{"name":"A","rule":"sum","cells":["r1c1"],"sum":1.5}]"#,
            r#"[{"name":"A","rule":"unique","cells":["r1c1"],"unique":1}]"#,
            r#"[{"name":"A","rule":"sum","cells":[1],"sum":1}]"#,
            r#"[{"name":"A","cells":["r1c1"]}]"#,
            r#"[{"name":"A","rule":"sum","cells":["r1c1"],"sum":1,"sum":2}]"#,
            // the cell list is read in the same pass that checks it
            r#"[{"name":"A","rule":"unique","cells":"r1c1"}]"#,
            r#"[{"name":"A","rule":"unique","cells":["r1c1",]}]"#,
            r#"[{"name":"A","rule":"unique","cells":["r1c1" "r1c2"]}]"#,
            r#"[{"name":"A","rule":"unique","cells":[["r1c1"]]}]"#,
            r#"[{"name":"A","rule":"unique","cells":["r1c1"}]"#,
            r#"[{"name":"A","rule":"unique","cells":["r1c1],"sum":1}]"#,
            r#"[{"name":"A","rule":"unique","cells":["r1c1"],"cells":["r1c2"]}]"#,
        ] {
            assert!(plain_shapes(text).is_none(), "{text}");
        }
    }

    /// A line on a known grid with other shapes, read with only its shapes, gives the geometry
    /// (or the error) a full read of the line gives.
    #[test]
    fn a_line_on_a_known_grid_reads_as_a_whole_line_does() {
        let killer = crate::puzzle::file::load_path(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../puzzles/killer6.toml"
        )))
        .unwrap();
        let base_model = to_model(&killer);
        let base_line = serde_json::to_string(&base_model).unwrap();
        let base = geometry_from_members(&split_members(&base_line, None).unwrap()).unwrap();
        let cage = base_model
            .shapes
            .iter()
            .position(|s| s.rule == "sum")
            .expect("a cage");
        let mut variants = Vec::new();
        // other cages: one dropped, one with another total, one cut to a cell
        let mut m = base_model.clone();
        m.name = "other".into();
        m.shapes.remove(cage);
        variants.push(m);
        let mut m = base_model.clone();
        m.shapes[cage].sum = Some(m.shapes[cage].sum.unwrap() + 1);
        variants.push(m);
        let big = base_model
            .shapes
            .iter()
            .position(|s| s.rule == "sum" && s.cells.len() > 1)
            .expect("a cage of two cells or more");
        let mut m = base_model.clone();
        m.shapes[big].cells.truncate(1);
        m.shapes[big].sum = Some(1);
        variants.push(m);
        // errors: an unknown cell, a sum shape without a total, a cell twice, a rule unknown
        let mut m = base_model.clone();
        m.shapes[cage].cells.push("nowhere".into());
        variants.push(m);
        let mut m = base_model.clone();
        m.shapes[cage].sum = None;
        variants.push(m);
        let mut m = base_model.clone();
        let first = m.shapes[cage].cells[0].clone();
        m.shapes[cage].cells.push(first);
        variants.push(m);
        let mut m = base_model.clone();
        m.shapes[0].rule = "odd".into();
        variants.push(m);
        for (i, m) in variants.iter().enumerate() {
            let line = serde_json::to_string(m).unwrap();
            let members = split_members(&line, None).unwrap();
            let whole = geometry_from_members(&members);
            let on_grid = geometry_on_members(&base, &members);
            // the second: a total the row it tiles contradicts
            assert_eq!(whole.is_ok(), i == 0 || i == 2, "variant {i}");
            match (whole, on_grid) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.name, b.name, "variant {i}");
                    assert_eq!(a.symbols, b.symbols, "variant {i}");
                    assert_eq!(a.cells, b.cells, "variant {i}");
                    assert_eq!(a.shapes, b.shapes, "variant {i}");
                    assert_eq!(a.warnings, b.warnings, "variant {i}");
                    for c in a.cells.iter() {
                        assert_eq!(a.cell_id(&c.name), b.cell_id(&c.name), "variant {i}");
                    }
                    assert_ne!(a.shapes, base.shapes, "variant {i} changes the shapes");
                }
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "variant {i}"),
                (a, b) => panic!("variant {i}: {:?} against {:?}", a.err(), b.err()),
            }
        }
    }

    /// Lines that are not plain well-formed models are left to the full parser.
    #[test]
    fn split_members_rejects_what_is_not_a_plain_model() {
        let line = model_line();
        let bad = [
            String::new(),
            "[]".to_string(),
            line[..line.len() - 1].to_string(),
            format!("{line}x"),
            line.replacen("\"name\"", "\"nom\"", 1),
            line.replacen("{\"name\":", "{\"name\":1,\"name\":", 1),
            line.replacen("\"givens\":{", "\"givens\":{\"r1c1\":\"1\",,", 1),
            line.replacen("\"givens\":{", "\"givens\":{\"r1c1\":tru,", 1),
            line.replacen("\"givens\":{", "\"givens\":{\"r1c1\":\"\\q\",", 1),
            line.replacen("\"givens\":{", "\"givens\":{\"r1c1\":01,", 1),
            line.replacen("\"givens\":{", "\"givens\":{\"r1c1\":[1,2,", 1),
            line.replacen("}", "]", 1),
        ];
        for text in &bad {
            assert!(split_members(text, None).is_none(), "{text}");
        }
        // deep nesting is left to the full parser too
        let deep = line.replacen(
            "\"givens\":{",
            &format!(
                "\"source\":{}1{},\"givens\":{{",
                "[".repeat(100),
                "]".repeat(100)
            ),
            1,
        );
        assert!(split_members(&deep, None).is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// `skip_string` (eight bytes at a time) ends a string where serde does, and refuses
        /// what serde refuses, on text mixing quotes, backslashes, escapes, control and
        /// multi-byte characters.
        #[test]
        fn skip_string_agrees_with_serde(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::string_regex("[a-z0-9 ]{0,12}").unwrap(),
                    // escapes, good and bad (no surrogates: serde checks their pairing, the
                    // scan leaves that to serde)
                    proptest::string::string_regex(r#"\\[\\"/bfnrtx]|\\u[0-9a-cA-C][0-9a-fA-F]{3}|\\u[0-9]{0,3}"#).unwrap(),
                    proptest::string::string_regex("[\"\u{1}\u{1f}\t\n\u{7f}é€😀]").unwrap(),
                ],
                0..8,
            ),
        ) {
            let text = format!("\"{}", parts.concat());
            let ours = skip_string(text.as_bytes(), 0);
            // serde reads one string from the front and says where it ended
            let mut stream = serde_json::Deserializer::from_str(&text).into_iter::<String>();
            let theirs = match stream.next() {
                Some(Ok(_)) => Some(stream.byte_offset()),
                _ => None,
            };
            proptest::prop_assert_eq!(ours, theirs, "{:?}", text);
        }
    }

    /// A cell named twice in the givens keeps its last value, as the full reader's JSON map
    /// does, whether the earlier value is a bad symbol or another good one (found by the
    /// `jsonl_lines` fuzz target: the scan rejected what the full reader accepted).
    #[test]
    fn a_cell_given_twice_keeps_its_last_value_as_the_map_does() {
        let g = crate::geometry::builtin::load("classic4").unwrap();
        for text in [
            r#"{"r1c1":"!2","r2c2":"3","r1c1":"4"}"#,
            r#"{"r1c1":"1","r1c1":"4"}"#,
            r#"{"r1c1":"4","r1c1":"!2"}"#,
        ] {
            let ours = givens_from_text(&g, text);
            let map: Map<String, Value> = serde_json::from_str(text).unwrap();
            let theirs = crate::puzzle::json::givens_from_map(&g, &map);
            assert_eq!(ours.is_ok(), theirs.is_ok(), "{text}");
            if let (Ok(a), Ok(b)) = (ours, theirs) {
                assert_eq!(a, b, "{text}");
            }
        }
        let kept = givens_from_text(&g, r#"{"r1c1":"!2","r1c1":"4"}"#).unwrap();
        assert_eq!(kept[0], Some(3));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Whatever one byte of a model line is changed to: when `split_members` (with the
        /// original layout known) accepts the line and its layout, serde accepts it too with
        /// the same members.
        #[test]
        fn split_members_never_accepts_what_serde_rejects(at in 0usize..2000, byte in 0u8..128) {
            let line = model_line();
            let mut bytes = line.clone().into_bytes();
            let at = at % bytes.len();
            bytes[at] = byte;
            let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
            let raw: RawModel = serde_json::from_str(&line).unwrap();
            let known = raw.layout_text().map(str::to_string);
            if let Some(m) = split_members(&text, Some(&known)) {
                if let (Some(layout), Some(_)) = (m.layout_text(), m.name) {
                    if layout == known.each_ref().map(String::as_str) {
                        let theirs: Result<RawModel, _> = serde_json::from_str(&text);
                        proptest::prop_assert!(theirs.is_ok(), "{text}");
                        let theirs = theirs.unwrap();
                        proptest::prop_assert_eq!(theirs.layout_text(), layout);
                        let givens = m.givens.unwrap_or("{}");
                        let ours: Result<Map<String, Value>, _> = serde_json::from_str(givens);
                        if let Ok(ours) = ours {
                            proptest::prop_assert_eq!(ours, theirs.givens);
                        }
                    }
                }
            }
        }
    }
}
