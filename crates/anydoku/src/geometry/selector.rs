//! Cell selectors: the short way to name a set of cells in a file.
//!
//! A selector is a list of tokens separated by whitespace or commas. A token is either a board
//! range `r{R}c{C}` where `R` and `C` are a number or an inclusive range `a-b` (`r2-4c2-4` is a 3x3
//! block, `r1c1-9` a row), or the name of an explicit cell. Expansion is row-major.

/// A selector token that is not well formed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad cell selector '{token}': {reason}")]
pub struct SelectorError {
    pub token: String,
    pub reason: String,
}

/// Expands a selector into cell names, in order, without resolving them.
#[cfg(test)]
pub fn expand(selector: &str) -> Result<Vec<String>, SelectorError> {
    expand_at_most(selector, crate::limits::MAX_CELLS)
}

/// Expands a selector into cell names, in order, without resolving them, refusing a selector
/// whose ranges take it past `most` cells in all (counted before they are listed: `r1-100c1-100`
/// repeated 20,000 times is refused at once, not expanded).
pub fn expand_at_most(selector: &str, most: usize) -> Result<Vec<String>, SelectorError> {
    let mut out = Vec::new();
    for token in selector
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        let range = parse_range(token)?;
        let size = range.map_or(1, |(r, c)| (r.1 - r.0 + 1) as u64 * (c.1 - c.0 + 1) as u64);
        // only ranges can name more cells than the text spells out; a name too many is
        // reported by whoever resolves the names (unknown, or named twice)
        if range.is_some() && out.len() as u64 + size > most as u64 {
            return Err(SelectorError {
                token: token.to_string(),
                reason: format!(
                    "the selector names more than {most} cells (there are only that many)"
                ),
            });
        }
        match range {
            Some((rows, cols)) => {
                for r in rows.0..=rows.1 {
                    for c in cols.0..=cols.1 {
                        out.push(format!("r{r}c{c}"));
                    }
                }
            }
            None => out.push(token.to_string()),
        }
    }
    Ok(out)
}

/// Whether a name that is not a cell looks like a board range written another way
/// (`r1c1-r2c3`, `r1c1:r2c3`): `r`, a digit, and later `c` and a digit.
pub fn looks_like_range(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix('r') else {
        return false;
    };
    rest.starts_with(|c: char| c.is_ascii_digit())
        && rest
            .split_once('c')
            .is_some_and(|(_, cols)| cols.starts_with(|c: char| c.is_ascii_digit()))
}

type Span = (i32, i32);

/// Parses `r..c..`; `None` when the token is not a board range at all (an explicit name).
fn parse_range(token: &str) -> Result<Option<(Span, Span)>, SelectorError> {
    let lower = token.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix('r') else {
        return Ok(None);
    };
    let Some(cpos) = rest.find('c') else {
        return Ok(None);
    };
    let (rows, cols) = (&rest[..cpos], &rest[cpos + 1..]);
    let looks_numeric =
        |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '-');
    if !looks_numeric(rows) || !looks_numeric(cols) {
        return Ok(None);
    }
    let bad = |reason: &str| SelectorError {
        token: token.to_string(),
        reason: reason.to_string(),
    };
    let span = |s: &str| -> Result<Span, SelectorError> {
        let parts: Vec<&str> = s.split('-').collect();
        let num = |p: &str| {
            p.parse::<i32>()
                .map_err(|_| bad("expected a number or a range like 2-4"))
        };
        match parts.as_slice() {
            [a] => {
                let a = num(a)?;
                Ok((a, a))
            }
            [a, b] => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(bad("a range must go from low to high"));
                }
                Ok((a, b))
            }
            _ => Err(bad("expected a number or a range like 2-4")),
        }
    };
    let (rows, cols) = (span(rows)?, span(cols)?);
    if rows.0 < 1 || cols.0 < 1 {
        return Err(bad("rows and columns start at 1"));
    }
    Ok(Some((rows, cols)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_names() {
        assert_eq!(
            expand("r2-3c1-2, A1").unwrap(),
            vec!["r2c1", "r2c2", "r3c1", "r3c2", "A1"]
        );
        assert_eq!(expand("r1c5").unwrap(), vec!["r1c5"]);
        assert_eq!(expand("rover").unwrap(), vec!["rover"]);
    }

    #[test]
    fn selectors_naming_too_many_cells_are_refused_before_expanding() {
        assert_eq!(expand_at_most("r1-2c1-2 r3c3", 5).unwrap().len(), 5);
        let e = expand_at_most("r1-2c1-2 r3c3 r4c4", 5).unwrap_err();
        // names are as many as the text spells out: resolving them reports a name too many
        assert_eq!(expand_at_most("r1-2c1-2 r3c3 x", 5).unwrap().len(), 6);
        assert!(e.reason.contains("more than 5 cells"), "{e}");
        let huge = "r1-100c1-100 ".repeat(20_000);
        let started = std::time::Instant::now();
        assert!(expand_at_most(&huge, 20_000).is_err());
        assert!(started.elapsed().as_secs_f64() < 1.0);
        assert!(expand("r1-2147483647c1-2147483647").is_err());
    }

    #[test]
    fn bad_ranges() {
        assert!(expand("r3-1c1").is_err());
        assert!(expand("r0c1").is_err());
        assert!(expand("r1-2-3c1").is_err());
    }
}
