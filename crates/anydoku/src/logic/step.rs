//! A step of a logical solution: which rule, what justifies it, what it places and removes.
//!
//! Steps carry cell and shape *indices* plus a short reason already written with the geometry's
//! names; [`Step::describe`] adds the effects ("→ r11c14 = 7", "→ remove 3 from r1c2, r1c9").

use serde_json::{json, Value};

use super::board::Board;

/// The rule families, as named by `--rules`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Naked and hidden singles.
    Singles,
    /// A constraint kind's shape (thermometer, arrow, kropki dot, ...) narrows its cells.
    Constraints,
    /// Pointing / claiming between any two shapes.
    Overlap,
    /// Sum shapes keep only symbols of a valid combination.
    Cages,
    /// Naked and hidden subsets.
    Subsets,
    /// Generalised X-Wing / Swordfish / Jellyfish.
    Fish,
    /// X-chains of strong links, forcing chains and cycles (X, Y, XY, grouped).
    Chains,
    /// Almost locked sets: ALS-XZ and the wings (XY, XYZ, WXYZ, ...), ALS chains.
    Als,
    /// Unique rectangles and the BUG: they assume the puzzle has exactly one solution.
    Uniqueness,
    /// Forcing nets: Nishio, cell and region forcing chains, dynamic and nested ones.
    Forcing,
    /// Trial and error by the engine: the last resort.
    Search,
}

impl Family {
    /// Every family that `--rules` can name.
    pub const ALL: [Family; 10] = [
        Family::Singles,
        Family::Constraints,
        Family::Overlap,
        Family::Cages,
        Family::Subsets,
        Family::Fish,
        Family::Chains,
        Family::Als,
        Family::Uniqueness,
        Family::Forcing,
    ];

    /// The lower-case name used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Singles => "singles",
            Family::Constraints => "constraints",
            Family::Overlap => "overlap",
            Family::Cages => "cages",
            Family::Subsets => "subsets",
            Family::Fish => "fish",
            Family::Chains => "chains",
            Family::Als => "als",
            Family::Uniqueness => "uniqueness",
            Family::Forcing => "forcing",
            Family::Search => "search",
        }
    }

    /// Parses a family name.
    pub fn parse(s: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

/// One application of a rule.
#[derive(Debug, Clone)]
pub struct Step {
    /// The rule's name: "Hidden single", "Naked pair", "X-Wing", "XY-chain", ...
    pub rule: String,
    /// The rule's family.
    pub family: Family,
    /// Subset/fish size, or a chain's size (its number of nodes, over all branches of a net).
    pub size: usize,
    /// Difficulty of this step (on the scale of [`Rating::score`](super::Rating::score)).
    pub weight: f64,
    /// Shapes that justify the step (board shape indices).
    pub shapes: Vec<usize>,
    /// Cells that justify the step.
    pub cells: Vec<usize>,
    /// (cell, symbol) placed.
    pub placements: Vec<(usize, u8)>,
    /// (cell, symbol) removed.
    pub eliminations: Vec<(usize, u8)>,
    /// The reason, in the geometry's names.
    pub reason: String,
}

impl Step {
    /// Whether the step changes anything.
    pub fn is_progress(&self) -> bool {
        !self.placements.is_empty() || !self.eliminations.is_empty()
    }

    /// The effects as text: placements, then eliminations grouped by the cells they leave
    /// ("remove 3, 7 from r1c2, r1c9; 5 from r2c2"). A search step just says what it fills.
    pub fn effects(&self, b: &Board) -> String {
        if self.family == Family::Search {
            return format!("fills the {} remaining cells", self.placements.len());
        }
        let mut parts = Vec::new();
        if !self.placements.is_empty() {
            let placed: Vec<String> = self
                .placements
                .iter()
                .map(|&(c, v)| format!("{} = {}", b.cell(c), b.sym(v as usize)))
                .collect();
            parts.push(placed.join(", "));
        }
        if !self.eliminations.is_empty() {
            let mut syms: Vec<u8> = self.eliminations.iter().map(|e| e.1).collect();
            syms.sort_unstable();
            syms.dedup();
            // (cells, symbols) groups, in order of first symbol
            let mut groups: Vec<(Vec<usize>, Vec<u8>)> = Vec::new();
            for &v in &syms {
                let cells: Vec<usize> = self
                    .eliminations
                    .iter()
                    .filter(|e| e.1 == v)
                    .map(|e| e.0)
                    .collect();
                match groups.iter_mut().find(|g| g.0 == cells) {
                    Some(g) => g.1.push(v),
                    None => groups.push((cells, vec![v])),
                }
            }
            let text: Vec<String> = groups
                .iter()
                .map(|(cells, vs)| {
                    let vs: Vec<&str> = vs.iter().map(|&v| b.sym(v as usize)).collect();
                    format!("{} from {}", vs.join(", "), b.cells_text(cells))
                })
                .collect();
            parts.push(format!("remove {}", text.join("; ")));
        }
        parts.join("; ")
    }

    /// The whole step as one line: "Hidden single: 7 in Box 5 of grid 3 → r11c14 = 7".
    pub fn describe(&self, b: &Board) -> String {
        format!("{}: {} → {}", self.rule, self.reason, self.effects(b))
    }

    /// The step as JSON data with names.
    pub fn to_json(&self, b: &Board) -> Value {
        let pairs = |list: &[(usize, u8)]| -> Vec<Value> {
            list.iter()
                .map(|&(c, v)| json!({"cell": b.cell(c), "symbol": b.sym(v as usize)}))
                .collect()
        };
        json!({
            "rule": self.rule,
            "family": self.family.as_str(),
            "size": self.size,
            "weight": self.weight,
            "shapes": self.shapes.iter().map(|&s| b.shapes[s].name.clone()).collect::<Vec<_>>(),
            "cells": self.cells.iter().map(|&c| b.cell(c)).collect::<Vec<_>>(),
            "placements": pairs(&self.placements),
            "eliminations": pairs(&self.eliminations),
            "text": self.describe(b),
        })
    }
}
