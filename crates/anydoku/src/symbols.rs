//! Symbol sets: the symbols a puzzle is written in, and their numeric values.
//!
//! A [`SymbolSet`] maps each symbol to a dense index `0..len` used everywhere inside the engine,
//! and to a numeric value used by sum shapes (by default `1..=len`). A symbol is a token: any
//! non-empty string without whitespace of at most [`MAX_SYMBOL_CHARS`] characters — most often
//! one grapheme (`7`, `A`, `α`, `🍎`), but `10`..`25` or `Fe` work the same. The engine works
//! with indices only; text is converted at the edges (`puzzle::text` reads grid text, the
//! renderers write it). To add a rule for symbols, check it in [`SymbolSet::from_list`].

use unicode_segmentation::UnicodeSegmentation;

/// The largest symbol set the engine supports (candidates are one `u64` bitset per cell).
pub const MAX_SYMBOLS: usize = 64;

/// The longest symbol, in characters (Unicode scalar values): room for numbers, words and
/// emoji sequences, while a text drawing stays a drawing.
pub const MAX_SYMBOL_CHARS: usize = 16;

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
    /// An empty symbol (`""` in a list).
    #[error("a symbol is the empty string; every symbol needs at least one character")]
    EmptySymbol,
    /// A symbol of more than 16 characters.
    #[error("symbol '{0}' has more than {MAX_SYMBOL_CHARS} characters")]
    TooLong(String),
    /// `.`, which marks an empty cell.
    #[error("'.' cannot be a symbol: it marks an empty cell")]
    Dot,
    /// A symbol with whitespace in it (whitespace separates symbols in grid text).
    #[error("symbol '{0}' contains whitespace; symbols are written without spaces")]
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
    /// Whether every symbol is one grapheme (grid text may then run them together).
    graphemes: bool,
}

impl SymbolSet {
    /// Builds a set from a string split into graphemes (`"123456789"`, `"ABCD"`).
    pub fn from_graphemes(text: &str, values: Option<Vec<i64>>) -> Result<Self, SymbolError> {
        let symbols = text.graphemes(true).map(str::to_owned).collect();
        Self::from_list(symbols, values)
    }

    /// Builds a set from the way a geometry file writes it as one string: symbols separated by
    /// whitespace when there is any (`"1 2 3 4 5 6 7 8 9 10 11 12"`), else one symbol per
    /// grapheme (`"123456789"`, `"🍎🍐🍊🍋"`).
    pub fn from_text(text: &str, values: Option<Vec<i64>>) -> Result<Self, SymbolError> {
        if text.contains(char::is_whitespace) {
            let symbols = text.split_whitespace().map(str::to_owned).collect();
            return Self::from_list(symbols, values);
        }
        Self::from_graphemes(text, values)
    }

    /// Builds a set from an explicit list of symbols: each a non-empty string without
    /// whitespace, at most 16 characters, not `.` (an empty cell).
    pub fn from_list(symbols: Vec<String>, values: Option<Vec<i64>>) -> Result<Self, SymbolError> {
        if symbols.is_empty() {
            return Err(SymbolError::Empty);
        }
        if symbols.len() > MAX_SYMBOLS {
            return Err(SymbolError::TooMany(symbols.len()));
        }
        for (i, s) in symbols.iter().enumerate() {
            if s.is_empty() {
                return Err(SymbolError::EmptySymbol);
            }
            if s.chars().count() > MAX_SYMBOL_CHARS {
                let start: String = s.chars().take(MAX_SYMBOL_CHARS).collect();
                return Err(SymbolError::TooLong(format!("{}...", start.escape_debug())));
            }
            if s == "." {
                return Err(SymbolError::Dot);
            }
            if s.contains(char::is_whitespace) {
                return Err(SymbolError::Whitespace(s.escape_debug().to_string()));
            }
            if symbols[..i].contains(s) {
                return Err(SymbolError::Duplicate(s.clone()));
            }
        }
        let graphemes = symbols.iter().all(|s| s.graphemes(true).nth(1).is_none());
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
        Ok(Self {
            symbols,
            values,
            graphemes,
        })
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
    pub fn index_of(&self, symbol: &str) -> Option<usize> {
        self.symbols.iter().position(|s| s == symbol)
    }

    /// Whether every symbol is a single grapheme, so that grid text may write cells without
    /// anything between them (`"53..7...."`). Otherwise cells holding longer symbols are
    /// separated by spaces or commas (`"5 3 . . 16 ..."`).
    pub fn all_graphemes(&self) -> bool {
        self.graphemes
    }

    /// The set as a user writes it: run together when every symbol is one grapheme
    /// (`123456789`), else separated by spaces (`1 2 3 ... 16`).
    pub fn describe(&self) -> String {
        if self.graphemes {
            self.symbols.concat()
        } else {
            self.symbols.join(" ")
        }
    }

    /// Whether some symbol contains `c` (such a character cannot separate cells in grid text).
    pub fn uses_char(&self, c: char) -> bool {
        self.symbols.iter().any(|s| s.contains(c))
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
        let list =
            |v: &[&str]| SymbolSet::from_list(v.iter().map(|s| s.to_string()).collect(), None);
        assert_eq!(list(&["1", ""]), Err(SymbolError::EmptySymbol));
        assert_eq!(
            list(&["1", "a b"]),
            Err(SymbolError::Whitespace("a b".into()))
        );
        assert!(matches!(
            list(&["1", &"x".repeat(17)]),
            Err(SymbolError::TooLong(_))
        ));
        assert!(list(&["1", &"x".repeat(16)]).is_ok());
    }

    #[test]
    fn tokens_of_several_characters() {
        let s = SymbolSet::from_text("1 2 3 4 5 6 7 8 9 10 11 12", None).unwrap();
        assert_eq!(s.len(), 12);
        assert_eq!(s.index_of("10"), Some(9));
        assert!(!s.all_graphemes());
        let g = SymbolSet::from_text("123🍎", None).unwrap();
        assert_eq!(g.len(), 4);
        assert!(g.all_graphemes());
        // a grapheme of several code points is still one grapheme
        let family = SymbolSet::from_list(vec!["👩‍👩‍👧".into(), "🇫🇷".into()], None).unwrap();
        assert!(family.all_graphemes());
        assert!(s.uses_char('1') && !s.uses_char('|'));
    }
}
