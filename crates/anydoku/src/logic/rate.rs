//! Difficulty: the weight of every rule (the one table the rules read their weights from), and a
//! score and a named level from the hardest step a logical solution needs.
//!
//! The scale is Sudoku Explainer's (SE, in the widely used 1.2.1 fork with strong-link fish and
//! the big wings), with SE's own weights for the rules SE has, so scores of classic puzzles read
//! like SE ratings. Chains get SE's length bonus: +0.1 each time the
//! chain's size (its number of nodes, summed over the branches of a net) minus 2 passes 4, 6, 8,
//! 12, 16, 24, 32, 48, ... ([`length_bonus`]).
//!
//! | rule                                          | weight                                |
//! |-----------------------------------------------|---------------------------------------|
//! | hidden single                                 | 1.5                                   |
//! | cage combinations (k empty cells)             | 2.0 + 0.2·k (at most 3.6)             |
//! | cage pair (two sum shapes, k empty cells)     | 2.2 + 0.2·max(k, 3) (at most 3.6)     |
//! | hidden cage combination (k empty cells)       | 2.4 + 0.2·k (at most 4.0)             |
//! | innies / outies by ranges (k empty cells)     | 2.8 + 0.1·k (at most 3.8), +0.2 mixed |
//! | house combinations (k cages meet the house)   | 3.6 + 0.1·k (k from 1 to 4)           |
//! | constraint kind: parity / allowed symbols     | 1.2                                   |
//! | constraint kind: pair (kropki, XV, <, clone)  | 1.7                                   |
//! | constraint kind: line (thermo, whispers, ...) | 2.0 (a kind's default)                |
//! | constraint kind: set (renban, quadruple)      | 2.4                                   |
//! | constraint kind: arrow, indexer               | 2.6                                   |
//! | constraint kind: sandwich, skyscraper         | 3.0                                   |
//! | constraint combinations (group of k empty cells) | the group's heaviest kind (2.0 for a little killer) + 0.2·k (k at most 8) |
//! | naked single                                  | 2.3                                   |
//! | overlap (pointing / claiming)                 | 2.6 (2.8 from a sum shape)            |
//! | naked pair / triple / quad                    | 3.0 / 3.6 / 5.0, +0.4 per size above 4 |
//! | hidden pair / triple / quad                   | 3.4 / 4.0 / 5.4, +0.4 per size above 4 |
//! | X-Wing / Swordfish / Jellyfish                | 3.2 / 3.8 / 5.2, +0.6 per size above 4 |
//! | X-chain of 2 / 3 / 4 strong links             | 4.1 / 5.5 / 5.9 (+0.3 grouped)        |
//! | XY-Wing (ALS-XZ of 3 bivalue cells)           | 4.2                                   |
//! | XYZ-Wing (ALS-XZ of 3 cells)                  | 4.4                                   |
//! | unique rectangle type 1, 2, 4                 | 4.5                                   |
//! | unique rectangle type 3 (with a k-subset)     | 4.5 + 0.1·(k − 1)                     |
//! | WXYZ-Wing (ALS-XZ of 4 cells)                 | 5.5, 5.6 with a 3-candidate cell      |
//! | bivalue universal grave (BUG + 1)             | 5.6                                   |
//! | VWXYZ-Wing (ALS-XZ of 5 cells)                | 6.2 + 0.1·(2 − ∣3 − c∣), c the most candidates |
//! | UVWXYZ-Wing (ALS-XZ of 6 cells)               | 6.6                                   |
//! | TUVWXYZ-Wing (ALS-XZ of 7 cells)              | 7.5                                   |
//! | ALS-XZ of two sets of 2 cells or more, n cells | 7.6 + 0.1·(n − 4)                    |
//! | ALS-XY-Wing / ALS-XY-Chain (3+ sets, n cells) | 7.7 + length(n)                       |
//! | X-cycle, Y-cycle                              | 6.5 + length                          |
//! | forcing X-chain                               | 6.6 + length                          |
//! | grouped X-cycle / forcing X-chain             | 6.7 / 6.8 + length                    |
//! | XY-cycle, forcing chain                       | 7.0 + length                          |
//! | grouped XY-cycle / forcing chain              | 7.2 + length                          |
//! | Nishio forcing chain                          | 7.5 + length                          |
//! | cell / region forcing chains                  | 8.0 + length                          |
//! | dynamic forcing chains                        | 8.5 + length                          |
//! | sum forcing (a kind sum's fillings as branches) | 8.5 (9.0 nested) + length, summed over the fillings |
//! | dynamic forcing chains (+), nested level k    | 8.5 + 0.5·k + length                  |
//! | search (no rule applies)                      | 20.0                                  |
//!
//! **score** = the largest step weight, rounded to one decimal as SE's ratings are. **level**
//! by score: `easy` < 2.5 (singles only), `medium` < 3.0 (overlaps, small cages), `hard` < 4.2
//! (pairs, triples, X-Wing, Swordfish, short X-chains), `expert` < 7.0 (wings, unique
//! rectangles, quads, Jellyfish, longer single-symbol chains), `master` (chains and nets) below
//! 20, and `search` when the rules alone could not finish.

use serde_json::{json, Value};

use super::Path;

/// Hidden single.
pub const HIDDEN_SINGLE: f64 = 1.5;
/// Naked single.
pub const NAKED_SINGLE: f64 = 2.3;
/// Overlap (pointing / claiming) between two shapes.
pub const OVERLAP: f64 = 2.6;
/// Overlap from a sum shape's required symbol.
pub const OVERLAP_FROM_SUM: f64 = 2.8;
/// X-chains of 2, 3 and 4 strong links (SE's "strong-linked fishes").
pub const STRONG_LINKS: [f64; 3] = [4.1, 5.5, 5.9];
/// Added to an X-chain of strong links that uses a group.
pub const GROUPED_LINKS: f64 = 0.3;
/// XY-Wing.
pub const XY_WING: f64 = 4.2;
/// XYZ-Wing.
pub const XYZ_WING: f64 = 4.4;
/// WXYZ-Wing (ALS-XZ of four cells), before its 0.1 for a cell with three candidates.
pub const WXYZ_WING: f64 = 5.5;
/// VWXYZ-Wing (ALS-XZ of five cells), before up to 0.2 for cells of about three candidates.
pub const VWXYZ_WING: f64 = 6.2;
/// UVWXYZ-Wing (ALS-XZ of six cells).
pub const UVWXYZ_WING: f64 = 6.6;
/// TUVWXYZ-Wing (ALS-XZ of seven cells); each further cell adds 0.1.
pub const TUVWXYZ_WING: f64 = 7.5;
/// ALS-XZ of two sets of two cells or more (four cells; each further cell adds 0.1).
pub const ALS_XZ: f64 = 7.6;
/// ALS chain (ALS-XY-Wing, ALS-XY-Chain) of three sets or more, before SE's length bonus on
/// its cells: just above ALS-XZ, as HoDoKu ranks it.
pub const ALS_CHAIN: f64 = 7.7;
/// Unique rectangle (types 1, 2 and 4; type 3 adds 0.1 per symbol of its subset above one).
pub const UNIQUE_RECTANGLE: f64 = 4.5;
/// Bivalue universal grave + 1.
pub const BUG: f64 = 5.6;
/// X-cycle and Y-cycle.
pub const CYCLE: f64 = 6.5;
/// Forcing X-chain.
pub const FORCING_X_CHAIN: f64 = 6.6;
/// Grouped X-cycle.
pub const GROUPED_X_CYCLE: f64 = 6.7;
/// Grouped forcing X-chain.
pub const GROUPED_FORCING_X_CHAIN: f64 = 6.8;
/// XY-cycle and forcing chain (both link kinds).
pub const FORCING_CHAIN: f64 = 7.0;
/// Grouped XY-cycle and grouped forcing chain.
pub const GROUPED_FORCING_CHAIN: f64 = 7.2;
/// Nishio forcing chain.
pub const NISHIO: f64 = 7.5;
/// Cell and region forcing chains.
pub const MULTIPLE: f64 = 8.0;
/// Dynamic forcing chains.
pub const DYNAMIC: f64 = 8.5;
/// Added per nesting level of dynamic forcing chains (level 1 is "dynamic (+)").
pub const PER_LEVEL: f64 = 0.5;
/// A constraint kind that limits single cells (parity, allowed symbols).
pub const CONSTRAINT_CELL: f64 = 1.2;
/// A constraint kind relating two cells (kropki dots, XV, inequality, clones, the negative
/// patterns).
pub const CONSTRAINT_PAIR: f64 = 1.7;
/// A constraint kind along a line (thermometers, whispers, between lines, palindromes): the
/// default of a kind.
pub const CONSTRAINT_LINE: f64 = 2.0;
/// A constraint kind on a set of values (renban, quadruples).
pub const CONSTRAINT_SET: f64 = 2.4;
/// A constraint kind that adds values up (arrows) or points by value (indexers).
pub const CONSTRAINT_SUM: f64 = 2.6;
/// A constraint kind that counts or sums between extremes (sandwiches, skyscrapers).
pub const CONSTRAINT_COUNT: f64 = 3.0;
/// The weight of a search step.
pub const SEARCH_WEIGHT: f64 = 20.0;

/// Constraint combinations on a group of `k` empty cells whose heaviest kind weighs `base`.
pub fn combinations(base: f64, k: usize) -> f64 {
    base.max(CONSTRAINT_CELL) + 0.2 * k.min(8) as f64
}

/// Cage combinations on a sum shape with `k` empty cells.
pub fn cage(k: usize) -> f64 {
    2.0 + 0.2 * k.min(8) as f64
}

/// Hidden cage combination on a sum shape with `k` empty cells (a symbol another shape can
/// only place in it).
pub fn hidden_cage(k: usize) -> f64 {
    cage(k) + 0.4
}

/// Innies and outies by ranges with `k` empty cells (`mixed`: innies minus outies).
pub fn innies(k: usize, mixed: bool) -> f64 {
    2.8 + 0.1 * k.min(10) as f64 + if mixed { 0.2 } else { 0.0 }
}

/// House combinations with `k` cages meeting the house: a whole row, column or box filled
/// under its cages at once is a wider look than one cage pair or one innie (3.6 and 3.8 at
/// most) and, like a hidden triple (4.0), weighs several combinations against each other.
pub fn house(k: usize) -> f64 {
    3.6 + 0.1 * k.clamp(1, 4) as f64
}

/// Naked subset of size `k` (pair 3.0, triple 3.6, quad 5.0, then +0.4 per size).
pub fn naked(k: usize) -> f64 {
    match k {
        ..=2 => 3.0,
        3 => 3.6,
        _ => 5.0 + 0.4 * (k as f64 - 4.0),
    }
}

/// Hidden subset of size `k` (pair 3.4, triple 4.0, quad 5.4, then +0.4 per size).
pub fn hidden(k: usize) -> f64 {
    match k {
        ..=2 => 3.4,
        3 => 4.0,
        _ => 5.4 + 0.4 * (k as f64 - 4.0),
    }
}

/// Fish of size `k` (X-Wing 3.2, Swordfish 3.8, Jellyfish 5.2, then +0.6 per size).
pub fn fish(k: usize) -> f64 {
    match k {
        ..=2 => 3.2,
        3 => 3.8,
        _ => 5.2 + 0.6 * (k as f64 - 4.0),
    }
}

/// Forcing chains nested `level` deep (0: plain dynamic, 1: dynamic (+), ...).
pub fn dynamic(level: usize) -> f64 {
    DYNAMIC + PER_LEVEL * level as f64
}

/// SE's length bonus for a chain of `size` nodes: +0.1 each time `size − 2` passes 4, 6, 8, 12,
/// 16, 24, 32, 48, ... (each bound alternately 3/2 and 4/3 of the one before).
pub fn length_bonus(size: usize) -> f64 {
    0.1 * length_level(size) as f64
}

/// The number of 0.1 steps in [`length_bonus`].
pub fn length_level(size: usize) -> usize {
    let length = size.saturating_sub(2);
    let (mut ceil, mut level, mut odd) = (4usize, 0, false);
    while length > ceil {
        level += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    level
}

/// The largest chain size with a length bonus of `level` tenths.
pub fn size_bound(level: usize) -> usize {
    let (mut ceil, mut odd) = (4usize, false);
    for _ in 0..level {
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    ceil + 2
}

/// Rounds a weight to one decimal (weights are sums of tenths).
pub fn tenths(w: f64) -> f64 {
    (w * 10.0).round() / 10.0
}

/// Named difficulty levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Singles only (score below 2.5).
    Easy,
    /// Below 3.0.
    Medium,
    /// Below 4.2.
    Hard,
    /// Below 6.0.
    Expert,
    /// Logic alone, with the heaviest rules.
    Master,
    /// Needs search (trial and error).
    Search,
}

impl Level {
    /// The level of a score.
    pub fn of(score: f64) -> Level {
        match score {
            s if s < 2.5 => Level::Easy,
            s if s < 3.0 => Level::Medium,
            s if s < 4.2 => Level::Hard,
            s if s < 7.0 => Level::Expert,
            s if s < SEARCH_WEIGHT => Level::Master,
            _ => Level::Search,
        }
    }

    /// The scores of this level: from (inclusive) and below (exclusive).
    pub fn range(self) -> (f64, f64) {
        match self {
            Level::Easy => (0.0, 2.5),
            Level::Medium => (2.5, 3.0),
            Level::Hard => (3.0, 4.2),
            Level::Expert => (4.2, 7.0),
            Level::Master => (7.0, SEARCH_WEIGHT),
            Level::Search => (SEARCH_WEIGHT, f64::INFINITY),
        }
    }

    /// The lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Master => "master",
            Level::Search => "search",
        }
    }
}

/// A rating.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// The score: the weight of the hardest step, raised a little when several steps are about
    /// as hard (see [`Level`] for the scale).
    pub score: f64,
    /// The named level of the score.
    pub level: Level,
    /// Whether search was needed.
    pub search: bool,
    /// The rule of the hardest step ("" for an already solved puzzle).
    pub hardest: String,
    /// Number of steps.
    pub steps: usize,
}

impl Rating {
    /// `{"score", "level", "search"}` plus the hardest rule and the step count.
    pub fn to_json(&self) -> Value {
        json!({
            "score": self.score,
            "level": self.level.as_str(),
            "search": self.search,
            "hardest": self.hardest,
            "steps": self.steps,
        })
    }
}

/// Rates a logical solution path.
pub fn rate(path: &Path) -> Rating {
    let hardest = path
        .steps
        .iter()
        .max_by(|a, b| a.weight.total_cmp(&b.weight));
    let score = tenths(hardest.map_or(0.0, |s| s.weight));
    Rating {
        score,
        level: if path.search {
            Level::Search
        } else {
            Level::of(score)
        },
        search: path.search,
        hardest: hardest.map_or(String::new(), |s| s.rule.clone()),
        steps: path.steps.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The length bonus follows SE's bounds, and `size_bound` is its inverse.
    #[test]
    fn length_bonus_follows_se() {
        let want = [
            (4, 0),
            (6, 0),
            (7, 1),
            (8, 1),
            (10, 2),
            (11, 3),
            (14, 3),
            (15, 4),
        ];
        for (size, level) in want {
            assert_eq!(length_level(size), level, "size {size}");
        }
        for level in 0..12 {
            let b = size_bound(level);
            assert_eq!(length_level(b), level);
            assert_eq!(length_level(b + 1), level + 1);
        }
    }

    /// The weights in the table of the module documentation are the constants the rules use.
    #[test]
    fn the_documented_table_is_the_code() {
        let doc = include_str!("rate.rs");
        let row = |name: &str| -> String {
            doc.lines()
                .find(|l| l.starts_with("//! | ") && l.contains(name))
                .unwrap_or_else(|| panic!("a row for {name}"))
                .to_string()
        };
        let has = |name: &str, values: &[f64]| {
            let r = row(name);
            for v in values {
                assert!(r.contains(&format!("{v:.1}")), "{name}: {v} in {r}");
            }
        };
        has("hidden single", &[HIDDEN_SINGLE]);
        has("naked single", &[NAKED_SINGLE]);
        has("cage combinations", &[cage(0), cage(8)]);
        has("overlap", &[OVERLAP, OVERLAP_FROM_SUM]);
        has("naked pair", &[naked(2), naked(3), naked(4)]);
        has("hidden pair", &[hidden(2), hidden(3), hidden(4)]);
        has("X-Wing", &[fish(2), fish(3), fish(4)]);
        has("strong links", &STRONG_LINKS);
        has("XY-Wing", &[XY_WING]);
        has("XYZ-Wing", &[XYZ_WING]);
        has("WXYZ-Wing", &[WXYZ_WING, WXYZ_WING + 0.1]);
        has("VWXYZ-Wing", &[VWXYZ_WING]);
        has("UVWXYZ-Wing", &[UVWXYZ_WING]);
        has("TUVWXYZ-Wing", &[TUVWXYZ_WING]);
        has("two sets", &[ALS_XZ]);
        has("ALS-XY-Chain", &[ALS_CHAIN]);
        has("type 1, 2, 4", &[UNIQUE_RECTANGLE]);
        has("BUG", &[BUG]);
        has("X-cycle, Y-cycle", &[CYCLE]);
        has("| forcing X-chain", &[FORCING_X_CHAIN]);
        has(
            "grouped X-cycle",
            &[GROUPED_X_CYCLE, GROUPED_FORCING_X_CHAIN],
        );
        has("XY-cycle, forcing chain", &[FORCING_CHAIN]);
        has("grouped XY-cycle", &[GROUPED_FORCING_CHAIN]);
        has("Nishio", &[NISHIO]);
        has("cell / region", &[MULTIPLE]);
        has("| dynamic forcing chains  ", &[DYNAMIC]);
        has("search", &[SEARCH_WEIGHT]);
        has("parity / allowed", &[CONSTRAINT_CELL]);
        has("pair (kropki", &[CONSTRAINT_PAIR]);
        has("line (thermo", &[CONSTRAINT_LINE]);
        has("set (renban", &[CONSTRAINT_SET]);
        has("arrow, indexer", &[CONSTRAINT_SUM]);
        has("sandwich, skyscraper", &[CONSTRAINT_COUNT]);
        assert_eq!(dynamic(1), 9.0);
    }
}
