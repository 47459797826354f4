//! `generate`: every puzzle is checked by a deliberately naive solver that knows only the JSON
//! model (cells, shapes, givens) and by the independent solution checker; certificates are checked
//! as solutions of the puzzle minus the given (or cage) they are for.

mod common;

use std::collections::HashMap;

use common::{check_solution, root, run, solve_and_check};
use serde_json::{Map, Value};

/// A naive backtracking solver over the JSON model: counts solutions up to `limit`. It keeps, per
/// shape, the set of symbols used and the running sum; the branching cell is the one with the
/// fewest allowed symbols. No other reasoning.
struct Naive {
    n_symbols: usize,
    values: Vec<i64>,
    /// symbol indices in increasing order of value
    by_value: Vec<usize>,
    lo: i64,
    hi: i64,
    /// (cells, Some(total) for sums, unique)
    shapes: Vec<(Vec<usize>, Option<i64>, bool)>,
    shapes_of: Vec<Vec<usize>>,
    used: Vec<u64>,
    sum: Vec<i64>,
    empty: Vec<i64>,
    grid: Vec<Option<usize>>,
    first: Option<Vec<usize>>,
}

impl Naive {
    fn new(model: &Value) -> Self {
        let symbols: Vec<&str> = model["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        let values: Vec<i64> = match model.get("values").and_then(Value::as_array) {
            Some(v) => v.iter().map(|x| x.as_i64().unwrap()).collect(),
            None => (1..=symbols.len() as i64).collect(),
        };
        let cells: HashMap<&str, usize> = model["cells"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, c)| (c["name"].as_str().unwrap(), i))
            .collect();
        let n = cells.len();
        let mut shapes = Vec::new();
        let mut shapes_of = vec![Vec::new(); n];
        for s in model["shapes"].as_array().unwrap() {
            let members: Vec<usize> = s["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| cells[c.as_str().unwrap()])
                .collect();
            let total = (s["rule"] == "sum").then(|| s["sum"].as_i64().unwrap());
            let unique =
                s["rule"] == "unique" || s.get("unique").and_then(Value::as_bool) == Some(true);
            for &c in &members {
                shapes_of[c].push(shapes.len());
            }
            shapes.push((members, total, unique));
        }
        let k = shapes.len();
        let mut by_value: Vec<usize> = (0..symbols.len()).collect();
        by_value.sort_by_key(|&x| values[x]);
        let empty = shapes.iter().map(|s| s.0.len() as i64).collect();
        let mut naive = Naive {
            n_symbols: symbols.len(),
            by_value,
            lo: *values.iter().min().unwrap(),
            hi: *values.iter().max().unwrap(),
            values,
            shapes,
            shapes_of,
            used: vec![0; k],
            sum: vec![0; k],
            empty,
            grid: vec![None; n],
            first: None,
        };
        for (cell, v) in model["givens"].as_object().unwrap() {
            let s = symbols
                .iter()
                .position(|x| *x == v.as_str().unwrap())
                .unwrap();
            naive.set(cells[cell.as_str()], s);
        }
        naive
    }

    fn set(&mut self, c: usize, s: usize) {
        self.grid[c] = Some(s);
        for &k in &self.shapes_of[c] {
            self.used[k] |= 1 << s;
            self.sum[k] += self.values[s];
            self.empty[k] -= 1;
        }
    }

    fn unset(&mut self, c: usize, s: usize) {
        self.grid[c] = None;
        for &k in &self.shapes_of[c] {
            self.used[k] &= !(1 << s);
            self.sum[k] -= self.values[s];
            self.empty[k] += 1;
        }
    }

    /// Whether empty cell `c` may take symbol `s` given the filled cells.
    fn allowed(&self, c: usize, s: usize) -> bool {
        self.shapes_of[c].iter().all(|&k| {
            let (_, total, unique) = &self.shapes[k];
            if *unique && self.used[k] & (1 << s) != 0 {
                return false;
            }
            match total {
                Some(t) if *unique => {
                    // the rest of the cage takes distinct unused symbols: bound its sum by the
                    // smallest and the largest of them
                    let sum = self.sum[k] + self.values[s];
                    let rest = (self.empty[k] - 1) as usize;
                    let taken = self.used[k] | (1 << s);
                    let free = || self.by_value.iter().filter(|&&x| taken & (1 << x) == 0);
                    let least: i64 = free().take(rest).map(|&x| self.values[x]).sum();
                    let most: i64 = free().rev().take(rest).map(|&x| self.values[x]).sum();
                    free().count() >= rest && sum + least <= *t && sum + most >= *t
                }
                Some(t) => {
                    let sum = self.sum[k] + self.values[s];
                    let rest = self.empty[k] - 1;
                    sum + rest * self.lo <= *t && sum + rest * self.hi >= *t
                }
                None => true,
            }
        })
    }

    fn count(&mut self, limit: usize) -> usize {
        // branch on the empty cell with the fewest allowed symbols, or on the places of a symbol
        // that a complete unique shape still needs, whichever has fewer choices
        let mut best: Option<(Vec<(usize, usize)>, usize)> = None;
        for c in 0..self.grid.len() {
            if self.grid[c].is_some() {
                continue;
            }
            let options: Vec<(usize, usize)> = (0..self.n_symbols)
                .filter(|&s| self.allowed(c, s))
                .map(|s| (c, s))
                .collect();
            if best.as_ref().is_none_or(|(b, _)| options.len() < b.len()) {
                let stop = options.len() <= 1;
                best = Some((options, c));
                if stop {
                    break;
                }
            }
        }
        if best.as_ref().is_some_and(|(b, _)| b.len() > 1) {
            for k in 0..self.shapes.len() {
                let (cells, _, unique) = &self.shapes[k];
                if !*unique || cells.len() != self.n_symbols {
                    continue;
                }
                for s in 0..self.n_symbols {
                    if self.used[k] & (1 << s) != 0 {
                        continue;
                    }
                    let places: Vec<(usize, usize)> = cells
                        .iter()
                        .filter(|&&c| self.grid[c].is_none() && self.allowed(c, s))
                        .map(|&c| (c, s))
                        .collect();
                    if best.as_ref().is_some_and(|(b, _)| places.len() < b.len()) {
                        best = Some((places, 0));
                    }
                }
            }
        }
        let Some((options, _)) = best else {
            if self.first.is_none() {
                self.first = Some(self.grid.iter().map(|v| v.unwrap()).collect());
            }
            return 1;
        };
        let mut found = 0;
        for (c, s) in options {
            self.set(c, s);
            found += self.count(limit - found);
            self.unset(c, s);
            if found >= limit {
                break;
            }
        }
        found
    }
}

/// A second, unrelated method: the JSON model as CNF for the `splr` SAT solver. One variable per
/// (cell, symbol); every cell takes exactly one symbol; a unique shape holds no symbol twice (and
/// every symbol when it has as many cells as symbols); a sum
/// shape with unique symbols takes one of the symbol sets of its size that reach its total (one
/// variable per set: a chosen set's symbols all appear in the cage, and a cell's symbol belongs to a
/// chosen set). Counting stops at `limit`, each further solve excluding the solutions found so far.
fn sat_solutions(model: &Value, limit: usize) -> Vec<Vec<usize>> {
    let symbols: Vec<&str> = model["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let n = symbols.len();
    let values: Vec<i64> = match model.get("values").and_then(Value::as_array) {
        Some(v) => v.iter().map(|x| x.as_i64().unwrap()).collect(),
        None => (1..=n as i64).collect(),
    };
    let cells: HashMap<&str, usize> = model["cells"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, c)| (c["name"].as_str().unwrap(), i))
        .collect();
    let var = |c: usize, s: usize| (c * n + s + 1) as i32;
    let mut next = (cells.len() * n) as i32;
    let mut clauses: Vec<Vec<i32>> = Vec::new();
    let at_most_one = |clauses: &mut Vec<Vec<i32>>, lits: &[i32]| {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                clauses.push(vec![-a, -b]);
            }
        }
    };
    for c in 0..cells.len() {
        let lits: Vec<i32> = (0..n).map(|s| var(c, s)).collect();
        at_most_one(&mut clauses, &lits);
        clauses.push(lits);
    }
    for shape in model["shapes"].as_array().unwrap() {
        let members: Vec<usize> = shape["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| cells[c.as_str().unwrap()])
            .collect();
        let unique = shape["rule"] == "unique" || shape["unique"] == true;
        assert!(
            unique,
            "the SAT check handles sums over unique symbols only"
        );
        for s in 0..n {
            let lits: Vec<i32> = members.iter().map(|&c| var(c, s)).collect();
            at_most_one(&mut clauses, &lits);
            // a unique shape with as many cells as symbols holds every symbol: follows from
            // the clauses above by pigeonhole, which resolution proves slowly (without it
            // splr needs many minutes on a sparse 25x25)
            if members.len() == n {
                clauses.push(lits);
            }
        }
        if shape["rule"] != "sum" {
            continue;
        }
        let total = shape["sum"].as_i64().unwrap();
        let mut sets = Vec::new();
        let mut chosen = Vec::new();
        fn subsets(
            from: usize,
            left: usize,
            sum: i64,
            values: &[i64],
            chosen: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
        ) {
            if left == 0 {
                if sum == 0 {
                    out.push(chosen.clone());
                }
                return;
            }
            for s in from..values.len() {
                chosen.push(s);
                subsets(s + 1, left - 1, sum - values[s], values, chosen, out);
                chosen.pop();
            }
        }
        subsets(0, members.len(), total, &values, &mut chosen, &mut sets);
        let set_vars: Vec<i32> = sets
            .iter()
            .map(|_| {
                next += 1;
                next
            })
            .collect();
        clauses.push(set_vars.clone());
        for (set, &y) in sets.iter().zip(&set_vars) {
            for &s in set {
                let mut clause = vec![-y];
                clause.extend(members.iter().map(|&c| var(c, s)));
                clauses.push(clause);
            }
        }
        for s in 0..n {
            let holders: Vec<i32> = sets
                .iter()
                .zip(&set_vars)
                .filter(|(set, _)| set.contains(&s))
                .map(|(_, &y)| y)
                .collect();
            for &c in &members {
                let mut clause = vec![-var(c, s)];
                clause.extend(&holders);
                clauses.push(clause);
            }
        }
    }
    for (cell, v) in model["givens"].as_object().unwrap() {
        let s = symbols
            .iter()
            .position(|x| *x == v.as_str().unwrap())
            .unwrap();
        clauses.push(vec![var(cells[cell.as_str()], s)]);
    }
    let mut found = Vec::new();
    while found.len() < limit {
        match splr::Certificate::try_from(clauses.clone()).expect("splr") {
            splr::Certificate::UNSAT => break,
            splr::Certificate::SAT(assignment) => {
                let grid: Vec<usize> = (0..cells.len())
                    .map(|c| {
                        (0..n)
                            .find(|&s| assignment[var(c, s) as usize - 1] > 0)
                            .unwrap()
                    })
                    .collect();
                clauses.push((0..cells.len()).map(|c| -var(c, grid[c])).collect());
                found.push(grid);
            }
        }
    }
    found
}

/// The number of solutions (up to `limit`) and the first one, by a method other than the engine:
/// the naive backtracker for puzzles of up to 81 cells with unique shapes only, the SAT encoding
/// for larger grids and sum cages (a givenless Killer or a sparse Samurai can keep naive
/// backtracking busy for minutes; the two methods are compared on small puzzles below).
fn independent_count(model: &Value, limit: usize) -> (usize, Option<Vec<usize>>) {
    let cells = model["cells"].as_array().unwrap().len();
    if sum_shapes(model).is_empty() && cells <= 81 {
        let mut naive = Naive::new(model);
        let count = naive.count(limit);
        (count, naive.first)
    } else {
        let found = sat_solutions(model, limit);
        (found.len(), found.into_iter().next())
    }
}

/// Generates puzzles with the CLI (JSON lines).
fn generate(args: &[&str]) -> Vec<Value> {
    let (code, out, err) = run(&[&["generate", "--format", "json"], args].concat());
    assert_eq!(code, 0, "generate {args:?}: {err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn sum_shapes(model: &Value) -> Vec<String> {
    model["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["rule"] == "sum")
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

/// Checks one generated puzzle: unique by the naive solver, its solution valid and equal to the
/// printed one, every certificate a valid different solution of the reduced puzzle, and (for a
/// puzzle marked minimal) a certificate for every given, or for every cage of a Killer.
fn check_generated(model: &Value) {
    let solution = model["solution"].as_object().unwrap().clone();
    let mut bare = model.clone();
    for k in ["solution", "certificates", "source"] {
        bare.as_object_mut().unwrap().remove(k);
    }
    check_solution(&bare, &solution).unwrap();
    let (count, first) = independent_count(&bare, 2);
    assert_eq!(
        count, 1,
        "the independent solver does not find exactly one solution"
    );
    let symbols: Vec<&str> = bare["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let names: Vec<&str> = bare["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let found: Map<String, Value> = first
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, &s)| (names[i].to_string(), Value::String(symbols[s].to_string())))
        .collect();
    assert_eq!(
        found, solution,
        "the independent solver's solution differs from the printed one"
    );
    let certs = model["certificates"].as_object().unwrap();
    let cages = sum_shapes(&bare);
    for (key, cert) in certs {
        let cert = cert.as_object().unwrap();
        assert_ne!(
            cert, &solution,
            "certificate for {key} is the solution itself"
        );
        let mut reduced = bare.clone();
        if cages.contains(key) {
            let shapes = reduced["shapes"].as_array_mut().unwrap();
            shapes.retain(|s| s["name"] != key.as_str());
        } else {
            let givens = reduced["givens"].as_object_mut().unwrap();
            for cell in key.split(' ') {
                assert!(
                    givens.remove(cell).is_some(),
                    "certificate for {cell}, which is not a given"
                );
            }
        }
        check_solution(&reduced, cert).unwrap_or_else(|e| panic!("certificate for {key}: {e}"));
    }
    if model["source"]["minimal"] == true {
        if cages.is_empty() {
            let covered: usize = certs.keys().map(|k| k.split(' ').count()).sum();
            assert_eq!(
                covered,
                bare["givens"].as_object().unwrap().len(),
                "a given without a certificate"
            );
        } else {
            assert_eq!(certs.len(), cages.len(), "a cage without a certificate");
        }
    }
}

fn check_all(args: &[&str], expect: usize) -> Vec<Value> {
    let models = generate(args);
    assert_eq!(models.len(), expect);
    for m in &models {
        check_generated(m);
    }
    models
}

#[test]
fn minimal_puzzles_on_several_geometries_are_unique_and_certified() {
    for (g, k) in [
        ("classic9", "4"),
        ("x", "2"),
        ("jigsaw", "2"),
        ("toroidal", "2"),
        ("classic6", "3"),
        ("tredoku", "1"),
    ] {
        let models = check_all(&["-g", g, "--seed", "11", "--count", k], k.parse().unwrap());
        for m in &models {
            assert_eq!(m["source"]["minimal"], true, "{g}");
        }
    }
}

#[test]
fn killer_puzzles_are_unique_with_cage_certificates() {
    for m in check_all(
        &[
            "-g",
            "classic6",
            "--killer",
            "--seed",
            "5",
            "--count",
            "2",
            "--cage-size",
            "2-4",
            "--cover",
        ],
        2,
    ) {
        assert!(m["givens"].as_object().unwrap().is_empty());
        let cages = m["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["rule"] == "sum")
            .count();
        assert!(cages >= 4, "{cages} cages");
        // every cell is in exactly one cage (--cover)
        let mut seen = HashMap::new();
        for s in m["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["rule"] == "sum")
        {
            let cells = s["cells"].as_array().unwrap();
            assert!(cells.len() <= 4);
            for c in cells {
                *seen.entry(c.as_str().unwrap().to_string()).or_insert(0) += 1;
            }
        }
        assert_eq!(seen.len(), 36);
        assert!(seen.values().all(|&v| v == 1));
    }
}

/// The two independent methods agree with each other and with known counts: the naive
/// backtracker and the SAT encoding count the same solutions on the empty classic 4x4 (288), on
/// minimal X puzzles with and without a given, on small Killers and on every Killer with one
/// cage removed.
#[test]
fn naive_and_sat_checkers_agree() {
    let empty = serde_json::from_str(&run(&["export", "classic4"]).1).unwrap();
    assert_eq!(Naive::new(&empty).count(1000), 288);
    assert_eq!(sat_solutions(&empty, 1000).len(), 288);
    for m in generate(&["-g", "x", "--seed", "4", "--count", "2"]) {
        let mut bare = m.clone();
        for k in ["solution", "certificates", "source"] {
            bare.as_object_mut().unwrap().remove(k);
        }
        let mut naive = Naive::new(&bare);
        assert_eq!(naive.count(2), 1);
        assert_eq!(sat_solutions(&bare, 2), vec![naive.first.unwrap()]);
        let cell = bare["givens"]
            .as_object()
            .unwrap()
            .keys()
            .next()
            .unwrap()
            .clone();
        bare["givens"].as_object_mut().unwrap().remove(&cell);
        assert_eq!(
            Naive::new(&bare).count(20),
            sat_solutions(&bare, 20).len(),
            "without {cell}"
        );
    }
    for m in generate(&[
        "-g",
        "classic6",
        "--killer",
        "--seed",
        "3",
        "--count",
        "2",
        "--cage-size",
        "2-4",
    ]) {
        let mut bare = m.clone();
        for k in ["solution", "certificates", "source"] {
            bare.as_object_mut().unwrap().remove(k);
        }
        let naive_first = {
            let mut naive = Naive::new(&bare);
            assert_eq!(naive.count(2), 1);
            naive.first.unwrap()
        };
        let sat = sat_solutions(&bare, 2);
        assert_eq!(sat, vec![naive_first]);
        for cage in sum_shapes(&bare) {
            let mut reduced = bare.clone();
            reduced["shapes"]
                .as_array_mut()
                .unwrap()
                .retain(|s| s["name"] != cage.as_str());
            assert_eq!(
                Naive::new(&reduced).count(50),
                sat_solutions(&reduced, 50).len(),
                "without {cage}"
            );
        }
    }
}

#[test]
fn killer_with_dropped_cages_stays_unique() {
    check_all(
        &["-g", "classic6", "--killer", "--drop-cages", "--seed", "8"],
        1,
    );
}

/// Killers drop the cages they do not need by default, so they come out minimal: every cage
/// kept has a certificate (checked by `check_generated`), and some cells are left uncaged.
#[test]
fn killer_puzzles_are_minimal_by_default() {
    for m in check_all(
        &["-g", "classic9", "--killer", "--seed", "3", "--count", "2"],
        2,
    ) {
        assert_eq!(m["source"]["minimal"], true);
        let cages = sum_shapes(&m);
        assert_eq!(m["certificates"].as_object().unwrap().len(), cages.len());
        let caged: usize = m["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["rule"] == "sum")
            .map(|s| s["cells"].as_array().unwrap().len())
            .sum();
        assert!(caged < 81, "every cell caged");
    }
}

#[test]
fn same_seed_same_puzzles_different_seed_different() {
    let a = run(&[
        "generate", "-g", "classic9", "--seed", "77", "--count", "3", "--format", "json",
    ]);
    let b = run(&[
        "generate", "-g", "classic9", "--seed", "77", "--count", "3", "--format", "json",
    ]);
    let c = run(&[
        "generate", "-g", "classic9", "--seed", "78", "--count", "3", "--format", "json",
    ]);
    assert_eq!(a.0, 0);
    assert_eq!(a.1, b.1);
    assert_ne!(a.1, c.1);
    // puzzle i of a seed does not depend on how many come before it: the third of three is
    // not the first of one, but the first of three is the first of one
    let one = run(&[
        "generate", "-g", "classic9", "--seed", "77", "--format", "json",
    ]);
    assert_eq!(one.1.lines().next(), a.1.lines().next());
    let k1 = run(&[
        "generate", "-g", "classic6", "--killer", "--seed", "4", "--format", "json",
    ]);
    let k2 = run(&[
        "generate", "-g", "classic6", "--killer", "--seed", "4", "--format", "json",
    ]);
    assert_eq!(k1.1, k2.1);
}

/// The cell positions of the givens of a model.
fn given_positions(m: &Value) -> Vec<(i64, i64)> {
    let pos: HashMap<&str, (i64, i64)> = m["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let p = c["pos"].as_array().unwrap();
            (
                c["name"].as_str().unwrap(),
                (p[0].as_f64().unwrap() as i64, p[1].as_f64().unwrap() as i64),
            )
        })
        .collect();
    m["givens"]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| pos[k.as_str()])
        .collect()
}

#[test]
fn symmetric_patterns() {
    for (g, sym) in [
        ("classic9", "rotate180"),
        ("classic9", "rotate90"),
        ("classic9", "mirror"),
        ("classic9", "diagonal"),
        ("samurai", "rotate90"),
    ] {
        let models = check_all(&["-g", g, "--seed", "2", "--symmetry", sym], 1);
        let given = given_positions(&models[0]);
        let all: Vec<(i64, i64)> = given_positions(&{
            let mut m = models[0].clone();
            m["givens"] = Value::Object(models[0]["solution"].as_object().unwrap().clone());
            m
        });
        let (x1, y1) = (
            all.iter().map(|p| p.0).max().unwrap(),
            all.iter().map(|p| p.1).max().unwrap(),
        );
        for &(x, y) in &given {
            let image = match sym {
                "rotate180" => (x1 - x, y1 - y),
                "rotate90" => (x1 - y, x),
                "mirror" => (x1 - x, y),
                _ => (y, x),
            };
            assert!(
                given.contains(&image),
                "{g} {sym}: ({x},{y}) has no partner"
            );
        }
    }
}

#[test]
fn refuses_symmetry_the_layout_lacks() {
    let (code, _, err) = run(&["generate", "-g", "tredoku", "--symmetry", "mirror"]);
    assert_eq!(code, 2);
    assert!(err.contains("no mirror symmetry"), "{err}");
}

#[test]
fn target_givens() {
    let models = check_all(&["-g", "classic9", "--seed", "1", "--givens", "32"], 1);
    assert_eq!(models[0]["givens"].as_object().unwrap().len(), 32);
    assert_eq!(models[0]["source"]["minimal"], false);
    // a target below what minimal puzzles reach fails after the attempts, exit 1
    let (code, _, err) = run(&[
        "generate",
        "-g",
        "classic4",
        "--seed",
        "1",
        "--givens",
        "2",
        "--attempts",
        "3",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("fewest givens reached"), "{err}");
}

/// The built-in 36x36 (6x6 boxes, symbols 0-9 and A-Z): a puzzle thinned to 1000 givens, unique
/// by the referee's own count.
#[test]
fn target_givens_on_the_36x36() {
    let models = check_all(&["-g", "classic36", "--seed", "1", "--givens", "1000"], 1);
    assert_eq!(models[0]["givens"].as_object().unwrap().len(), 1000);
    assert_eq!(models[0]["symbols"].as_array().unwrap().len(), 36);
}

/// Fills every naked and hidden single of the unique shapes; true when the grid is complete.
fn solves_by_singles(model: &Value) -> bool {
    let mut naive = Naive::new(model);
    loop {
        let mut progress = false;
        for c in 0..naive.grid.len() {
            if naive.grid[c].is_none() {
                let options: Vec<usize> = (0..naive.n_symbols)
                    .filter(|&s| naive.allowed(c, s))
                    .collect();
                if options.len() == 1 {
                    naive.set(c, options[0]);
                    progress = true;
                }
            }
        }
        for k in 0..naive.shapes.len() {
            if naive.shapes[k].0.len() != naive.n_symbols {
                continue;
            }
            for s in 0..naive.n_symbols {
                let cells = naive.shapes[k].0.clone();
                if cells.iter().any(|&c| naive.grid[c] == Some(s)) {
                    continue;
                }
                let places: Vec<usize> = cells
                    .into_iter()
                    .filter(|&c| naive.grid[c].is_none() && naive.allowed(c, s))
                    .collect();
                if places.len() == 1 {
                    naive.set(places[0], s);
                    progress = true;
                }
            }
        }
        if !progress {
            return naive.grid.iter().all(Option::is_some);
        }
    }
}

#[test]
fn difficulty_targets() {
    let easy = check_all(
        &[
            "-g",
            "classic9",
            "--seed",
            "3",
            "--count",
            "2",
            "--difficulty",
            "easy",
        ],
        2,
    );
    for m in &easy {
        assert_eq!(m["source"]["rating"]["level"], "easy");
        assert!(
            solves_by_singles(m),
            "an easy puzzle needs more than singles"
        );
    }
    let hard = check_all(
        &["-g", "classic9", "--seed", "3", "--difficulty", "hard"],
        1,
    );
    assert_eq!(hard[0]["source"]["rating"]["level"], "hard");
    assert!(
        !solves_by_singles(&hard[0]),
        "a hard puzzle falls to singles"
    );
}

/// Generation by difficulty on five-grid layouts (the built-in Samurai and the Cross layout of
/// `puzzles/layouts`): each puzzle is unique, minimal and certified by the independent checks,
/// and `anydoku rate` run on the puzzle alone (no solution, no source) gives the level asked for.
#[test]
fn difficulty_on_five_grid_layouts_is_rated_the_level_again() {
    let cross = root().join("puzzles/layouts/cross.toml");
    let cross = cross.to_str().unwrap();
    let dir = common::scratch_dir();
    for (g, level, seed) in [
        ("samurai", "hard", "4"),
        ("samurai", "medium", "1"),
        (cross, "hard", "2"),
    ] {
        let m = &check_all(&["-g", g, "--seed", seed, "--difficulty", level], 1)[0];
        assert_eq!(m["source"]["minimal"], true, "{g} {level}");
        assert_eq!(m["source"]["rating"]["level"], level, "{g} {level}");
        let mut bare = m.clone();
        for k in ["solution", "certificates", "source"] {
            bare.as_object_mut().unwrap().remove(k);
        }
        let path = dir.join(format!("{level}-{seed}.json"));
        std::fs::write(&path, bare.to_string()).unwrap();
        let (code, out, err) = run(&["rate", path.to_str().unwrap(), "--format", "json"]);
        assert_eq!(code, 0, "{err}");
        let r: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(r["level"], level, "{g} seed {seed}: {out}");
        assert_eq!(r["search"], false);
    }
}

#[test]
fn user_geometry_file() {
    let dir = common::scratch_dir();
    let path = dir.join("mine.toml");
    std::fs::write(
        &path,
        "name = \"Mine\"\nsymbols = \"ABCDE\"\n[[grid]]\nsize = 5\nregions = \"\"\"\nAAABB\nACCBB\nACCDB\nECDDD\nEEEED\n\"\"\"\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    check_all(&["-g", p, "--seed", "9", "--count", "2"], 2);
    check_all(
        &["-g", p, "--seed", "9", "--killer", "--cage-size", "1-3"],
        1,
    );
}

#[test]
fn text_output_draws_the_puzzle() {
    let (code, out, _) = run(&["generate", "-g", "classic9", "--seed", "5"]);
    assert_eq!(code, 0);
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("# one line: "))
        .unwrap();
    assert_eq!(line.chars().count(), 81);
    let givens = line.chars().filter(|c| c.is_ascii_digit()).count();
    assert!(out.contains(&format!("{givens} givens")), "{out}");
    // the drawing holds the same givens, row by row
    let drawn: String = out
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('-') && l.len() < 40)
        .collect::<Vec<_>>()
        .concat();
    let drawn: String = drawn
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    assert_eq!(drawn, line);
    let (code, out, _) = run(&["generate", "-g", "classic6", "--killer", "--seed", "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("Cage 1 = "), "{out}");
}

#[test]
fn bad_options_exit_2_with_a_message() {
    for (args, msg) in [
        (vec!["-g", "nowhere"], "unknown geometry"),
        (
            vec!["-g", "classic9", "--killer", "--cage-size", "5-2"],
            "cage size '5-2'",
        ),
        (
            vec!["-g", "classic9", "--killer", "--cage-size", "x"],
            "cage size 'x'",
        ),
        (
            vec!["-g", "classic4", "--killer", "--cage-size", "2-5"],
            "only 4 symbols",
        ),
        (
            vec!["-g", "classic9", "--difficulty", "impossible"],
            "unknown difficulty 'impossible'",
        ),
        (
            vec!["-g", "classic9", "--count", "0"],
            "--count must be at least 1",
        ),
        (vec!["-g", "classic9", "--symmetry", "spiral"], "spiral"),
        (
            vec!["-g", "classic9", "--killer", "--symmetry", "mirror"],
            "Killer puzzles have none",
        ),
    ] {
        let (code, _, err) = run(&[&["generate"], args.as_slice()].concat());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn every_example_puzzle_solves_uniquely() {
    let dir = root().join("puzzles");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    for builtin in [
        "classic4",
        "classic6",
        "classic9",
        "classic12",
        "classic16",
        "classic25",
        "x",
        "windoku",
        "jigsaw",
        "toroidal",
        "samurai",
        "butterfly",
        "sohei",
        "windmill",
        "gattai8",
        "tredoku",
    ] {
        assert!(
            names.contains(&format!("{builtin}.toml")),
            "no example for {builtin}"
        );
    }
    for n in &names {
        let path = dir.join(n);
        let (status, solution) = solve_and_check(path.to_str().unwrap(), None);
        assert_eq!(status, "unique", "{n}");
        assert!(solution.is_some(), "{n}");
    }
}

/// 100 puzzles per geometry, all checked by the naive solver (run with --release --ignored).
/// `GENERATE_COUNT` overrides the count and `GENERATE_ONLY` (comma-separated labels) the
/// geometries, for quicker partial runs.
#[test]
#[ignore]
fn corpus_generate_100() {
    let count: usize = std::env::var("GENERATE_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let only = std::env::var("GENERATE_ONLY").ok();
    for (args, label) in [
        (vec!["-g", "classic9"], "classic9"),
        (vec!["-g", "x"], "x"),
        (vec!["-g", "jigsaw"], "jigsaw"),
        (vec!["-g", "toroidal"], "toroidal"),
        (vec!["-g", "samurai"], "samurai"),
        (vec!["-g", "classic16"], "classic16"),
        (vec!["-g", "classic9", "--killer"], "killer9"),
    ] {
        if only
            .as_ref()
            .is_some_and(|o| !o.split(',').any(|l| l == label))
        {
            continue;
        }
        let start = std::time::Instant::now();
        let n = count.to_string();
        let models = check_all(
            &[args.as_slice(), &["--seed", "100", "--count", n.as_str()]].concat(),
            count,
        );
        let mut givens: Vec<usize> = models
            .iter()
            .map(|m| m["givens"].as_object().unwrap().len())
            .collect();
        givens.sort_unstable();
        let certificates: usize = models
            .iter()
            .map(|m| m["certificates"].as_object().unwrap().len())
            .sum();
        let minimal = models
            .iter()
            .filter(|m| m["source"]["minimal"] == true)
            .count();
        assert_eq!(minimal, count, "{label}: a puzzle not proven minimal");
        eprintln!(
            "{label}: {count} puzzles generated and checked in {:?}; median givens {}; \
             {minimal} marked minimal; {certificates} certificates checked",
            start.elapsed(),
            givens[count / 2]
        );
    }
}

/// Minimal 25x25 puzzles: the removal checks that depth-first search cannot exhaust on sparse
/// 25x25 grids go to CDCL. Two puzzles (about half a minute each), every one re-solved by the
/// SAT encoding and every certificate checked. Run by `.ci/run` (`cargo test -- --ignored`).
#[test]
#[ignore]
fn corpus_generate_25x25() {
    let start = std::time::Instant::now();
    let models = check_all(&["-g", "classic25", "--seed", "1", "--count", "2"], 2);
    for m in &models {
        assert_eq!(
            m["source"]["minimal"], true,
            "a 25x25 puzzle not proven minimal"
        );
    }
    eprintln!(
        "classic25: 2 minimal puzzles generated and checked in {:?}; givens {:?}",
        start.elapsed(),
        models
            .iter()
            .map(|m| m["givens"].as_object().unwrap().len())
            .collect::<Vec<_>>()
    );
}

/// Killer generation on a layout of two 6x6 grids sharing a box: a cage far from the shared box
/// is first checked in its own grid with the other grid fixed (its window), so these
/// certificates come from that path too; every one is checked by the referee.
#[test]
fn killer_on_two_grids_is_minimal_with_certificates() {
    let layout = common::scratch_file(
        "twin6.toml",
        "name = \"Twin 6x6\"\nsymbols = \"123456\"\n\
         [[grid]]\nname = \"A\"\nsize = 6\nboxes = [2, 3]\n\
         [[grid]]\nname = \"B\"\norigin = [5, 4]\nsize = 6\nboxes = [2, 3]\n",
    );
    let p = layout.arg();
    for m in check_all(&["-g", p, "--killer", "--seed", "3", "--count", "3"], 3) {
        assert_eq!(m["source"]["minimal"], true);
        assert_eq!(m["cells"].as_array().unwrap().len(), 66);
    }
}

/// A Samurai Killer (five grids, no givens) is made minimal on one solver kept across the cage
/// drops; the SAT referee re-solves it and checks the certificate of every cage. Run by
/// `.ci/run` (`cargo test -- --ignored`).
#[test]
#[ignore]
fn corpus_samurai_killer_is_minimal_with_certificates() {
    let start = std::time::Instant::now();
    let models = check_all(&["-g", "samurai", "--killer", "--seed", "8"], 1);
    assert_eq!(models[0]["source"]["minimal"], true);
    eprintln!(
        "samurai killer: minimal, {} cages checked in {:?}",
        models[0]["certificates"].as_object().unwrap().len(),
        start.elapsed()
    );
}
