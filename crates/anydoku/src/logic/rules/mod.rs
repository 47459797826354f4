//! The logical rules, one module per family, each behind the small [`LogicRule`] trait.
//!
//! A rule gets the geometry-free [`Board`] (candidates per cell, shapes as cell lists with their
//! unique/complete/sum flags and required symbols) and returns the first [`Step`] it can take, or
//! `None`. Rules never change the board. [`standard`] lists them by the smallest weight their
//! steps can have; the solver takes the lightest step among the rules that could beat the first
//! one found, so a hard rule is only used when every easier one is stuck.
//!
//! To add a rule: write a module with a struct implementing [`LogicRule`], give its steps a
//! weight on the scale in [`crate::logic::rate`], and insert it into [`standard`] where its
//! weight belongs.

pub mod cages;
pub mod chains;
pub mod fish;
pub mod overlap;
pub mod singles;
pub mod subsets;
pub mod uniqueness;
pub mod wings;

use super::board::Board;
use super::step::{Family, Step};

/// A logical rule.
pub trait LogicRule: Send + Sync {
    /// A short name ("Hidden single", "Naked subset", "Fish").
    fn name(&self) -> &str;
    /// The family `--rules` selects it by.
    fn family(&self) -> Family;
    /// The smallest weight a step of this rule can have (rules are tried in this order).
    fn min_weight(&self) -> f64;
    /// The first step this rule can take on the board, if any. Must not return a step without
    /// placements or eliminations.
    fn find(&self, b: &Board) -> Option<Step>;
}

/// The rule list for `n_symbols` symbols restricted to `families`, cheapest first.
pub fn standard(n_symbols: usize, families: &[Family]) -> Vec<Box<dyn LogicRule>> {
    use chains::ChainKind;
    use subsets::{HiddenSubset, NakedSubset};
    let mut rules: Vec<Box<dyn LogicRule>> = vec![
        Box::new(singles::HiddenSingle),
        Box::new(singles::NakedSingle),
        Box::new(cages::CageCombinations),
        Box::new(overlap::Overlap),
        Box::new(NakedSubset(2)),
        Box::new(fish::Fish(2)),
        Box::new(HiddenSubset(2)),
        Box::new(NakedSubset(3)),
        Box::new(fish::Fish(3)),
        Box::new(HiddenSubset(3)),
        Box::new(chains::Chains {
            kind: ChainKind::X,
            max_links: 3,
        }),
        Box::new(chains::Chains {
            kind: ChainKind::Xy,
            max_links: 3,
        }),
        Box::new(chains::Chains {
            kind: ChainKind::Aic,
            max_links: 3,
        }),
        Box::new(NakedSubset(4)),
        Box::new(fish::Fish(4)),
        Box::new(HiddenSubset(4)),
    ];
    for k in 5..=n_symbols / 2 {
        rules.push(Box::new(NakedSubset(k)));
        rules.push(Box::new(HiddenSubset(k)));
    }
    for kind in [ChainKind::X, ChainKind::Xy, ChainKind::Aic] {
        rules.push(Box::new(chains::Chains {
            kind,
            max_links: 32,
        }));
    }
    rules.push(Box::new(wings::XyzWing));
    rules.push(Box::new(uniqueness::UniqueRectangle));
    rules.retain(|r| r.family() == Family::Singles || families.contains(&r.family()));
    rules.sort_by(|a, b| a.min_weight().total_cmp(&b.min_weight()));
    rules
}
