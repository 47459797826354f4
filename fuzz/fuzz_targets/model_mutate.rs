//! Structure-aware: a shipped puzzle's parsed JSON model, edited by a list of typed edits
//! (givens, cells, positions, shapes, sums, symbols, values) that byte mutation would rarely
//! reach intact, then written out and read back through the JSON model reader.
#![no_main]
use std::sync::OnceLock;

use anydoku::puzzle::json::{CellJson, ModelJson, ShapeJson};
use anydoku::Puzzle;
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

#[derive(Arbitrary, Debug)]
struct Input {
    seed: u8,
    edits: Vec<Edit>,
}

#[derive(Arbitrary, Debug)]
enum Edit {
    SetGiven {
        cell: u16,
        symbol: u8,
    },
    ClearGiven {
        cell: u16,
    },
    RenameCell {
        cell: u16,
        name: String,
    },
    MoveCell {
        cell: u16,
        x: f64,
        y: f64,
    },
    DropCell {
        cell: u16,
    },
    CopyCell {
        cell: u16,
    },
    DropShape {
        shape: u16,
    },
    AddShape {
        cells: Vec<u16>,
        sum: Option<i64>,
        unique: Option<bool>,
    },
    SetShapeCell {
        shape: u16,
        slot: u16,
        cell: u16,
    },
    SetSum {
        shape: u16,
        sum: i64,
    },
    SetKind {
        shape: u16,
        kind: u8,
    },
    SetKey {
        shape: u16,
        key: u8,
        value: i64,
    },
    SetValue {
        symbol: u8,
        value: i64,
    },
    AddSymbol {
        name: String,
    },
    DropSymbol,
}

/// The constraint kinds and their keys, so that edits reach every kind's reader.
const KINDS: &[&str] = &[
    "unique",
    "sum",
    "thermometer",
    "anti-knight",
    "anti-king",
    "difference",
    "ratio",
    "xv",
    "inequality",
    "non-consecutive",
    "non-ratio",
    "non-xv",
];
const KEYS: &[&str] = &["sum", "difference", "ratio", "slow", "unique", "values"];

const SEEDS: &[&str] = &[
    include_str!("../../puzzles/classic4.toml"),
    include_str!("../../puzzles/classic6.toml"),
    include_str!("../../puzzles/killer6.toml"),
    include_str!("../../puzzles/x.toml"),
    include_str!("../../puzzles/jigsaw.toml"),
    include_str!("../../puzzles/windoku.toml"),
    include_str!("../../puzzles/toroidal.toml"),
    include_str!("../../puzzles/tredoku.toml"),
];

fn models() -> &'static Vec<ModelJson> {
    static MODELS: OnceLock<Vec<ModelJson>> = OnceLock::new();
    MODELS.get_or_init(|| {
        SEEDS
            .iter()
            .map(|t| {
                let p = Puzzle::from_toml(t).expect("a shipped puzzle");
                serde_json::from_value(p.to_json()).expect("its model")
            })
            .collect()
    })
}

fn at(i: u16, n: usize) -> Option<usize> {
    (n > 0).then(|| i as usize % n)
}

fn apply(m: &mut ModelJson, e: Edit) {
    let (nc, ns) = (m.cells.len(), m.shapes.len());
    let cell_name = |m: &ModelJson, i: u16| at(i, m.cells.len()).map(|c| m.cells[c].name.clone());
    match e {
        Edit::SetGiven { cell, symbol } => {
            if let (Some(c), Some(s)) = (cell_name(m, cell), at(symbol.into(), m.symbols.len())) {
                let sym = m.symbols[s].clone();
                m.givens.insert(c, Value::String(sym));
            }
        }
        Edit::ClearGiven { cell } => {
            if let Some(c) = cell_name(m, cell) {
                m.givens.remove(&c);
            }
        }
        Edit::RenameCell { cell, name } => {
            if let Some(c) = at(cell, nc) {
                m.cells[c].name = name;
            }
        }
        Edit::MoveCell { cell, x, y } => {
            if let Some(c) = at(cell, nc) {
                m.cells[c].pos = [x, y];
            }
        }
        Edit::DropCell { cell } => {
            if let Some(c) = at(cell, nc) {
                m.cells.remove(c);
            }
        }
        Edit::CopyCell { cell } => {
            if let Some(c) = at(cell, nc) {
                let copy: CellJson = m.cells[c].clone();
                m.cells.push(copy);
            }
        }
        Edit::DropShape { shape } => {
            if let Some(s) = at(shape, ns) {
                m.shapes.remove(s);
            }
        }
        Edit::AddShape { cells, sum, unique } => {
            let cells = cells.iter().filter_map(|&i| cell_name(m, i)).collect();
            m.shapes.push(ShapeJson {
                name: format!("extra {ns}"),
                rule: if sum.is_some() { "sum" } else { "unique" }.to_string(),
                cells,
                sum,
                unique,
                keys: Default::default(),
            });
        }
        Edit::SetShapeCell { shape, slot, cell } => {
            if let (Some(s), Some(c)) = (at(shape, ns), cell_name(m, cell)) {
                if let Some(k) = at(slot, m.shapes[s].cells.len()) {
                    m.shapes[s].cells[k] = c;
                }
            }
        }
        Edit::SetSum { shape, sum } => {
            if let Some(s) = at(shape, ns) {
                m.shapes[s].rule = "sum".to_string();
                m.shapes[s].sum = Some(sum);
            }
        }
        Edit::SetKind { shape, kind } => {
            if let Some(s) = at(shape, ns) {
                m.shapes[s].rule = KINDS[kind as usize % KINDS.len()].to_string();
            }
        }
        Edit::SetKey { shape, key, value } => {
            if let Some(s) = at(shape, ns) {
                let key = KEYS[key as usize % KEYS.len()].to_string();
                let v = match key.as_str() {
                    "slow" | "unique" => Value::Bool(value & 1 == 1),
                    _ => Value::from(value),
                };
                m.shapes[s].keys.insert(key, v);
            }
        }
        Edit::SetValue { symbol, value } => {
            if let Some(values) = m.values.as_mut() {
                if let Some(s) = at(symbol.into(), values.len()) {
                    values[s] = value;
                }
            }
        }
        Edit::AddSymbol { name } => {
            m.symbols.push(name);
            if let Some(values) = m.values.as_mut() {
                values.push(values.len() as i64 + 1);
            }
        }
        Edit::DropSymbol => {
            m.symbols.pop();
            if let Some(values) = m.values.as_mut() {
                values.pop();
            }
        }
    }
}

fuzz_target!(|input: Input| {
    let models = models();
    let mut m = models[input.seed as usize % models.len()].clone();
    for e in input.edits.into_iter().take(64) {
        apply(&mut m, e);
    }
    let Ok(text) = serde_json::to_string(&m) else {
        return; // a position that JSON cannot hold (NaN, infinity)
    };
    if let Ok(p) = Puzzle::from_json(&text) {
        anydoku_fuzz::exercise(&p);
    }
});
