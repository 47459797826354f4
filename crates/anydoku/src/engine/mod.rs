//! The geometry-free engine: candidates as bitsets, propagation, search and solution counting.
//!
//! [`Engine::new`] flattens a [`Geometry`] once into arrays the hot loops use: per-cell peer lists
//! (cells sharing a unique shape), the member lists of complete shapes (which must hold every
//! symbol) and the sum shapes. After that nothing looks at names, kinds or positions: the same
//! code solves a 4x4, a Samurai, a Tredoku or a layout nobody has drawn yet. [`Engine::count`]
//! and [`Engine::solve`] count solutions under a [`Limits`] budget; a [`Searcher`] does the same
//! with its state kept across puzzles.
//!
//! The internal modules, one concern each:
//!
//! * `flatten` — the geometry into arrays; `Engine::apply` then sets the search policy from
//!   [`Options`].
//! * `propagate` — naked singles (a placed symbol leaves its peers), hidden singles (a symbol
//!   with one place left in a complete shape), overlaps and the sum-shape filter, to a fixpoint.
//! * `alldiff` — all-different arc consistency on complete shapes (every hidden/naked subset at
//!   once), for wide symbol sets; adaptive by default (see [`Options::alldiff`]).
//! * `sum` — sum shapes (Killer cages and the law-of-45 shapes derived from them).
//! * `search` — depth-first search on the most constrained cell ([`Searcher`]), counting
//!   solutions up to a limit under a node/time budget.
//! * `board` — a second kernel for the same search on models made only of unique shapes:
//!   symbol-major bitboards (one cell set per symbol), where a placement is a few word
//!   operations and rules are whole-board operations. The searcher hands plain counts to it when
//!   the engine has one (when the model fits in 1024 bits; see [`Options::board`]); both kernels
//!   count the same solutions (tested against each other). `tally` is its AVX-512 helper.
//! * `cdcl` — conflict-driven clause learning on the (cell, symbol) encoding of a model, sum
//!   shapes as explained propagators, for the uniqueness checks depth-first search does not
//!   settle within a node budget (sparse 25x25 and 36x36 puzzles, hard Killers and Little
//!   Killers); see [`Options::cdcl`].
//!
//! To add a propagation rule, add a pass to the loop in `propagate::run` that narrows candidates
//! (marking the shapes of the cells it changes dirty, pushing new singletons on the queue) and
//! reports contradictions; search picks it up automatically. A rule for unique shapes should also
//! go into `board::propagate` (or the model should opt out of the bitboard kernel), so both
//! kernels keep solving the same models.

internal_mod!(alldiff);
internal_mod!(board);
internal_mod!(cdcl);
internal_mod!(constraint);
pub(crate) mod flatten;
internal_mod!(levels);
internal_mod!(propagate);
internal_mod!(search);
internal_mod!(sum);
internal_mod!(tally);

use std::time::{Duration, Instant};

use crate::geometry::Geometry;

pub use search::Searcher;

/// A candidate set: bit `s` is set when symbol `s` is still possible.
pub(crate) type Mask = u64;

/// Budgets for a search. `Default` is unlimited.
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// Stop after this many search nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub max_time: Option<Duration>,
}

impl Limits {
    /// No budget.
    pub fn none() -> Self {
        Self::default()
    }
}

/// What a search established about a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exactly one solution.
    Unique,
    /// At least two solutions.
    Multiple,
    /// No solution (printed "none").
    NoSolution,
    /// A budget ran out before the answer was known.
    Unknown,
}

impl Status {
    /// The lower-case word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::NoSolution => "none",
            Status::Unknown => "unknown",
        }
    }
}

/// The result of counting solutions up to a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// False when a budget stopped the search before it finished.
    pub complete: bool,
    /// The first solutions found (up to two, or as many as the searcher keeps: see
    /// [`search::Searcher::keep_solutions`]), as symbol indices per cell.
    pub solutions: Vec<Vec<u8>>,
    /// Search nodes visited.
    pub nodes: u64,
}

impl Count {
    /// The status when counting up to 2.
    pub fn status(&self) -> Status {
        match (self.count, self.complete) {
            (0, true) => Status::NoSolution,
            (1, true) => Status::Unique,
            (n, _) if n >= 2 => Status::Multiple,
            _ => Status::Unknown,
        }
    }
}

/// A sum shape in engine form.
#[derive(Debug, Clone)]
pub(crate) struct SumShape {
    /// The cells, by index.
    pub cells: Vec<u32>,
    /// What their values add up to.
    pub total: i64,
    /// Whether no symbol may repeat in it.
    pub unique: bool,
}

/// The flat, geometry-free form of a puzzle's constraints.
#[derive(Debug, Clone)]
pub struct Engine {
    pub(crate) n_cells: usize,
    pub(crate) n_symbols: usize,
    pub(crate) full: Mask,
    /// CSR: peers of cell `c` are `peers[peer_start[c]..peer_start[c + 1]]`.
    pub(crate) peer_start: Vec<u32>,
    pub(crate) peers: Vec<u32>,
    /// Members of complete shapes, `n_symbols` cells each, back to back.
    pub(crate) complete: Vec<u32>,
    /// Number of complete shapes (`complete.len() / n_symbols`).
    pub(crate) n_complete: usize,
    /// Words per cell in `cell_bits`: the smallest of 1, 2, 4, 8, 16 covering `n_complete`
    /// bits, or 0 when there are too many complete shapes to track (more than 1024).
    pub(crate) shape_words: usize,
    /// Per cell, `shape_words` words: the bitset of the complete shapes holding the cell.
    pub(crate) cell_bits: Vec<u64>,
    pub(crate) sums: Vec<SumShape>,
    /// Numeric value of each symbol.
    pub(crate) values: Vec<i64>,
    /// How each sum shape is filtered (combinations, enumeration or bounds); see [`sum`].
    pub(crate) sum_tables: sum::Tables,
    /// How many of `sums` (the last ones) were derived by the law of 45.
    pub(crate) derived: usize,
    /// Overlaps of two complete shapes sharing at least two cells (box/line, overlapping grids):
    /// `[inter, a_rest, b_rest, end]` offsets into `overlap_cells`. Empty when the overlap pass
    /// is off.
    pub(crate) overlaps: Vec<[u32; 4]>,
    pub(crate) overlap_cells: Vec<u32>,
    /// The all-different filter ([`alldiff`]): `Some(0)` at every fixpoint, `None` never,
    /// `Some(t)` adaptive (a search restarts with it after `t` nodes without it). Plain
    /// [`propagate::propagate`] calls use it only for `Some(0)`.
    pub(crate) alldiff_after: Option<u64>,
    /// The symbol-major form searched by [`board`], when the model allows it and the options
    /// ask for it.
    pub(crate) board: Option<board::Board>,
    /// Depth-first search nodes after which a plain uniqueness check goes on with [`cdcl`]
    /// (`Some(0)`: from the start), or `None` when it never does (models without complete
    /// shapes, or switched off in [`Options::cdcl`]).
    pub(crate) cdcl_after: Option<u64>,
    /// Dead ends (branches whose propagation fails) after which a whole puzzle's uniqueness
    /// check ([`Searcher::count`]) goes on with [`cdcl`] before `cdcl_after` nodes, or `None`.
    pub(crate) cdcl_stall: Option<u64>,
    /// The propagators of the constraint kinds other than unique and sum (thermometers,
    /// arrows, kropki dots, ...), run by the cell-major kernel ([`constraint`]).
    pub(crate) props: Vec<std::sync::Arc<dyn constraint::Propagator>>,
    /// Per cell, a bonus to its branching score ([`search`]): how many propagator shapes hold
    /// it, times a weight (empty without propagators, so classic and Killer search is as before).
    pub(crate) prop_weight: Vec<u32>,
    /// Words per cell in `cell_prop_bits`: 1 when the engine has 1 to 64 propagators,
    /// [`PROP_WORDS`] up to `64 * PROP_WORDS`, else 0 (none, or too many to track: then all of
    /// them run each pass).
    pub(crate) prop_words: usize,
    /// Per cell, `prop_words` words: the bitset of the propagators whose shape holds the cell.
    pub(crate) cell_prop_bits: Vec<u64>,
}

/// The width of the propagation's set of propagators to run (see [`Engine::prop_words`]).
pub(crate) const PROP_WORDS: usize = 4;

/// A tri-state engine switch: leave the choice to the engine, or force it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Switch {
    /// The engine decides (each option documents how).
    #[default]
    Auto,
    /// Always on.
    On,
    /// Always off.
    Off,
}

impl From<bool> for Switch {
    /// `On` for true, `Off` for false.
    fn from(on: bool) -> Self {
        if on {
            Switch::On
        } else {
            Switch::Off
        }
    }
}

impl Switch {
    /// On or off, with `auto` deciding for [`Switch::Auto`].
    pub fn or(self, auto: bool) -> bool {
        match self {
            Switch::Auto => auto,
            Switch::On => true,
            Switch::Off => false,
        }
    }
}

/// Options for building an [`Engine`].
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Add the innie/outie sum shapes the law of 45 derives from the cages (see
    /// [`Geometry::with_derived_sums`]).
    pub derived: bool,
    /// Run the overlap (pointing/claiming) pass inside search. `Auto`: always in the bitboard
    /// kernel (it looks once singles are exhausted, cheaply); in the cell-major kernel for 16 or
    /// more symbols, where it prunes far more than it costs, and not below.
    pub overlaps: Switch,
    /// Filter complete shapes with all-different arc consistency once the cheaper
    /// passes reach a fixpoint. `On`: at every node; `Off`: never; `Auto` (adaptive): for 25 or
    /// more symbols, a search first runs without it for as many nodes as there are cells and, if
    /// that is not enough, starts again from the root with it, so easy searches (filling an
    /// empty grid, which barely gains from it) do not pay for it and the searches that struggle
    /// (sparse 25x25 and larger puzzles) get it from the first node.
    pub alldiff: Switch,
    /// Search with the symbol-major bitboard kernel when the model has only unique
    /// shapes, no all-different filter, and its cells and complete shapes fit in 1024 bits (every
    /// 9x9 layout, 16x16, Samurai, Sohei, Windmill, Butterfly, Gattai-8, Clueless). `Auto` and
    /// `On`: when it fits; `Off`: never (the cell-major kernel).
    pub board: Switch,
    /// Settle uniqueness checks of models with complete shapes with conflict-driven clause
    /// learning when depth-first search does not. `Auto`: after as many search nodes
    /// as there are cells for 25 or more symbols (instead of the all-different restart) and for
    /// models with sum shapes (where a search that needs more nodes than that is a hard one),
    /// after fifty times that for models of unique shapes with fewer symbols (where depth-first
    /// search settles every published puzzle well before); `On`: from the start; `Off`: never.
    /// For 25 or more symbols a whole puzzle's check also goes on with CDCL as soon as its
    /// depth-first search meets as many dead ends as there are symbols: there CDCL from the
    /// root (propagated with the all-different filter) settles whatever such a stalling search
    /// would, while a search that fills a sparse grid without dead ends (many solutions) stays
    /// depth-first (the generator's checks of one cell at a time keep the node threshold).
    pub cdcl: Switch,
    /// In the bitboard kernel on boards of up to 128 bits (every 9x9 layout and the smaller
    /// ones), count a symbol's places in every complete shape at once with AVX-512
    /// when the CPU has it, in a copy of the kernel compiled for those instructions. `Auto` and
    /// `On`: when the CPU has it; `Off`: never (the shape-by-shape test).
    pub vector: Switch,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            derived: true,
            overlaps: Switch::Auto,
            alldiff: Switch::Auto,
            board: Switch::Auto,
            cdcl: Switch::Auto,
            vector: Switch::Auto,
        }
    }
}

impl Engine {
    /// Flattens a geometry, with the default [`Options`] (derived sum shapes on).
    pub fn new(g: &Geometry) -> Self {
        Self::with_options(g, Options::default())
    }

    /// Two engines of `g` for tests: one handing every search to CDCL at once, one never.
    #[cfg(test)]
    pub(crate) fn with_and_without_cdcl(g: &Geometry) -> (Engine, Engine) {
        let with = |cdcl| {
            Engine::with_options(
                g,
                Options {
                    cdcl,
                    ..Default::default()
                },
            )
        };
        (with(Switch::On), with(Switch::Off))
    }

    /// Flattens a geometry, then sets up the search policy the options ask for;
    /// with `derived` off, only the geometry's own shapes are used.
    pub fn with_options(g: &Geometry, options: Options) -> Self {
        let mut engine = flatten::flatten(g, options.derived);
        engine.apply(options);
        engine
    }

    /// The search policy: which passes run and which kernel searches, from the options and the
    /// model's size.
    fn apply(&mut self, options: Options) {
        let (n_cells, n_symbols) = (self.n_cells, self.n_symbols);
        if options.overlaps.or(n_symbols >= 16) {
            (self.overlaps, self.overlap_cells) =
                flatten::overlaps_of(&self.complete, n_symbols, n_cells);
        }
        let has_cdcl_form = self.props.is_empty() && self.n_complete > 0;
        self.cdcl_after = match options.cdcl {
            _ if !has_cdcl_form => None,
            Switch::On => Some(0),
            Switch::Off => None,
            Switch::Auto if n_symbols >= 25 || !self.sums.is_empty() => Some(n_cells as u64),
            Switch::Auto => Some(50 * n_cells as u64),
        };
        self.cdcl_stall = match options.cdcl {
            Switch::Auto if n_symbols >= 25 && self.cdcl_after.is_some() => Some(n_symbols as u64),
            _ => None,
        };
        self.alldiff_after = match options.alldiff {
            _ if self.n_complete == 0 => None,
            Switch::On => Some(0),
            Switch::Off => None,
            Switch::Auto => (n_symbols >= 25).then_some(n_cells as u64),
        };
        // the bitboard kernel looks for overlaps unless told not to (it does so cheaply, once
        // singles are exhausted)
        // the bitboard kernel knows unique shapes only: a model with the propagators of other
        // kinds (or with sum shapes, which `Board::new` turns down) stays cell-major
        if self.alldiff_after.is_none() && self.props.is_empty() && options.board.or(true) {
            self.board = board::Board::new(
                self,
                board::MAX_WORDS,
                options.overlaps.or(true),
                options.vector.or(true),
            );
        }
    }

    /// Whether propagation runs the all-different filter at every fixpoint (`strong`) unless a
    /// search asks otherwise: what plain [`propagate::propagate`] calls do.
    pub(crate) fn alldiff_always(&self) -> bool {
        self.alldiff_after == Some(0)
    }

    /// The depth-first search nodes after which a uniqueness check under a budget of
    /// `max_nodes` goes on with [`cdcl`] (`Some(0)`: CDCL from the start), or `None` when it
    /// stays depth-first (no CDCL form, switched off, or the budget ends first).
    pub(crate) fn cdcl_switch(&self, max_nodes: u64) -> Option<u64> {
        self.cdcl_after.filter(|&t| t < max_nodes)
    }

    /// How many sum shapes the law of 45 added (0 with `Options { derived: false }`).
    pub fn derived_count(&self) -> usize {
        self.derived
    }

    /// The sum shapes (the geometry's, then the derived ones).
    #[allow(dead_code)]
    pub(crate) fn sum_shapes(&self) -> &[SumShape] {
        &self.sums
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.n_cells
    }

    /// Number of symbols.
    pub fn symbol_count(&self) -> usize {
        self.n_symbols
    }

    /// The mask of all symbols.
    pub(crate) fn full(&self) -> Mask {
        self.full
    }

    /// The peers of a cell.
    pub(crate) fn peers(&self, c: usize) -> &[u32] {
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }

    /// Counts solutions of a puzzle (givens as symbol indices) up to `limit`.
    pub fn count(&self, givens: &[Option<u8>], limit: u64, limits: Limits) -> Count {
        let mut s = search::Searcher::new(self);
        s.count(givens, limit, limits)
    }

    /// Solves: counts up to 2 solutions.
    pub fn solve(&self, givens: &[Option<u8>], limits: Limits) -> Count {
        self.count(givens, 2, limits)
    }
}

/// A node and deadline budget that reads the clock only every 64 nodes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
}

impl Budget {
    pub fn from(limits: Limits) -> Self {
        Budget {
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            deadline: limits.max_time.map(|d| Instant::now() + d),
        }
    }

    /// True when the deadline (if any) has passed.
    pub fn deadline_passed(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// True when the budget is spent after `nodes` nodes.
    #[inline]
    pub fn exhausted(&self, nodes: u64) -> bool {
        if nodes >= self.max_nodes {
            return true;
        }
        // every 64 nodes: a node of a large model can take tens of microseconds, and a budget
        // must stop the work within a few percent of its time
        if nodes & 63 == 0 {
            if let Some(d) = self.deadline {
                return Instant::now() >= d;
            }
        }
        false
    }
}

/// Runs `f` on a thread with a 64 MB stack, for tests whose searches go deep into the bitboard
/// kernel. That kernel recurses once per search level, and the depth is inherent: up to the
/// number of cells, at most 1,024 (its boards hold 1,024 bits). A level takes under 700 bytes of
/// stack in a release build (0.7 MB at the deepest, within any thread's stack) but about 16.5 KB
/// in a debug build, where a search 120 levels deep already overflows a test thread's 2 MB.
#[cfg(test)]
pub(crate) fn with_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(s, f)
            .expect("a thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}
