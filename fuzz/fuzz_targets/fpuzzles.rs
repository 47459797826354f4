//! f-puzzles links, their base64 (LZ-string) payloads and the JSON behind them; a puzzle read
//! is written back as a link, which must read back to the same givens.
#![no_main]
use anydoku::puzzle::fpuzzles;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = anydoku_fuzz::text(data) else {
        return;
    };
    let Ok(p) = fpuzzles::parse(text) else {
        return;
    };
    anydoku_fuzz::exercise(&p);
    if let Ok(url) = p.to_fpuzzles_url() {
        let back = fpuzzles::parse(&url)
            .unwrap_or_else(|e| panic!("a link written does not read back: {e}\n{url}"));
        assert_eq!(back.givens, p.givens, "the givens read back differ");
    }
});
