//! The neutral JSON model (symbols, values, cells, shapes, givens).
#![no_main]
use anydoku::Puzzle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = anydoku_fuzz::text(data) else {
        return;
    };
    if let Ok(p) = Puzzle::from_json(text) {
        anydoku_fuzz::exercise(&p);
    }
});
