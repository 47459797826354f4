//! Symbol sets: the graphemes a puzzle is written in, and their numeric values.
//!
//! A [`SymbolSet`] maps each symbol (one Unicode grapheme cluster, e.g. `7`, `A`, `α`, `🍎`) to a
//! dense index `0..len` used everywhere inside the engine, and to a numeric value used by sum
//! shapes (by default `1..=len`). The engine works with indices only; text is converted at the edges.

use unicode_segmentation::UnicodeSegmentation;

/// The largest symbol set the engine supports (candidates are one `u64` bitset per cell).
pub const MAX_SYMBOLS: usize = 64;

/// Errors in a symbol set definition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SymbolError {
    /// No symbols.
    #[error("the symbol set is empty")]
    Empty,
    /// More than 64 symbols.
    #[error("the symbol set has {0} symbols; at most {MAX_SYMBOLS} are supported")]
    TooMany(usize),
    /// A symbol listed twice.
    #[error("symbol '{0}' appears twice in the symbol set")]
    Duplicate(String),
    /// A symbol of more than one grapheme.
    #[error("symbol '{0}' is not a single grapheme")]
    NotOneGrapheme(String),
    /// `.`, which marks an empty cell.
    #[error("'.' cannot be a symbol: it marks an empty cell")]
    Dot,
    /// A whitespace symbol.
    #[error("symbol '{0}' is whitespace")]
    Whitespace(String),
    /// Values given for a different number of symbols.
    #[error("there are {symbols} symbols but {values} values")]
    ValueCount {
        /// The symbols.
        symbols: usize,
        /// The values given.
        values: usize,
    },
    /// A value beyond [`crate::InputLimits::MAX_VALUE`].
    #[error("the value of symbol '{symbol}' is {value}, outside -{limit} to {limit} (see docs/LIMITS.md)", limit = crate::limits::MAX_VALUE)]
    ValueTooLarge {
        /// The symbol.
        symbol: String,
        /// Its value.
        value: i64,
    },
}

/// An ordered set of symbols with numeric values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolSet {
    symbols: Vec<String>,
    values: Vec<i64>,
}

impl SymbolSet {
    /// Builds a set from a string split into graphemes (`"123456789"`, `"ABCD"`).
    pub fn from_graphemes(text: &str, values: Option<Vec<i64>>) -> Result<Self, SymbolError> {
        let symbols = text.graphemes(true).map(str::to_owned).collect();
        Self::from_list(symbols, values)
    }

    /// Builds a set from an explicit list of symbols, each one grapheme.
    pub fn from_list(symbols: Vec<String>, values: Option<Vec<i64>>) -> Result<Self, SymbolError> {
        if symbols.is_empty() {
            return Err(SymbolError::Empty);
        }
        if symbols.len() > MAX_SYMBOLS {
            return Err(SymbolError::TooMany(symbols.len()));
        }
        for (i, s) in symbols.iter().enumerate() {
            if s.graphemes(true).count() != 1 {
                return Err(SymbolError::NotOneGrapheme(s.clone()));
            }
            if s == "." {
                return Err(SymbolError::Dot);
            }
            if s.trim().is_empty() {
                return Err(SymbolError::Whitespace(s.escape_debug().to_string()));
            }
            if symbols[..i].contains(s) {
                return Err(SymbolError::Duplicate(s.clone()));
            }
        }
        let values = match values {
            Some(v) if v.len() != symbols.len() => {
                return Err(SymbolError::ValueCount {
                    symbols: symbols.len(),
                    values: v.len(),
                })
            }
            Some(v) => v,
            None => (1..=symbols.len() as i64).collect(),
        };
        if let Some((s, &v)) = symbols
            .iter()
            .zip(&values)
            .find(|(_, v)| v.unsigned_abs() > crate::limits::MAX_VALUE as u64)
        {
            return Err(SymbolError::ValueTooLarge {
                symbol: s.clone(),
                value: v,
            });
        }
        Ok(Self { symbols, values })
    }

    /// The classic digits `1..=n` for n ≤ 9, then letters `A..` (so 16x16 is `1-9A-G`).
    pub fn default_for(n: usize) -> Result<Self, SymbolError> {
        const ALPHABET: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@#";
        if n > ALPHABET.len() {
            return Err(SymbolError::TooMany(n));
        }
        Self::from_graphemes(&ALPHABET[..n], None)
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Always false for a valid set (kept for clippy's `len_without_is_empty`).
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The symbol with index `i`.
    pub fn symbol(&self, i: usize) -> &str {
        &self.symbols[i]
    }

    /// The numeric value of the symbol with index `i`.
    pub fn value(&self, i: usize) -> i64 {
        self.values[i]
    }

    /// All symbols in order.
    pub fn symbols(&self) -> &[String] {
        &self.symbols
    }

    /// All values in order.
    pub fn values(&self) -> &[i64] {
        &self.values
    }

    /// The index of a symbol, if it is in the set.
    pub fn index_of(&self, grapheme: &str) -> Option<usize> {
        self.symbols.iter().position(|s| s == grapheme)
    }

    /// Whether `g` marks an empty cell in grid text: `.` always, `0` when `0` is not a symbol.
    pub fn is_empty_marker(&self, g: &str) -> bool {
        g == "." || (g == "0" && self.index_of("0").is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graphemes_and_values() {
        let s = SymbolSet::from_graphemes("αβγ🍎", None).unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s.index_of("🍎"), Some(3));
        assert_eq!(s.value(3), 4);
        assert!(s.is_empty_marker("0"));
        let z = SymbolSet::from_graphemes("0123", None).unwrap();
        assert!(!z.is_empty_marker("0"));
    }

    #[test]
    fn rejects_bad_sets() {
        assert_eq!(SymbolSet::from_graphemes("", None), Err(SymbolError::Empty));
        assert_eq!(
            SymbolSet::from_graphemes("1231", None),
            Err(SymbolError::Duplicate("1".into()))
        );
        let big: String = (0..65)
            .map(|i| char::from_u32(0x4e00 + i).unwrap())
            .collect();
        assert_eq!(
            SymbolSet::from_graphemes(&big, None),
            Err(SymbolError::TooMany(65))
        );
        assert!(matches!(
            SymbolSet::from_graphemes("12", Some(vec![1])),
            Err(SymbolError::ValueCount { .. })
        ));
        assert_eq!(SymbolSet::from_graphemes("1.", None), Err(SymbolError::Dot));
    }
}
