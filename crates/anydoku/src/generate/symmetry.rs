//! Symmetric given patterns, computed from the cells' drawing positions.
//!
//! A symmetry is a map of the plane (about the centre of the layout's bounding box). It applies to
//! a geometry when every cell's position lands on another cell's position; the cells then fall into
//! *orbits* that the generator keeps or removes together. Nothing here knows rows or boxes, so a
//! Samurai or a user's layout gets the same treatment as a 9x9. To add a symmetry, add a variant,
//! its name in [`Symmetry::NAMES`] and its map in `Symmetry::apply`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use super::GenerateError;
use crate::geometry::Geometry;

/// A symmetry of the given pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symmetry {
    /// No constraint on the pattern.
    #[default]
    None,
    /// Half-turn about the centre.
    Rotate180,
    /// Quarter-turn about the centre (orbits of up to four cells).
    Rotate90,
    /// Left-right reflection.
    Mirror,
    /// Reflection in the main (top-left to bottom-right) diagonal.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry with its name.
    pub const NAMES: &'static [(&'static str, Symmetry)] = &[
        ("none", Symmetry::None),
        ("rotate180", Symmetry::Rotate180),
        ("rotate90", Symmetry::Rotate90),
        ("mirror", Symmetry::Mirror),
        ("diagonal", Symmetry::Diagonal),
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("none", |(n, _)| n)
    }

    /// Maps `(x, y)` relative to the centre.
    fn apply(self, x: f64, y: f64) -> (f64, f64) {
        match self {
            Symmetry::None => (x, y),
            Symmetry::Rotate180 => (-x, -y),
            Symmetry::Rotate90 => (-y, x),
            Symmetry::Mirror => (-x, y),
            Symmetry::Diagonal => (y, x),
        }
    }

    /// The orbits of the cells (cell indices, each orbit sorted, orbits ordered by first cell).
    pub fn orbits(self, g: &Geometry) -> Result<Vec<Vec<u32>>, GenerateError> {
        let n = g.cells.len();
        if self == Symmetry::None {
            return Ok((0..n as u32).map(|c| vec![c]).collect());
        }
        let key = |x: f64, y: f64| ((x * 100.0).round() as i64, (y * 100.0).round() as i64);
        let mut at: BTreeMap<(i64, i64), u32> = BTreeMap::new();
        for (i, c) in g.cells.iter().enumerate() {
            if let Some(other) = at.insert(key(c.pos[0], c.pos[1]), i as u32) {
                return Err(GenerateError::NoSymmetry {
                    symmetry: self.name(),
                    reason: format!(
                        "cells {} and {} are drawn at the same position",
                        g.cells[other as usize].name, c.name
                    ),
                });
            }
        }
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for c in g.cells.iter() {
            x0 = x0.min(c.pos[0]);
            x1 = x1.max(c.pos[0]);
            y0 = y0.min(c.pos[1]);
            y1 = y1.max(c.pos[1]);
        }
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let mut image = vec![0u32; n];
        for (i, c) in g.cells.iter().enumerate() {
            let (x, y) = self.apply(c.pos[0] - cx, c.pos[1] - cy);
            match at.get(&key(x + cx, y + cy)) {
                Some(&j) => image[i] = j,
                None => {
                    return Err(GenerateError::NoSymmetry {
                        symmetry: self.name(),
                        reason: format!(
                            "cell {} has no partner cell at its mirrored position",
                            c.name
                        ),
                    })
                }
            }
        }
        let mut seen = vec![false; n];
        let mut orbits = Vec::new();
        for start in 0..n {
            if seen[start] {
                continue;
            }
            let mut orbit = Vec::new();
            let mut c = start;
            while !seen[c] {
                seen[c] = true;
                orbit.push(c as u32);
                c = image[c] as usize;
            }
            orbit.sort_unstable();
            orbits.push(orbit);
        }
        Ok(orbits)
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = GenerateError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(s))
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                GenerateError::Option(format!(
                    "unknown symmetry '{s}'; expected one of {}",
                    Self::NAMES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::builtin;

    #[test]
    fn orbits_on_classic_and_samurai() {
        let g = builtin::load("classic9").unwrap();
        let o = Symmetry::Rotate180.orbits(&g).unwrap();
        assert_eq!(o.len(), 41); // 40 pairs and the centre
        assert!(o.contains(&vec![0, 80]));
        let o = Symmetry::Rotate90.orbits(&g).unwrap();
        assert_eq!(o.len(), 21); // 20 quads and the centre
        let s = builtin::load("samurai").unwrap();
        let o = Symmetry::Rotate90.orbits(&s).unwrap();
        assert_eq!(o.iter().map(Vec::len).sum::<usize>(), s.cells.len());
        assert!(o.iter().all(|x| x.len() == 4 || x.len() == 1));
    }

    #[test]
    fn refuses_a_layout_without_the_symmetry() {
        let g = builtin::load("tredoku").unwrap();
        let err = Symmetry::Mirror.orbits(&g).unwrap_err().to_string();
        assert!(err.contains("mirror"), "{err}");
        assert!(err.contains("no partner"), "{err}");
    }
}
