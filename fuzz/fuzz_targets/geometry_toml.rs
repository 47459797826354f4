//! A geometry TOML file (`[[grid]]`s, explicit cells, shapes, selectors), then the empty
//! puzzle on it through [`anydoku_fuzz::exercise`].
#![no_main]
use std::sync::Arc;

use anydoku::{Geometry, Puzzle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = anydoku_fuzz::text(data) else {
        return;
    };
    if let Ok(g) = Geometry::from_toml(text) {
        anydoku_fuzz::exercise(&Puzzle::empty(Arc::new(g)));
    }
});
