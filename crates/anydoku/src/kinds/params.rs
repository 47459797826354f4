//! A shape's keys as a kind reads them: typed getters with the messages every kind shares.
//!
//! TOML tables and JSON objects both arrive as a JSON map (the TOML reader converts), so a kind
//! reads its keys once for both formats.

use serde_json::{Map, Value};

use crate::engine::Mask;
use crate::symbols::SymbolSet;

/// The keys of one shape (besides `name`, `rule` and `cells`). The JSON model's readers parse
/// `sum` and `unique` as typed fields (the common keys of Killer cages, so a batch of Killers
/// builds no map for them, and serde reports a bad value where it is); they come in as
/// `sum` and `unique` here and are read as if they were in the map.
pub(crate) struct Params<'a> {
    map: &'a Map<String, Value>,
    sum: Option<i64>,
    unique: Option<bool>,
}

// every kind reads its keys with these; not every getter has a kind yet
#[allow(dead_code)]
impl<'a> Params<'a> {
    pub(crate) fn new(map: &'a Map<String, Value>, sum: Option<i64>, unique: Option<bool>) -> Self {
        Params { map, sum, unique }
    }

    /// Every key given.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        let typed = [
            ("sum", self.sum.is_some()),
            ("unique", self.unique.is_some()),
        ];
        let typed = typed.into_iter().filter(|t| t.1).map(|t| t.0);
        self.map.keys().map(String::as_str).chain(typed)
    }

    /// Whether `key` is there.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.keys().any(|k| k == key)
    }

    /// An integer, if given.
    pub(crate) fn int(&self, key: &str) -> Result<Option<i64>, String> {
        if key == "sum" && self.sum.is_some() {
            return Ok(self.sum);
        }
        match self.map.get(key) {
            None => Ok(None),
            Some(v) => v.as_i64().map(Some).ok_or_else(|| {
                format!("has {key} = {v}, which is not a whole number (of 64 bits)")
            }),
        }
    }

    /// An integer that must be given.
    pub(crate) fn need_int(&self, key: &str) -> Result<i64, String> {
        self.int(key)?.ok_or_else(|| format!("needs a {key}"))
    }

    /// A boolean, if given.
    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, String> {
        if key == "unique" && self.unique.is_some() {
            return Ok(self.unique);
        }
        match self.map.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_bool()
                .map(Some)
                .ok_or_else(|| format!("has {key} = {v}, expected true or false")),
        }
    }

    /// A string, if given.
    pub(crate) fn str(&self, key: &str) -> Result<Option<&'a str>, String> {
        match self.map.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_str()
                .map(Some)
                .ok_or_else(|| format!("has {key} = {v}, expected a string")),
        }
    }

    /// A list of integers, if given.
    pub(crate) fn ints(&self, key: &str) -> Result<Option<Vec<i64>>, String> {
        let Some(v) = self.map.get(key) else {
            return Ok(None);
        };
        let bad = || format!("has {key} = {v}, expected a list of whole numbers");
        let list = v.as_array().ok_or_else(bad)?;
        list.iter()
            .map(|x| x.as_i64().ok_or_else(bad))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// A set of symbols written as one string of symbols ("2468") or a list (["2", "4"]).
    pub(crate) fn symbols(&self, key: &str, set: &SymbolSet) -> Result<Option<Mask>, String> {
        let Some(v) = self.map.get(key) else {
            return Ok(None);
        };
        let names: Vec<String> = match v {
            Value::String(s) => {
                use unicode_segmentation::UnicodeSegmentation;
                s.graphemes(true)
                    .filter(|g| !g.trim().is_empty())
                    .map(str::to_string)
                    .collect()
            }
            Value::Array(a) => a
                .iter()
                .map(|x| {
                    x.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("has {key} = {v}, expected symbols"))
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(format!("has {key} = {v}, expected symbols")),
        };
        let mut mask: Mask = 0;
        for name in names {
            let i = set.index_of(&name).ok_or_else(|| {
                format!(
                    "lists '{name}' in {key}, which is not in the symbol set {}",
                    set.symbols().concat()
                )
            })?;
            mask |= 1 << i;
        }
        Ok(Some(mask))
    }
}
