//! A TOML puzzle file: a geometry by name or inline, givens as grid text, `[[cage]]`s.
#![no_main]
use anydoku::Puzzle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = anydoku_fuzz::text(data) else {
        return;
    };
    if let Ok(p) = Puzzle::from_toml(text) {
        anydoku_fuzz::exercise(&p);
    }
});
