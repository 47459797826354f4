//! The lines of a `.jsonl` file as `batch` reads them: [`JsonLines`] (the byte scan and its
//! cache of the previous line's layout) must agree with the full JSON reader on every line.
#![no_main]
use anydoku::puzzle::JsonLines;
use anydoku::Puzzle;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = anydoku_fuzz::text(data) else {
        return;
    };
    let mut lines = JsonLines::new();
    for line in text.lines().take(8) {
        let fast = lines.read(line);
        let full = Puzzle::from_json(line);
        match (&fast, &full) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.givens, b.givens, "givens differ on {line}");
                assert_eq!(a.geometry.cell_count(), b.geometry.cell_count());
                assert_eq!(a.geometry.shapes.len(), b.geometry.shapes.len());
                anydoku_fuzz::exercise(a);
            }
            (Err(_), Err(_)) => {}
            _ => panic!(
                "the line scan and the JSON reader disagree on {line}: {:?} / {:?}",
                fast.as_ref().err().map(|e| e.to_string()),
                full.as_ref().err().map(|e| e.to_string())
            ),
        }
    }
});
