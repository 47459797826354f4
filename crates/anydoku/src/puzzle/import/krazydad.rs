//! KrazyDad Killer CSV rows (as scraped by bnatalha): a header row, then one puzzle per row with
//! the columns `index, ptitle, vol, book, puzzle, puzz_color, puzz_hint, solved, sOrder`.
//!
//! `puzz_color` is `K` followed by 81 cage labels row-major; the k-th cage's label is the k-th
//! character of `A..Za..z`. `puzz_hint` is the quoted, comma-separated list of cage sums in label
//! order. `solved` is the 81-digit solution. `sOrder` (the web player's reveal order) is ignored.

use super::{digits, RawCage, RawKiller};
use crate::error::{Error, Location};

const LABELS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Splits one CSV line into fields (double quotes protect commas; `""` is a quote).
fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match (ch, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out
}

/// Reads every row of the CSV: the file's own errors (no header, a missing column) as `Err`,
/// then one result per row, in order, a row's error located at its line.
pub fn read_each(text: &str) -> Result<Vec<Result<RawKiller, Error>>, Error> {
    let mut lines = text.lines().enumerate();
    let header = match lines.next() {
        Some((_, h)) => fields(h),
        None => return Err(Error::puzzle("the KrazyDad CSV is empty")),
    };
    let col = |name: &str| {
        header.iter().position(|h| h.trim() == name).ok_or_else(|| {
            Error::puzzle(format!(
                "the KrazyDad CSV has no '{name}' column (expected ptitle, puzz_color, puzz_hint, solved)"
            ))
            .with_location(Some(Location { line: 1, column: 1 }))
        })
    };
    let (title, color, hint, solved) = (
        col("ptitle")?,
        col("puzz_color")?,
        col("puzz_hint")?,
        col("solved").ok(),
    );
    let mut out = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let f = fields(line);
        let at = |k: usize| -> Result<&str, Error> {
            f.get(k)
                .map(|s| s.trim())
                .ok_or_else(|| Error::puzzle(format!("the row has only {} columns", f.len())))
        };
        let record = (|| {
            let name = at(title)?.to_string();
            let name = if name.is_empty() {
                format!("line {}", i + 1)
            } else {
                name
            };
            row(&name, at(color)?, at(hint)?, solved.map(at).transpose()?)
        })();
        let located = Some(Location {
            line: i + 1,
            column: 1,
        });
        out.push(record.map_err(|e| e.with_location(located)));
    }
    Ok(out)
}

/// One row: cage labels, sums and solution.
fn row(name: &str, color: &str, hint: &str, solved: Option<&str>) -> Result<RawKiller, Error> {
    let labels: Vec<char> = color.strip_prefix('K').unwrap_or(color).chars().collect();
    if labels.len() != 81 {
        return Err(Error::puzzle(format!(
            "{name}: puzz_color has {} cage labels after the leading K; a 9x9 Killer needs 81",
            labels.len()
        )));
    }
    let sums: Vec<i64> = hint
        .split(',')
        .map(|s| {
            s.trim().parse().map_err(|_| {
                Error::puzzle(format!("{name}: cage sum '{}' is not a number", s.trim()))
            })
        })
        .collect::<Result<_, _>>()?;
    let mut cages: Vec<RawCage> = sums
        .iter()
        .map(|&sum| RawCage {
            sum,
            cells: Vec::new(),
        })
        .collect();
    for (i, ch) in labels.iter().enumerate() {
        let k = LABELS.find(*ch).ok_or_else(|| {
            Error::puzzle(format!("{name}: '{ch}' is not a cage label (A-Z, a-z)"))
        })?;
        let cage = cages.get_mut(k).ok_or_else(|| {
            Error::puzzle(format!(
                "{name}: cage '{ch}' has no sum (puzz_hint lists {} sums)",
                sums.len()
            ))
        })?;
        cage.cells.push((i as i32 / 9 + 1, i as i32 % 9 + 1));
    }
    if let Some(k) = cages.iter().position(|c| c.cells.is_empty()) {
        return Err(Error::puzzle(format!(
            "{name}: puzz_hint has a sum for cage '{}' but no cell carries that label",
            LABELS.as_bytes()[k] as char
        )));
    }
    let solution = match solved {
        Some(s) if !s.is_empty() => {
            let tokens: Vec<&str> = (0..s.len()).filter_map(|i| s.get(i..i + 1)).collect();
            if tokens.len() != 81 {
                return Err(Error::puzzle(format!(
                    "{name}: the solution has {} digits, not 81",
                    tokens.len()
                )));
            }
            Some(digits(&tokens, name)?)
        }
        _ => None,
    };
    Ok(RawKiller {
        name: name.to_string(),
        size: 9,
        cages,
        givens: vec![None; 81],
        solution,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_keep_commas() {
        assert_eq!(fields("a,\"1,2\",b"), vec!["a", "1,2", "b"]);
    }

    #[test]
    fn missing_sum_is_reported() {
        let color = format!("K{}", "A".repeat(80) + "B");
        let e = row("p", &color, "405", None).unwrap_err().to_string();
        assert!(e.contains("cage 'B' has no sum"), "{e}");
    }
}
