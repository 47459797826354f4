//! The hostile-input matrix: every case in `tests/hostile/cases.toml` runs the binary on input
//! a hostile or careless user might give it, and asserts its exit code, what it says and how
//! long it takes (2 s unless the case says otherwise), under a memory cap (1 GiB of address
//! space unless the case says otherwise), so a hang, a panic, a crash or a runaway allocation
//! fails the test.
//!
//! A case names its command line (`args`, run in a fresh directory holding the case's files;
//! `{root}` is the repository), its files (text, bytes in hex, repeated parts, or generated:
//! see [`Part`]), optionally its standard input and where its standard output goes (`full`:
//! `/dev/full`; `close`: a pipe the test closes after the first bytes), and what must hold.
//! A run that only overstays its time is tried twice more (on a loaded machine a process can
//! wait for a core; a real overrun fails every time).
//! `docs/HOSTILE.md` is the table of every case; it is checked against the cases here
//! (`HOSTILE_BLESS=1 cargo test --release --test hostile` writes it anew).

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

/// The classes of hostile input, in the order of the issue that named them.
const CLASSES: &[(&str, &str)] = &[
    ("size", "Unbounded time or memory from a small input"),
    ("panic", "Panics and crashes"),
    ("budget", "Budgets that must stop the work"),
    ("exit", "The exit-code contract"),
    ("model", "Silently wrong models"),
    ("stream", "Streams that must lose nothing"),
    ("message", "Messages that must not mislead"),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    /// A short unique name.
    id: String,
    /// One of [`CLASSES`].
    class: String,
    /// The input path it attacks (geometry TOML, puzzle TOML, JSON model, ...).
    path: String,
    /// What the case is about, for the table.
    what: String,
    args: Vec<String>,
    #[serde(default)]
    file: Vec<File>,
    #[serde(default)]
    stdin: Option<String>,
    /// `full` (writes fail: no space left) or `close` (the reader goes away).
    #[serde(default)]
    stdout_to: Option<String>,
    exit: i32,
    /// Substrings standard error must hold.
    #[serde(default)]
    stderr: Vec<String>,
    /// Substrings standard error must not hold.
    #[serde(default)]
    not_stderr: Vec<String>,
    /// Substrings standard output must hold.
    #[serde(default)]
    stdout: Vec<String>,
    /// Substrings standard output must not hold.
    #[serde(default)]
    not_stdout: Vec<String>,
    /// Exactly this many lines on standard output.
    #[serde(default)]
    stdout_lines: Option<usize>,
    /// The most seconds the run may take (default 2).
    #[serde(default)]
    seconds: Option<f64>,
    /// The fewest seconds it must take (a budget that must not stop too early).
    #[serde(default)]
    min_seconds: Option<f64>,
    /// The address-space cap in MiB (default 1024).
    #[serde(default)]
    memory_mb: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: String,
    /// A file of `tests/hostile/files/` to start from.
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    part: Vec<Part>,
    /// Shorthand for one text part.
    #[serde(default)]
    text: Option<String>,
}

/// A piece of a file: `text` or `hex` bytes, `times` times over (default once; in a text,
/// `{n}`, `{n % A}`, `{n * B}`, `{n + C}` and their combinations in that order stand for the
/// repetition's number from 0), or a generated piece: `lz_bomb = N`, an f-puzzles base64
/// string whose LZ-string stream grows its dictionary entry by entry over N codes, so that it
/// decompresses to about N²/2 characters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    hex: Option<String>,
    #[serde(default)]
    times: Option<usize>,
    #[serde(default)]
    lz_bomb: Option<usize>,
}

fn cases() -> Vec<Case> {
    let path = common::root().join("crates/anydoku-cli/tests/hostile/cases.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let cases: Cases = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    cases.case
}

/// `text` with its `{n ...}` placeholders for repetition `n` (see [`Part`]).
fn numbered(text: &str, n: u64) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("{n") {
        out.push_str(&rest[..open]);
        let close = open + rest[open..].find('}').expect("a closing brace");
        let mut v = n;
        let expr: String = rest[open + 2..close].split_whitespace().collect();
        for (op, arg) in ['%', '*', '+'].iter().filter_map(|&op| {
            let at = expr.find(op)?;
            let end = expr[at + 1..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(expr.len(), |e| at + 1 + e);
            Some((op, expr[at + 1..end].parse::<u64>().expect("a number")))
        }) {
            v = match op {
                '%' => v % arg,
                '*' => v * arg,
                _ => v + arg,
            };
        }
        out.push_str(&v.to_string());
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

fn bytes_of(part: &Part) -> Vec<u8> {
    if let (Some(t), true) = (
        &part.text,
        part.text.as_ref().is_some_and(|t| t.contains("{n")),
    ) {
        let times = part.times.unwrap_or(1) as u64;
        return (0..times)
            .flat_map(|n| numbered(t, n).into_bytes())
            .collect();
    }
    let one: Vec<u8> = if let Some(t) = &part.text {
        t.as_bytes().to_vec()
    } else if let Some(h) = &part.hex {
        let h: String = h.split_whitespace().collect();
        (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).expect("hex bytes"))
            .collect()
    } else if let Some(n) = part.lz_bomb {
        lz_bomb(n).into_bytes()
    } else {
        panic!("a part needs text, hex or lz_bomb")
    };
    one.repeat(part.times.unwrap_or(1))
}

/// An LZ-string `compressToBase64` stream of `n` codes, each the dictionary entry added just
/// before (so each is one character longer than the last): about `n * n / 2` characters of
/// `a` once decompressed, from about `2.2 * n` characters of base64.
fn lz_bomb(n: usize) -> String {
    let mut bits: Vec<bool> = Vec::new();
    let put = |value: usize, width: usize, bits: &mut Vec<bool>| {
        // LZ-string writes values least significant bit first
        for i in 0..width {
            bits.push(value >> i & 1 == 1);
        }
    };
    // the first code: a literal 8-bit character (code 0, in 2 bits)
    put(0, 2, &mut bits);
    put(b'a' as usize, 8, &mut bits);
    // the dictionary holds 0, 1, 2 (the reserved codes) and 3 = "a"; each code read adds an
    // entry (the previous string plus the first character of the current one), so code k + 4
    // is always the entry being added when code k + 4 is read: "a" repeated k + 2 times
    let mut dict = 4;
    let mut width = 3; // bits per code once the literal is in
    for _ in 0..n {
        put(dict, width, &mut bits);
        dict += 1;
        if dict >= 1 << width {
            width += 1;
        }
    }
    // end of stream: code 2
    put(2, width, &mut bits);
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
    let mut out = String::new();
    for chunk in bits.chunks(6) {
        // each base64 character holds six bits, the first one most significant
        let mut v = 0usize;
        for i in 0..6 {
            v = v << 1 | chunk.get(i).copied().unwrap_or(false) as usize;
        }
        out.push(ALPHABET[v] as char);
    }
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

/// What one run did.
struct Run {
    code: i32,
    out: String,
    err: String,
    secs: f64,
}

fn run_case(case: &Case, dir: &Path) -> Run {
    let root = common::root();
    let args: Vec<String> = case
        .args
        .iter()
        .map(|a| a.replace("{root}", root.to_str().unwrap()))
        .collect();
    let memory = case.memory_mb.unwrap_or(1024) * 1024;
    // the memory cap through the shell's ulimit (address space, in KiB)
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {memory}; exec \"$0\" \"$@\""))
        .arg(common::bin())
        .args(&args)
        .current_dir(dir)
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(Stdio::piped());
    match case.stdout_to.as_deref() {
        Some("full") => {
            cmd.stdout(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            );
        }
        None | Some("close") => {
            cmd.stdout(Stdio::piped());
        }
        Some(other) => panic!("{}: unknown stdout_to {other}", case.id),
    }
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap();
    if let Some(text) = &case.stdin {
        let mut stdin = child.stdin.take().unwrap();
        let text = text.clone();
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stderr.read_to_end(&mut s);
        s
    });
    let mut out = Vec::new();
    if let Some(mut stdout) = child.stdout.take() {
        if case.stdout_to.as_deref() == Some("close") {
            // read the first bytes, then go away like `head` does
            let mut first = [0u8; 64];
            let _ = stdout.read(&mut first);
            out.extend_from_slice(&first);
            drop(stdout);
        } else {
            let _ = stdout.read_to_end(&mut out);
        }
    }
    // a run that overstays is killed (and then fails its time check)
    let limit = case.seconds.unwrap_or(2.0) + 10.0;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed().as_secs_f64() > limit {
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let secs = start.elapsed().as_secs_f64();
    Run {
        code: status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
        secs,
    }
}

/// Checks one case; the problems found, if any.
fn check(case: &Case, r: &Run) -> Vec<String> {
    let mut problems = Vec::new();
    let shown = |s: &str| {
        let s: String = s.chars().take(600).collect();
        s.replace('\n', "\n      ")
    };
    if r.code != case.exit {
        problems.push(format!("exit {} (want {})", r.code, case.exit));
    }
    for want in &case.stderr {
        if !r.err.contains(want.as_str()) {
            problems.push(format!("stderr lacks {want:?}"));
        }
    }
    for want in &case.stdout {
        if !r.out.contains(want.as_str()) {
            problems.push(format!("stdout lacks {want:?}"));
        }
    }
    for bad in &case.not_stderr {
        if r.err.contains(bad.as_str()) {
            problems.push(format!("stderr holds {bad:?}"));
        }
    }
    for bad in &case.not_stdout {
        if r.out.contains(bad.as_str()) {
            problems.push(format!("stdout holds {bad:?}"));
        }
    }
    if let Some(n) = case.stdout_lines {
        if r.out.lines().count() != n {
            problems.push(format!(
                "{} lines on stdout (want {n})",
                r.out.lines().count()
            ));
        }
    }
    let most = case.seconds.unwrap_or(2.0);
    if r.secs > most {
        problems.push(format!("took {:.2} s (at most {most} s)", r.secs));
    }
    if let Some(least) = case.min_seconds {
        if r.secs < least {
            problems.push(format!("took {:.2} s (at least {least} s)", r.secs));
        }
    }
    if r.err.contains("panicked") || r.err.contains("RUST_BACKTRACE") {
        problems.push("panicked".into());
    }
    if !problems.is_empty() {
        problems.push(format!("stdout: {}", shown(&r.out)));
        problems.push(format!("stderr: {}", shown(&r.err)));
    }
    problems
}

/// Whether a run holds everything but its time.
fn check_untimed(case: &Case, r: &Run) -> bool {
    let untimed = Run {
        secs: case.min_seconds.unwrap_or(0.0),
        code: r.code,
        out: r.out.clone(),
        err: r.err.clone(),
    };
    check(case, &untimed).is_empty()
}

/// Runs every case (or those whose id contains `HOSTILE_ONLY`).
#[test]
fn hostile_inputs_are_answered_in_time_with_the_right_exit_code() {
    let only = std::env::var("HOSTILE_ONLY").ok();
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in cases() {
        if only.as_deref().is_some_and(|o| !case.id.contains(o)) {
            continue;
        }
        let dir = common::scratch_dir();
        for f in &case.file {
            let mut bytes = match &f.from {
                Some(name) => std::fs::read(
                    common::root()
                        .join("crates/anydoku-cli/tests/hostile/files")
                        .join(name),
                )
                .unwrap(),
                None => Vec::new(),
            };
            bytes.extend_from_slice(f.text.as_deref().unwrap_or("").as_bytes());
            for p in &f.part {
                bytes.extend(bytes_of(p));
            }
            std::fs::write(dir.join(&f.name), bytes).unwrap();
        }
        let mut r = run_case(&case, &dir);
        let mut problems = check(&case, &r);
        // a run that only took too long is tried twice more: on a loaded machine a process can
        // wait for a core (a real overrun fails every time)
        for _ in 0..2 {
            if problems.iter().any(|p| p.starts_with("took")) && check_untimed(&case, &r) {
                r = run_case(&case, &dir);
                problems = check(&case, &r);
            }
        }
        ran += 1;
        if std::env::var("HOSTILE_VERBOSE").is_ok() {
            eprintln!("{:<40} exit {} in {:.2} s", case.id, r.code, r.secs);
        }
        if !problems.is_empty() {
            failures.push(format!("{}:\n    {}", case.id, problems.join("\n    ")));
        }
    }
    assert!(ran > 0, "no case ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} hostile cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The cases are well formed: unique ids, known classes, and at least one case per class.
#[test]
fn hostile_cases_are_well_formed() {
    let cases = cases();
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before, "case ids repeat");
    for c in &cases {
        assert!(
            CLASSES.iter().any(|(k, _)| *k == c.class),
            "{}: unknown class {}",
            c.id,
            c.class
        );
        assert!(!c.what.is_empty() && !c.path.is_empty(), "{}", c.id);
        assert!(
            c.exit == 0 || !c.stderr.is_empty() || !c.stdout.is_empty(),
            "{}: a failing case must say what message it expects",
            c.id
        );
    }
    for (k, _) in CLASSES {
        assert!(cases.iter().any(|c| c.class == *k), "no case of class {k}");
    }
}

/// The table of every case, as `docs/HOSTILE.md` holds it.
fn table(cases: &[Case]) -> String {
    let mut out = String::from(
        "# The hostile-input matrix\n\n\
         Every row is a case of `crates/anydoku-cli/tests/hostile/cases.toml`, run by \
         `cargo test --release --test hostile`: the command runs in a fresh directory holding the \
         case's files, under a 1 GiB address-space cap, and must end with the exit code shown, \
         say what is quoted (on stderr, or stdout where marked), and finish within 2 seconds \
         unless the row says otherwise. This file is generated from the cases \
         (`HOSTILE_BLESS=1 cargo test --release --test hostile`) and checked against them.\n\n\
         Exit codes: 0 ok; 1 no solution, several, unknown (a budget ran out) or a failed \
         check; 2 bad input or an I/O error.\n",
    );
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', "\\n");
    for (class, title) in CLASSES {
        let of: Vec<&Case> = cases.iter().filter(|c| c.class == *class).collect();
        out.push_str(&format!(
            "\n## {title} ({} cases)\n\n| case | input | what | command | exit | expects | time |\n|---|---|---|---|---|---|---|\n",
            of.len()
        ));
        for c in of {
            let mut expects: Vec<String> =
                c.stderr.iter().map(|s| format!("`{}`", cell(s))).collect();
            expects.extend(
                c.not_stderr
                    .iter()
                    .map(|s| format!("without `{}`", cell(s))),
            );
            expects.extend(c.stdout.iter().map(|s| format!("stdout `{}`", cell(s))));
            expects.extend(
                c.not_stdout
                    .iter()
                    .map(|s| format!("stdout without `{}`", cell(s))),
            );
            if let Some(n) = c.stdout_lines {
                expects.push(format!("{n} stdout lines"));
            }
            let mut command = format!("anydoku {}", c.args.join(" "));
            if command.len() > 90 {
                command = format!("{}…", command.chars().take(88).collect::<String>());
            }
            match c.stdout_to.as_deref() {
                Some("full") => command.push_str(" > /dev/full"),
                Some("close") => command.push_str(" | head -c 64"),
                _ => {}
            }
            let time = match (c.min_seconds, c.seconds) {
                (Some(lo), Some(hi)) => format!("{lo}–{hi} s"),
                (None, Some(hi)) => format!("< {hi} s"),
                _ => "< 2 s".into(),
            };
            out.push_str(&format!(
                "| {} | {} | {} | `{}` | {} | {} | {} |\n",
                c.id,
                cell(&c.path),
                cell(&c.what),
                cell(&command).replace('`', "'"),
                c.exit,
                expects.join("; "),
                time
            ));
        }
    }
    out.push_str(&format!("\n{} cases in all.\n", cases.len()));
    out
}

/// `docs/HOSTILE.md` is the table of the cases as they are.
#[test]
fn hostile_table_in_the_docs_is_current() {
    let cases = cases();
    let want = table(&cases);
    let path = common::root().join("docs/HOSTILE.md");
    if std::env::var("HOSTILE_BLESS").is_ok() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/HOSTILE.md is not the table of the cases; run HOSTILE_BLESS=1 cargo test --release --test hostile"
    );
}

/// `n` with thousands separated by commas, as the docs write numbers.
fn with_commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `docs/LIMITS.md` gives each limit of the library with the value the code has.
#[test]
fn limits_in_the_docs_match_the_code() {
    type L = anydoku::InputLimits;
    let doc = std::fs::read_to_string(common::root().join("docs/LIMITS.md")).unwrap();
    for (name, value) in [
        ("MAX_CELLS", L::MAX_CELLS as u64),
        ("MAX_SYMBOLS", L::MAX_SYMBOLS as u64),
        ("MAX_SHAPES", L::MAX_SHAPES as u64),
        ("MAX_SHAPES_PER_CELL", L::MAX_SHAPES_PER_CELL as u64),
        ("MAX_PEER_PAIRS", L::MAX_PEER_PAIRS as u64),
        ("MAX_COORDINATE", L::MAX_COORDINATE as u64),
        ("MAX_POSITION", L::MAX_POSITION as u64),
        ("MAX_POLYGON_POINTS", L::MAX_POLYGON_POINTS as u64),
        ("MAX_VALUE", L::MAX_VALUE as u64),
        ("MAX_NAME_BYTES", L::MAX_NAME_BYTES as u64),
        ("MAX_FILE_BYTES", L::MAX_FILE_BYTES),
        ("MAX_FPUZZLES_TEXT", L::MAX_FPUZZLES_TEXT as u64),
    ] {
        // the table cell naming the constant gives its value
        let tag = format!("(`{name}`)");
        let cell = doc
            .split('|')
            .find(|cell| cell.contains(&tag))
            .unwrap_or_else(|| panic!("docs/LIMITS.md does not name {name}"));
        assert!(
            cell.contains(&format!("{} ", with_commas(value))),
            "docs/LIMITS.md gives {name} as {cell:?}, not {}",
            with_commas(value)
        );
    }
    assert_eq!(L::MAX_TOTAL, 10i64.pow(15), "docs/LIMITS.md says 10¹⁵");
    assert!(doc.contains("10¹⁵ (`MAX_TOTAL`)"));
}
