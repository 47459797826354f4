//! LZ-string, the compression f-puzzles uses for its `?load=` links (`compressToBase64` and
//! `decompressFromBase64` of the JavaScript library lz-string 1.4, reimplemented here).
//!
//! Strings are handled as UTF-16 code units, as in JavaScript, so the output matches the
//! original bit for bit. [`decompress_from_base64`] returns `None` on a corrupt stream instead of
//! panicking.

use std::collections::HashMap;

const KEY: &[u8; 65] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

fn base64_value(c: u8) -> u32 {
    KEY.iter().position(|&k| k == c).unwrap_or(0) as u32
}

/// Bit reader over base64 characters (6 bits each, most significant first).
struct Bits<'a> {
    input: &'a [u8],
    val: u32,
    position: u32,
    index: usize,
}

impl Bits<'_> {
    const RESET: u32 = 32;

    fn next_value(&self, i: usize) -> u32 {
        self.input.get(i).map_or(0, |&c| base64_value(c))
    }

    /// Reads `n` bits, least significant first (lz-string's order).
    fn read(&mut self, n: u32) -> u32 {
        let mut bits = 0;
        for k in 0..n {
            let b = self.val & self.position;
            self.position >>= 1;
            if self.position == 0 {
                self.position = Self::RESET;
                self.val = self.next_value(self.index);
                self.index += 1;
            }
            if b > 0 {
                bits |= 1 << k;
            }
        }
        bits
    }
}

/// `LZString.decompressFromBase64`. `None` if the stream is corrupt or empty, or decompresses
/// to more than [`crate::InputLimits::MAX_FPUZZLES_TEXT`] characters.
#[cfg(any(test, feature = "internals"))]
pub fn decompress_from_base64(input: &str) -> Option<String> {
    decompress_at_most(input, crate::limits::MAX_FPUZZLES_TEXT).ok()
}

/// Why a stream could not be decompressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LzError {
    #[error("the LZ-string data is corrupt or incomplete")]
    Corrupt,
    /// The text would be longer than the limit (a few hundred kilobytes of base64 can stand
    /// for gigabytes): decompression stops there.
    #[error("the LZ-string data decompresses to more than {0} characters (the limit; see docs/LIMITS.md)")]
    TooLong(usize),
}

/// `LZString.decompressFromBase64` of at most `most` UTF-16 code units: the output (and the
/// dictionary, which never holds more than the output plus one unit per code) stops growing
/// there.
pub fn decompress_at_most(input: &str, most: usize) -> Result<String, LzError> {
    decompress_units(input, most)
        .and_then(|units| String::from_utf16(&units).map_err(|_| LzError::Corrupt))
}

fn decompress_units(input: &str, most: usize) -> Result<Vec<u16>, LzError> {
    let input = input.trim().as_bytes();
    if input.is_empty() {
        return Err(LzError::Corrupt);
    }
    let mut bits = Bits {
        input,
        val: base64_value(input[0]),
        position: Bits::RESET,
        index: 1,
    };
    let mut dict: Vec<Vec<u16>> = vec![vec![0], vec![1], vec![2]];
    let mut enlarge_in: u32 = 4;
    let mut num_bits: u32 = 3;
    let first = match bits.read(2) {
        0 => bits.read(8) as u16,
        1 => bits.read(16) as u16,
        _ => return Err(LzError::Corrupt),
    };
    let mut w = vec![first];
    dict.push(w.clone());
    let mut result: Vec<u16> = w.clone();
    loop {
        if bits.index > input.len() {
            return Err(LzError::Corrupt);
        }
        let mut c = bits.read(num_bits) as usize;
        match c {
            0 | 1 => {
                let v = bits.read(if c == 0 { 8 } else { 16 }) as u16;
                dict.push(vec![v]);
                c = dict.len() - 1;
                enlarge_in -= 1;
            }
            2 => return Ok(result),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        let entry = if c < dict.len() {
            dict[c].clone()
        } else if c == dict.len() {
            let mut e = w.clone();
            e.push(w[0]);
            e
        } else {
            return Err(LzError::Corrupt);
        };
        if result.len() + entry.len() > most {
            return Err(LzError::TooLong(most));
        }
        result.extend_from_slice(&entry);
        let mut new = w;
        new.push(entry[0]);
        dict.push(new);
        enlarge_in -= 1;
        w = entry;
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        if num_bits > 32 {
            return Err(LzError::Corrupt);
        }
    }
}

/// Bit writer producing base64 characters.
struct Writer {
    out: String,
    val: u32,
    position: u32,
}

impl Writer {
    const BITS_PER_CHAR: u32 = 6;

    fn bit(&mut self, b: u32) {
        self.val = (self.val << 1) | (b & 1);
        if self.position == Self::BITS_PER_CHAR - 1 {
            self.position = 0;
            self.out.push(KEY[self.val as usize] as char);
            self.val = 0;
        } else {
            self.position += 1;
        }
    }

    /// Writes `n` bits of `value`, least significant first.
    fn write(&mut self, mut value: u32, n: u32) {
        for _ in 0..n {
            self.bit(value & 1);
            value >>= 1;
        }
    }
}

struct Compressor {
    dict: HashMap<Vec<u16>, u32>,
    to_create: HashMap<u16, ()>,
    enlarge_in: u32,
    dict_size: u32,
    num_bits: u32,
    w: Writer,
}

impl Compressor {
    fn enlarge(&mut self) {
        self.enlarge_in -= 1;
        if self.enlarge_in == 0 {
            self.enlarge_in = 1 << self.num_bits;
            self.num_bits += 1;
        }
    }

    /// Emits the code of the phrase `w`.
    fn emit(&mut self, w: &[u16]) {
        if w.len() == 1 && self.to_create.contains_key(&w[0]) {
            let ch = w[0];
            if ch < 256 {
                self.w.write(0, self.num_bits);
                self.w.write(ch as u32, 8);
            } else {
                self.w.write(1, self.num_bits);
                self.w.write(ch as u32, 16);
            }
            self.enlarge();
            self.to_create.remove(&ch);
        } else {
            let code = self.dict[w];
            self.w.write(code, self.num_bits);
        }
        self.enlarge();
    }
}

/// `LZString.compressToBase64`.
pub fn compress_to_base64(input: &str) -> String {
    let mut c = Compressor {
        dict: HashMap::new(),
        to_create: HashMap::new(),
        enlarge_in: 2,
        dict_size: 3,
        num_bits: 2,
        w: Writer {
            out: String::new(),
            val: 0,
            position: 0,
        },
    };
    let mut w: Vec<u16> = Vec::new();
    for ch in input.encode_utf16() {
        if !c.dict.contains_key(&[ch][..]) {
            c.dict.insert(vec![ch], c.dict_size);
            c.dict_size += 1;
            c.to_create.insert(ch, ());
        }
        let mut wc = w.clone();
        wc.push(ch);
        if c.dict.contains_key(&wc) {
            w = wc;
        } else {
            c.emit(&w);
            c.dict.insert(wc, c.dict_size);
            c.dict_size += 1;
            w = vec![ch];
        }
    }
    if !w.is_empty() {
        c.emit(&w);
    }
    c.w.write(2, c.num_bits);
    loop {
        c.w.val <<= 1;
        if c.w.position == Writer::BITS_PER_CHAR - 1 {
            c.w.out.push(KEY[c.w.val as usize] as char);
            break;
        }
        c.w.position += 1;
    }
    let mut out = c.w.out;
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "a",
            "hello hello hello",
            "{\"size\":9,\"grid\":[[{}]]}",
            "ünïcödé ✓ 数独 𝄞",
            &"abcabcabcabcabcxyz".repeat(50),
        ] {
            let c = compress_to_base64(s);
            assert!(c.len().is_multiple_of(4));
            assert_eq!(decompress_from_base64(&c).as_deref(), Some(s), "{s}");
        }
    }

    #[test]
    fn corrupt_input_is_none_not_a_panic() {
        for s in ["", "!!!!", "////////", "A", "N4Ig"] {
            let _ = decompress_from_base64(s);
        }
        assert_eq!(decompress_from_base64(""), None);
    }

    proptest::proptest! {
        #[test]
        fn any_text_round_trips(s in "\\PC{0,200}") {
            proptest::prop_assert_eq!(decompress_from_base64(&compress_to_base64(&s)).unwrap_or_default(), s);
        }

        #[test]
        fn any_base64_decodes_without_panic(s in "[A-Za-z0-9+/=]{0,300}") {
            let _ = decompress_from_base64(&s);
        }
    }
}
