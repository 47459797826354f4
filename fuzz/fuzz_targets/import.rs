//! The Killer importers (KrazyDad CSV, puzzlekit JSON, cage JSON; the first byte picks which),
//! each record made into a puzzle and into a TOML puzzle file that must read back.
#![no_main]
use anydoku::puzzle::Source;
use anydoku::Puzzle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = anydoku_fuzz::text(rest) else {
        return;
    };
    let source = [Source::KrazyDad, Source::Puzzlekit, Source::CageJson][pick as usize % 3];
    let Ok(records) = source.read(text) else {
        return;
    };
    for raw in records.iter().take(4) {
        let Ok(p) = raw.to_puzzle() else {
            continue;
        };
        anydoku_fuzz::exercise(&p);
        let toml = raw.to_toml();
        let back = Puzzle::from_toml(&toml).unwrap_or_else(|e| {
            panic!("an imported puzzle's TOML does not read back: {e}\n{toml}")
        });
        assert_eq!(back.givens, p.givens);
    }
});
