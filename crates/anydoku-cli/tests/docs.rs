//! The README's and docs' command examples, run and compared with what they show.
//!
//! Every ```` ```console ```` block of the files below is a list of `$ anydoku ...` commands and
//! their output (stdout and stderr together, as a terminal shows them); `...` on a line of its
//! own stands for any lines, `[..]` for any text within a line (timings), and `? failed` marks a
//! command that exits non-zero. The commands run as from the repository's root, on the files it
//! ships (in a scratch directory that links `puzzles`, `geometries` and `docs`, so that files
//! the examples write do not land in the repository). To see what changed: `TRYCMD=dump cargo test --release --test docs`; to rewrite the
//! blocks from the program's output: `TRYCMD=overwrite` (then put the `...` back).

mod common;

#[test]
fn readme_and_docs_examples_print_what_they_show() {
    let root = common::root().canonicalize().unwrap();
    let scratch = common::scratch_dir();
    for dir in ["puzzles", "geometries", "docs"] {
        std::os::unix::fs::symlink(root.join(dir), scratch.join(dir)).unwrap();
    }
    // the commands name files relative to the repository's root, as a reader runs them
    std::env::set_current_dir(&scratch).unwrap();
    trycmd::TestCases::new()
        .register_bin(
            "anydoku",
            std::path::Path::new(env!("CARGO_BIN_EXE_anydoku")),
        )
        .case(root.join("README.md"))
        .case(root.join("docs/FORMATS.md"))
        .run();
}

/// The README's TOML example is a geometry that loads (one grid, a window and a cage).
#[test]
fn readme_toml_example_loads() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let start = readme.find("```toml\n").expect("a TOML example") + "```toml\n".len();
    let toml = &readme[start..start + readme[start..].find("```").unwrap()];
    let file = common::scratch_file("readme.toml", toml);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anydoku"))
        .args(["export", file.arg()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let model: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let shapes = model["shapes"].as_array().unwrap();
    assert!(shapes.iter().any(|s| s["name"] == "Window 1"));
    assert!(shapes.iter().any(|s| s["rule"] == "sum" && s["sum"] == 11));
}
