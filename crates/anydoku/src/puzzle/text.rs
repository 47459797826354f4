//! Givens written as text: grid text (a file's `givens`, `--entries`, a printed drawing) and
//! one-line strings (`batch` lines).
//!
//! Text is cut into *words* at whitespace, at commas and at the box lines of a text drawing
//! (`|`, `-`, `+`), each character only while no symbol contains it; a line whose first
//! non-blank character is `#` is a comment (while no symbol contains `#`). A word that is a
//! symbol, or an empty mark (`.`, and `0` when `0` is not a symbol), is one cell; any other
//! word is read one grapheme per cell (`53..7....` is nine cells), so single graphemes may run
//! together while longer symbols (`10`, `16`) stand apart. Cells come in the geometry's cell
//! order — except that the drawing [`crate::render::text`] makes of cells off the board (on
//! their positions) is recognised by where its words stand and read by position, so that every
//! printed grid reads back in.
//!
//! Grid text must have exactly one cell per geometry cell; a one-line string gives the first
//! cells' worth and the rest of the line is ignored. [`to_line`] writes the one-line form.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::error::Error;
use crate::geometry::Geometry;
use crate::symbols::SymbolSet;

/// One cell's worth of text: what it says and where it stands.
#[derive(Debug, Clone, Copy)]
struct Cell<'t> {
    /// The symbol or empty mark as written.
    text: &'t str,
    /// The line (from 0) and the display column just after the cell's text.
    line: usize,
    end: usize,
}

/// The characters that separate words for a symbol set.
struct Cutter {
    comma: bool,
    bar: bool,
    dash: bool,
    plus: bool,
    comments: bool,
}

impl Cutter {
    fn new(s: &SymbolSet) -> Self {
        Cutter {
            comma: !s.uses_char(','),
            bar: !s.uses_char('|'),
            dash: !s.uses_char('-'),
            plus: !s.uses_char('+'),
            comments: !s.uses_char('#'),
        }
    }

    fn separates(&self, c: char) -> bool {
        c.is_whitespace()
            || (c == ',' && self.comma)
            || (c == '|' && self.bar)
            || (c == '-' && self.dash)
            || (c == '+' && self.plus)
    }
}

/// The first word of a multi-character symbol set that was read as several cells (for the
/// message when the count is wrong).
type Split<'t> = Option<(&'t str, usize)>;

/// A bad symbol and its byte offset in the text.
type Bad = (Error, usize);

/// Cuts `text` into cells, stopping after `most`.
fn cells<'t>(
    g: &Geometry,
    text: &'t str,
    most: usize,
    out: &mut Vec<Cell<'t>>,
) -> Result<Split<'t>, Bad> {
    let symbols = &g.symbols;
    let cut = Cutter::new(symbols);
    let mut split: Split = None;
    let mut start = 0;
    for (line_no, line) in text.split('\n').enumerate() {
        let line_start = start;
        start += line.len() + 1;
        if cut.comments && line.trim_start().starts_with('#') {
            continue;
        }
        let mut col = 0;
        let mut word: Option<(usize, usize)> = None; // byte offset in line, start column
        for (i, c) in line
            .char_indices()
            .chain(std::iter::once((line.len(), ' ')))
        {
            if cut.separates(c) {
                if let Some((from, from_col)) = word.take() {
                    let w = &line[from..i];
                    let first = out.len();
                    word_cells(g, w, line_start + from, line_no, from_col, most, out)?;
                    if out.len() > first + 1 && !symbols.all_graphemes() && split.is_none() {
                        split = Some((w, line_no + 1));
                    }
                    if out.len() >= most {
                        return Ok(split);
                    }
                    col = from_col + w.width();
                }
                col += c.width().unwrap_or(0);
            } else if word.is_none() {
                word = Some((i, col));
            }
        }
    }
    Ok(split)
}

/// The cells of one word (see the module docs).
fn word_cells<'t>(
    g: &Geometry,
    word: &'t str,
    at: usize,
    line: usize,
    col: usize,
    most: usize,
    out: &mut Vec<Cell<'t>>,
) -> Result<(), Bad> {
    let symbols = &g.symbols;
    let known = |s: &str| symbols.is_empty_marker(s) || symbols.index_of(s).is_some();
    if known(word) {
        out.push(Cell {
            text: word,
            line,
            end: col + word.width(),
        });
        return Ok(());
    }
    let mut end = col;
    let first = out.len();
    for (i, s) in word.grapheme_indices(true) {
        if out.len() >= most {
            break;
        }
        end += s.width();
        if !known(s) {
            // in a set of longer symbols the whole word is what the user meant as a symbol
            let (bad, from, cell) = if symbols.all_graphemes() {
                (s, at + i, out.len())
            } else {
                (word, at, first)
            };
            return Err((not_a_symbol(g, bad, cell), from));
        }
        out.push(Cell { text: s, line, end });
    }
    Ok(())
}

/// `'s' (for cell N) is not in the symbol set ...`.
fn not_a_symbol(g: &Geometry, s: &str, cell: usize) -> Error {
    let name = g
        .cells
        .get(cell)
        .map_or("after the last", |c| c.name.as_str());
    Error::puzzle(format!(
        "'{}' (for cell {name}) is not in the symbol set {}",
        s.escape_debug(),
        g.symbols.describe()
    ))
}

/// The symbol index of a cell's text (`None` for an empty mark).
fn value(g: &Geometry, c: &Cell) -> Option<u8> {
    g.symbols.index_of(c.text).map(|v| v as u8)
}

/// Reads grid text: exactly one cell per geometry cell (see the module docs).
pub fn parse_grid(g: &Geometry, text: &str) -> Result<Vec<Option<u8>>, Error> {
    let n = g.cell_count();
    let mut found = Vec::with_capacity(n);
    let split =
        cells(g, text, usize::MAX, &mut found).map_err(|(e, at)| e.at(text, Some(at..at)))?;
    if found.len() != n {
        let mut message = format!(
            "the givens have {} but the geometry '{}' has {} cells",
            match found.len() {
                1 => "1 entry".to_string(),
                k => format!("{k} entries"),
            },
            g.name,
            n
        );
        if let Some((word, line)) = split {
            message.push_str(&format!(
                " ('{word}' on line {line} was read as {} cells, as it is not a symbol; \
                 separate symbols of several characters by spaces)",
                word.graphemes(true).count()
            ));
        }
        return Err(Error::puzzle(message));
    }
    let mut givens: Vec<Option<u8>> = found.iter().map(|c| value(g, c)).collect();
    if let Some(order) = drawn_order(g, &found) {
        for (c, &cell) in found.iter().zip(&order) {
            givens[cell] = value(g, c);
        }
    }
    Ok(givens)
}

/// When the cells off the board are written as `render::text` draws them (on their positions,
/// after the board), the cell each written cell stands for, in the order of `found`.
fn drawn_order(g: &Geometry, found: &[Cell]) -> Option<Vec<usize>> {
    let width = crate::render::text::cell_width(&g.symbols);
    let spots = crate::render::text::off_board_spots(g, width)?;
    let mut order: Vec<usize> = (0..g.cell_count())
        .filter(|&i| g.cells[i].board.is_some())
        .collect();
    let written = &found[order.len()..];
    let drawn: Vec<(usize, usize)> = spots.iter().map(|s| (s.row, s.col + width)).collect();
    let at: Vec<(usize, usize)> = written.iter().map(|c| (c.line, c.end)).collect();
    if shifted(&drawn) != shifted(&at) {
        return None;
    }
    order.extend(spots.iter().map(|s| s.cell));
    Some(order)
}

/// Positions moved so that the smallest line and column are 0.
fn shifted(v: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let r0 = v.iter().map(|p| p.0).min().unwrap_or(0);
    let c0 = v.iter().map(|p| p.1).min().unwrap_or(0);
    v.iter().map(|&(r, c)| (r - r0, c - c0)).collect()
}

/// Reads a one-line string: the first N cells (N = cell count); the rest is ignored.
pub fn parse_line(g: &Geometry, line: &str) -> Result<Vec<Option<u8>>, Error> {
    let n = g.cell_count();
    let mut found = Vec::with_capacity(n);
    cells(g, line, n, &mut found).map_err(|(e, at)| e.at(line, Some(at..at)))?;
    if found.len() < n {
        return Err(Error::puzzle(format!(
            "the line has {} symbols but the geometry '{}' has {} cells",
            found.len(),
            g.name,
            n
        )));
    }
    Ok(found.iter().map(|c| value(g, c)).collect())
}

/// Fast path for `batch`: when every symbol and the empty markers are single bytes, a line can be
/// read byte by byte. Returns `None` when the fast path does not apply.
pub fn parse_line_bytes(
    table: &[u8; 256],
    n: usize,
    line: &[u8],
) -> Option<Result<Vec<Option<u8>>, usize>> {
    if line.len() < n {
        return Some(Err(line.len()));
    }
    let mut out = Vec::with_capacity(n);
    for &b in &line[..n] {
        match table[b as usize] {
            255 => return None,
            254 => out.push(None),
            v => out.push(Some(v)),
        }
    }
    Some(Ok(out))
}

/// The byte table for [`parse_line_bytes`]: symbol index, 254 for empty, 255 for anything else.
/// `None` if some symbol is not a single ASCII byte.
pub fn byte_table(g: &Geometry) -> Option<[u8; 256]> {
    let mut t = [255u8; 256];
    for (i, s) in g.symbols.symbols().iter().enumerate() {
        if s.len() != 1 || !s.is_ascii() {
            return None;
        }
        t[s.as_bytes()[0] as usize] = i as u8;
    }
    t[b'.' as usize] = 254;
    if g.symbols.index_of("0").is_none() {
        t[b'0' as usize] = 254;
    }
    Some(t)
}

/// Writes a grid as a one-line string (see [`crate::render::line`]).
pub fn to_line(g: &Geometry, grid: &[Option<u8>]) -> String {
    crate::render::line(g, grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::builtin;

    fn numeric16() -> Geometry {
        Geometry::from_toml(
            "name = \"n16\"\nsymbols = \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\"\n\
             [[grid]]\nsize = 16\nboxes = [4, 4]\n",
        )
        .unwrap()
    }

    /// Some grid with every kind of cell: empty, and each symbol in turn.
    fn pattern(g: &Geometry) -> Vec<Option<u8>> {
        let n = g.symbol_count() as u64;
        (0..g.cell_count() as u64)
            .map(|i| {
                let k = i.wrapping_mul(0x9e37_79b9) % (n + 1);
                (k < n).then_some(k as u8)
            })
            .collect()
    }

    #[test]
    fn every_drawing_reads_back() {
        let mut layouts: Vec<Geometry> = builtin::BUILTIN
            .iter()
            .map(|(name, _)| builtin::load(name).unwrap())
            .collect();
        layouts.push(numeric16());
        layouts.push(
            Geometry::from_toml(
                "name = \"fruit\"\nsymbols = [\"🍎\", \"🍐\", \"🍊\", \"🍋\"]\n\
                 [[grid]]\nsize = 4\nboxes = [2, 2]\n",
            )
            .unwrap(),
        );
        for g in &layouts {
            let grid = pattern(g);
            let drawn = crate::render::text::draw(g, &grid);
            assert_eq!(parse_grid(g, &drawn).unwrap(), grid, "{}:\n{drawn}", g.name);
            // indented, as in a TOML string, and with a comment
            let indented: String = drawn.lines().map(|l| format!("    {l}\n")).collect();
            let text = format!("# a comment\n{indented}");
            assert_eq!(parse_grid(g, &text).unwrap(), grid, "{}", g.name);
            assert_eq!(
                parse_line(g, &to_line(g, &grid)).unwrap(),
                grid,
                "{}",
                g.name
            );
        }
    }

    #[test]
    fn symbols_of_several_characters_stand_apart() {
        let g = numeric16();
        let mut text = String::from("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n");
        text.push_str("16,15,14,13 . . . . 0 0 0 0 .... \n");
        text.push_str(&". ".repeat(256 - 32));
        let grid = parse_grid(&g, &text).unwrap();
        assert_eq!(grid[9], Some(9));
        assert_eq!(grid[16], Some(15));
        assert_eq!(grid[20..32], [None; 12]);
        // a number that is not a symbol is read as digits, and the count then says so
        let e = parse_grid(&g, &text.replacen("16,15", "17,15", 1)).unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("257 entries") && m.contains("'17' on line 2"),
            "{m}"
        );
        let e = parse_grid(&g, &text.replacen("16,15", "1x,15", 1)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("'1x' (for cell r2c1) is not in the symbol set 1 2 3"),
            "{e}"
        );
        assert_eq!(e.location().map(|l| (l.line, l.column)), Some((2, 1)));
        assert_eq!(to_line(&g, &grid[..3]), "1 2 3");
    }

    #[test]
    fn drawing_characters_that_are_symbols_are_read_as_symbols() {
        let g = Geometry::from_toml(
            "name = \"signs\"\nsymbols = \"+-|#\"\n[[grid]]\nsize = 4\nboxes = [2, 2]\n",
        )
        .unwrap();
        let grid = parse_grid(&g, "+-|#\n#|-+\n-+#|\n|#+-").unwrap();
        assert_eq!(grid[..4], [Some(0), Some(1), Some(2), Some(3)]);
        let grid = pattern(&g);
        let drawn = crate::render::text::draw(&g, &grid);
        assert_eq!(parse_grid(&g, &drawn).unwrap(), grid, "{drawn}");
    }
}
