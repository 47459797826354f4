//! Difficulty: a score and a named level from the hardest rule a logical solution needs and how
//! often it needs rules of that weight.
//!
//! Every step has a weight on a scale modelled on Sudoku Explainer's, so scores of classic
//! puzzles read like SE ratings:
//!
//! | rule                                   | weight                    |
//! |----------------------------------------|---------------------------|
//! | hidden single                          | 1.5                       |
//! | cage combinations (k empty cells)      | 2.0 + 0.2·k (at most 3.6) |
//! | naked single                           | 2.3                       |
//! | overlap (pointing / claiming)          | 2.6 (2.8 from a cage)     |
//! | naked pair / triple / quad             | 3.0 / 3.6 / 5.0, +0.4 per size above 4 |
//! | hidden pair / triple / quad            | 3.4 / 4.0 / 5.4, +0.4 per size above 4 |
//! | X-Wing / Swordfish / Jellyfish         | 3.2 / 3.8 / 5.2           |
//! | X-chain with n strong links            | 4.1 + 0.3·(n − 2)         |
//! | XY-Wing (XY-chain of 3 cells)          | 4.2, +0.3 per extra cell  |
//! | XYZ-Wing                               | 4.4                       |
//! | unique rectangle (type 1)              | 4.5                       |
//! | AIC with n strong links                | 4.5 + 0.3·(n − 2)         |
//! | search (no rule applies)               | 10                        |
//!
//! **score** = the largest step weight + 0.05 for every further step within 0.5 of it (at most
//! +0.4), rounded to two decimals. **level** by score: `easy` < 2.5 (singles only), `medium`
//! < 3.0 (overlaps, small cages), `hard` < 4.2 (pairs, triples, X-Wing, Swordfish), `expert`
//! < 6.0 (chains, wings, unique rectangles, quads, Jellyfish), `master` (long chains) below 10, and `search` when
//! the rules alone could not finish.

use serde_json::{json, Value};

use super::Path;

/// The weight of a search step.
pub const SEARCH_WEIGHT: f64 = 10.0;

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
            s if s < 6.0 => Level::Expert,
            s if s < SEARCH_WEIGHT => Level::Master,
            _ => Level::Search,
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
    let max = hardest.map_or(0.0, |s| s.weight);
    let near = path.steps.iter().filter(|s| s.weight >= max - 0.5).count();
    let bonus = (0.05 * near.saturating_sub(1) as f64).min(0.4);
    let score = ((max + bonus) * 100.0).round() / 100.0;
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
