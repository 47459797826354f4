//! The logical rules, one module per family, each behind the small [`LogicRule`] trait.
//!
//! A rule gets the geometry-free [`Board`] (candidates per cell, shapes as cell lists with their
//! unique/complete/sum flags and required symbols) and a [`Cx`] (the budget, the lightest weight
//! still wanted, and when it last searched in vain), and returns the lightest [`Step`] it can
//! take, or `None`. Rules never change the board. [`standard`] lists them by the smallest
//! weight their steps can have; the solver takes the lightest step among the rules that could
//! beat the first one found, so a hard rule is only used when every easier one is stuck.
//!
//! To add a rule: write a module with a struct implementing [`LogicRule`], give its steps a
//! weight in the table of [`crate::logic::rate`], and add it to [`standard`] (and, if the
//! forcing nets should use it inside their propagation, to [`nested_rules`]).

pub mod als;
pub mod als_chain;
pub mod cage_demands;
pub mod cage_pairs;
pub mod cages;
pub mod chains;
pub mod combinations;
pub mod constraints;
pub mod fish;
pub mod forcing;
pub mod house_cages;
pub mod innies;
pub mod links;
pub mod net;
pub mod overlap;
pub mod peer_sums;
pub mod singles;
pub mod subsets;
pub(crate) mod sum_cache;
pub mod sum_forcing;
pub mod sum_memo;
pub mod uniqueness;
pub mod xchains;

use super::board::Board;
use super::budget::Cx;
use super::step::{Family, Step};

/// A logical rule.
pub trait LogicRule: Send + Sync {
    /// A short name ("Hidden single", "Naked subset", "Fish").
    fn name(&self) -> &str;
    /// The family `--rules` selects it by.
    fn family(&self) -> Family;
    /// The smallest weight a step of this rule can have (rules are tried in this order).
    fn min_weight(&self) -> f64;
    /// The lightest step this rule can take on the board (or the first, for rules whose steps
    /// all weigh the same), if any. Must not return a step without placements or
    /// eliminations, nor one as heavy as `cx.cap`.
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step>;
    /// For a heavy rule that goes first among its family once the path is hard (on boards
    /// with sum shapes): the weight the hardest step so far must pass. Lighter rules of the
    /// family are then tried only when it finds nothing.
    fn early_past(&self) -> Option<f64> {
        None
    }
}

/// The rule list for `n_symbols` symbols restricted to `families`, cheapest first.
pub fn standard(n_symbols: usize, families: &[Family]) -> Vec<Box<dyn LogicRule>> {
    use forcing::{Forcing, NetKind};
    use subsets::{HiddenSubset, NakedSubset};
    let mut rules: Vec<Box<dyn LogicRule>> = vec![
        Box::new(singles::HiddenSingle),
        Box::new(singles::NakedSingle),
        Box::new(constraints::ConstraintRule),
        Box::new(combinations::Combinations),
        Box::new(cages::CageCombinations),
        Box::new(cage_pairs::CagePairs),
        Box::new(innies::InniesOuties),
        Box::new(house_cages::HouseCombinations),
        Box::new(cage_demands::HiddenCageCombinations),
        Box::new(overlap::Overlap),
        Box::new(NakedSubset(2)),
        Box::new(fish::Fish(2)),
        Box::new(HiddenSubset(2)),
        Box::new(NakedSubset(3)),
        Box::new(fish::Fish(3)),
        Box::new(HiddenSubset(3)),
        Box::new(xchains::StrongLinks(2)),
        Box::new(als::AlsXz(3)),
        Box::new(uniqueness::UniqueRectangle),
        Box::new(als::AlsXz(4)),
        Box::new(xchains::StrongLinks(3)),
        Box::new(xchains::StrongLinks(4)),
        Box::new(als::AlsXz(5)),
        Box::new(als::AlsXz(6)),
        Box::new(als::AlsXz(7)),
        Box::new(als_chain::AlsChain),
        Box::new(NakedSubset(4)),
        Box::new(fish::Fish(4)),
        Box::new(HiddenSubset(4)),
        Box::new(uniqueness::Bug),
        Box::new(chains::Chains { grouped: false }),
        Box::new(chains::Chains { grouped: true }),
        Box::new(Forcing(NetKind::Nishio)),
        Box::new(Forcing(NetKind::Multiple)),
    ];
    for k in 5..=n_symbols / 2 {
        rules.push(Box::new(NakedSubset(k)));
        rules.push(Box::new(HiddenSubset(k)));
    }
    for level in 0..=4 {
        rules.push(Box::new(Forcing(NetKind::Dynamic(level))));
        if level == 0 {
            // as light as a dynamic forcing chain, tried right after it
            rules.push(Box::new(sum_forcing::SumForcing));
        }
        if level == 1 {
            // as light as a dynamic forcing chain of level 2, tried before it
            rules.push(Box::new(sum_forcing::SumForcingCages));
        }
    }
    // the constraint kinds' own rules are part of the puzzle, like the singles
    rules.retain(|r| {
        matches!(r.family(), Family::Singles | Family::Constraints)
            || families.contains(&r.family())
    });
    rules.sort_by(|a, b| a.min_weight().total_cmp(&b.min_weight()));
    rules
}

/// The rules a dynamic forcing net applies inside its propagation at nesting `level` (besides
/// singles and cage combinations, which every dynamic net follows): from level 1 overlap, pairs
/// and X-Wing, from level 2 forcing chains, from level 3 cell and region forcing chains, from
/// level 4 dynamic ones.
pub fn nested_rules(level: usize) -> Vec<Box<dyn LogicRule>> {
    use forcing::{Forcing, NetKind};
    let mut rules: Vec<Box<dyn LogicRule>> = Vec::new();
    if level >= 1 {
        rules.push(Box::new(overlap::Overlap));
        rules.push(Box::new(subsets::HiddenSubset(2)));
        rules.push(Box::new(subsets::NakedSubset(2)));
        rules.push(Box::new(fish::Fish(2)));
    }
    if level >= 2 {
        rules.push(Box::new(chains::Chains { grouped: false }));
    }
    if level >= 3 {
        rules.push(Box::new(Forcing(NetKind::Multiple)));
    }
    if level >= 4 {
        rules.push(Box::new(Forcing(NetKind::Dynamic(0))));
    }
    rules
}
