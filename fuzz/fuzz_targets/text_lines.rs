//! One-line strings and grid text on a built-in geometry (the first byte picks which): the
//! line reader `batch` uses and the grid-text reader `solve -g` uses.
#![no_main]
use std::sync::{Arc, OnceLock};

use anydoku::puzzle::TextLines;
use anydoku::{Geometry, Puzzle};
use libfuzzer_sys::fuzz_target;

fn geometries() -> &'static Vec<Arc<Geometry>> {
    static ALL: OnceLock<Vec<Arc<Geometry>>> = OnceLock::new();
    ALL.get_or_init(|| {
        Geometry::builtin_names()
            .map(|n| Arc::new(Geometry::builtin(n).expect("a built-in geometry")))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = anydoku_fuzz::text(rest) else {
        return;
    };
    let all = geometries();
    let g = all[pick as usize % all.len()].clone();
    let lines = TextLines::new(g.clone());
    for line in text.lines().take(8) {
        if let Ok(p) = lines.read(line) {
            anydoku_fuzz::exercise(&p);
        }
    }
    if let Ok(p) = Puzzle::from_text(g, text) {
        anydoku_fuzz::exercise(&p);
    }
});
