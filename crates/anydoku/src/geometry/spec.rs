//! The serde model of a geometry file: structs that mirror the TOML text one to one.
//!
//! Nothing here is validated; [`super::build`] turns a [`GeometrySpec`] into a [`super::Geometry`].
//! Fields that later checks may complain about are wrapped in [`toml::Spanned`] so errors can point
//! at the line and column. To add a key, add a field here (unknown keys are rejected) and use it in
//! `build`.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use toml::Spanned;

/// Exactly two numbers (`[row, column]`, `[height, width]`, `[x, y]`): `key` has a message
/// saying how to write it (`form`) when there are more or fewer.
fn two<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    key: &str,
    form: &str,
) -> Result<[T; 2], D::Error> {
    let v: Vec<T> = Vec::deserialize(d)?;
    let n = v.len();
    <[T; 2]>::try_from(v)
        .map_err(|_| serde::de::Error::custom(format!("{key} has {n} numbers; write {form}")))
}

fn origin<'de, D: Deserializer<'de>>(d: D) -> Result<[i32; 2], D::Error> {
    two(
        d,
        "origin",
        "origin = [row, column], the board position of the grid's top-left cell",
    )
}

fn boxes<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[u32; 2]>, D::Error> {
    two(d, "boxes", "boxes = [height, width]").map(Some)
}

fn position<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
    two(d, "pos", "pos = [x, y], the cell's centre")
}

fn outline<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<[f64; 2]>>, D::Error> {
    #[derive(Deserialize)]
    struct Point(#[serde(deserialize_with = "point")] [f64; 2]);
    fn point<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
        two(d, "a point of poly", "each point as [x, y]")
    }
    let points: Vec<Point> = Vec::deserialize(d)?;
    Ok(Some(points.into_iter().map(|p| p.0).collect()))
}

/// A symbol set written as one string of graphemes or as a list.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
pub enum SymbolsSpec {
    Text(String),
    List(Vec<String>),
}

/// Cells written as a selector string or a list of selectors.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
pub enum CellsSpec {
    Text(String),
    List(Vec<String>),
}

/// A whole geometry file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeometrySpec {
    pub name: String,
    pub symbols: Spanned<SymbolsSpec>,
    #[serde(default)]
    pub values: Option<Spanned<Vec<i64>>>,
    #[serde(default)]
    pub grid: Vec<Spanned<GridSpec>>,
    #[serde(default)]
    pub cell: Vec<Spanned<CellSpec>>,
    #[serde(default)]
    pub shape: Vec<Spanned<ShapeSpec>>,
    /// Killer cages may also live in a geometry file.
    #[serde(default)]
    pub cage: Vec<Spanned<CageSpec>>,
    #[serde(default)]
    pub pattern: Vec<Spanned<PatternSpec>>,
}

/// A square grid on the board.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default = "default_origin", deserialize_with = "origin")]
    pub origin: [i32; 2],
    pub size: u32,
    #[serde(default, deserialize_with = "boxes")]
    pub boxes: Option<[u32; 2]>,
    #[serde(default)]
    pub regions: Option<Spanned<String>>,
    #[serde(default)]
    pub diagonals: bool,
    #[serde(default = "yes")]
    pub rows: bool,
    #[serde(default = "yes")]
    pub columns: bool,
}

fn default_origin() -> [i32; 2] {
    [1, 1]
}

fn yes() -> bool {
    true
}

/// An explicit cell off the board.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellSpec {
    pub name: String,
    #[serde(deserialize_with = "position")]
    pub pos: [f64; 2],
    #[serde(default, deserialize_with = "outline")]
    pub poly: Option<Vec<[f64; 2]>>,
}

/// An extra shape: cells with a rule of any kind (`rule = "unique"` when not said), and the
/// kind's own keys (checked by the kind, see `crate::kinds`).
#[derive(Debug, Clone, Deserialize)]
pub struct ShapeSpec {
    #[serde(default)]
    pub name: Option<String>,
    pub cells: Spanned<CellsSpec>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(flatten)]
    pub params: BTreeMap<String, toml::Value>,
}

/// A pattern declared once for the layout (`kind = "anti-knight"`): where it applies (every
/// cell unless `cells` says otherwise) and the kind's own keys.
#[derive(Debug, Clone, Deserialize)]
pub struct PatternSpec {
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub cells: Option<Spanned<CellsSpec>>,
    #[serde(flatten)]
    pub params: BTreeMap<String, toml::Value>,
}

/// A Killer cage: a sum shape, unique unless said otherwise.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CageSpec {
    #[serde(default)]
    pub name: Option<String>,
    pub cells: Spanned<CellsSpec>,
    pub sum: i64,
    #[serde(default = "yes")]
    pub unique: bool,
}
