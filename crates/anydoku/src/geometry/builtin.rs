//! Built-in layouts: geometry files embedded in the binary and usable by name.
//!
//! To add one, put a TOML file in `geometries/` and add a line to [`BUILTIN`]; the test in this
//! module checks that every entry loads.

use super::{build, Geometry};
use crate::error::Error;

/// (name, TOML text) of every built-in geometry.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "classic4",
        include_str!("../../../../geometries/classic4.toml"),
    ),
    (
        "classic6",
        include_str!("../../../../geometries/classic6.toml"),
    ),
    (
        "classic9",
        include_str!("../../../../geometries/classic9.toml"),
    ),
    (
        "classic12",
        include_str!("../../../../geometries/classic12.toml"),
    ),
    (
        "classic16",
        include_str!("../../../../geometries/classic16.toml"),
    ),
    (
        "classic25",
        include_str!("../../../../geometries/classic25.toml"),
    ),
    (
        "classic36",
        include_str!("../../../../geometries/classic36.toml"),
    ),
    (
        "classic16n",
        include_str!("../../../../geometries/classic16n.toml"),
    ),
    (
        "classic25n",
        include_str!("../../../../geometries/classic25n.toml"),
    ),
    ("x", include_str!("../../../../geometries/x.toml")),
    (
        "windoku",
        include_str!("../../../../geometries/windoku.toml"),
    ),
    ("jigsaw", include_str!("../../../../geometries/jigsaw.toml")),
    (
        "toroidal",
        include_str!("../../../../geometries/toroidal.toml"),
    ),
    (
        "samurai",
        include_str!("../../../../geometries/samurai.toml"),
    ),
    (
        "butterfly",
        include_str!("../../../../geometries/butterfly.toml"),
    ),
    ("sohei", include_str!("../../../../geometries/sohei.toml")),
    (
        "windmill",
        include_str!("../../../../geometries/windmill.toml"),
    ),
    (
        "gattai8",
        include_str!("../../../../geometries/gattai8.toml"),
    ),
    (
        "tredoku",
        include_str!("../../../../geometries/tredoku.toml"),
    ),
];

/// The TOML text of a built-in geometry.
pub fn text(name: &str) -> Option<&'static str> {
    BUILTIN
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, t)| *t)
}

/// Loads a built-in geometry by name.
pub fn load(name: &str) -> Result<Geometry, Error> {
    let text = text(name).ok_or_else(|| crate::error::unknown_geometry(name))?;
    build::from_toml(text)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_builtin_loads_without_warnings() {
        for (name, _) in super::BUILTIN {
            let g = super::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(g.warnings.is_empty(), "{name}: {:?}", g.warnings);
            for s in &g.shapes {
                assert!(s.cells.len() <= g.symbols.len());
            }
        }
    }
}
