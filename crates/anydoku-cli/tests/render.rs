//! SVG pictures: every built-in geometry and every example puzzle renders, with one outline per
//! cell and one dashed path per cage; regions, diagonals, shading and symbols are where the
//! geometry says; output is well-formed, escaped and byte-for-byte deterministic.

mod common;

use std::sync::Arc;

use anydoku::geometry::{builtin, Rule, ShapeKind};
use anydoku::puzzle::{json, Puzzle};
use anydoku::render::svg;
use anydoku::{Engine, Geometry, Limits, Status};
use common::{check_solution, root, run};

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

/// A minimal XML well-formedness check: tags balance, attributes are quoted, text has no raw `<`
/// or unescaped `&`.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let text = &rest[..i];
        for (k, _) in text.match_indices('&') {
            let ent = &text[k..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| ent.starts_with(e)),
                "raw & in text: {text}"
            );
        }
        let end = rest[i..].find('>').expect("tag closes") + i;
        let tag = &rest[i + 1..end];
        assert!(!tag.contains('<'), "'<' inside a tag: {tag}");
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "mismatched </{name}>");
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap().to_string());
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert!(rest.trim().is_empty());
}

fn cages(g: &Geometry) -> usize {
    g.shapes
        .iter()
        .filter(|s| s.kind == ShapeKind::Cage || matches!(s.rule, Rule::Sum { .. }))
        .count()
}

/// Structure every picture must have, checked against the geometry.
fn check_structure(name: &str, p: &Puzzle, svg: &str) {
    let g = &p.geometry;
    assert_well_formed(svg);
    assert_eq!(
        count(svg, "class=\"cell\""),
        g.cell_count(),
        "{name}: one outline per cell"
    );
    assert_eq!(
        count(svg, "<polygon class=\"cell\""),
        g.cells.iter().filter(|c| c.poly.is_some()).count(),
        "{name}: polygons for cells with an outline"
    );
    assert_eq!(
        count(svg, "class=\"cage\""),
        cages(g),
        "{name}: one path per cage"
    );
    let sums = g
        .shapes
        .iter()
        .filter(|s| matches!(s.rule, Rule::Sum { .. }))
        .count();
    assert_eq!(count(svg, "class=\"cage-sum\""), sums, "{name}: cage sums");
    assert_eq!(
        count(svg, "class=\"given\""),
        p.given_count(),
        "{name}: givens"
    );
    assert_eq!(count(svg, "class=\"region-border\""), 1, "{name}");
    check_cell_data(name, p, svg);
}

/// Every cell outline carries its index (in cell order) and its centre, which lies inside the
/// outline at the cell's position relative to the other cells.
fn check_cell_data(name: &str, p: &Puzzle, svg: &str) {
    let g = &p.geometry;
    let attr = |tag: &str, key: &str| -> f64 {
        let at = tag.find(&format!(" {key}=\"")).expect(key) + key.len() + 3;
        let end = tag[at..].find('"').unwrap() + at;
        tag[at..end].parse().unwrap()
    };
    let tags: Vec<&str> = svg
        .split('<')
        .filter(|t| t.starts_with("rect class=\"cell\"") || t.starts_with("polygon class=\"cell\""))
        .collect();
    assert_eq!(tags.len(), g.cell_count(), "{name}");
    let (c0, p0) = (attr(tags[0], "data-cx"), g.cells[0].pos);
    let r0 = attr(tags[0], "data-cy");
    for (i, tag) in tags.iter().enumerate() {
        assert_eq!(attr(tag, "data-cell") as usize, i, "{name}: cell order");
        let (cx, cy, fit) = (
            attr(tag, "data-cx"),
            attr(tag, "data-cy"),
            attr(tag, "data-fit"),
        );
        let pos = g.cells[i].pos;
        assert!(
            (cx - c0 - (pos[0] - p0[0]) * 40.0).abs() < 0.02,
            "{name}: x of cell {i}"
        );
        assert!(
            (cy - r0 - (pos[1] - p0[1]) * 40.0).abs() < 0.02,
            "{name}: y of cell {i}"
        );
        assert!(fit > 0.0 && fit <= 1.0, "{name}: fit of cell {i}");
        if tag.starts_with("rect") {
            assert!(
                (attr(tag, "x") + 20.0 - cx).abs() < 0.02,
                "{name}: centre of cell {i}"
            );
            assert!(
                (attr(tag, "y") + 20.0 - cy).abs() < 0.02,
                "{name}: centre of cell {i}"
            );
            assert_eq!(fit, 1.0, "{name}: squares have room 1");
        }
    }
}

#[test]
fn every_builtin_geometry_renders_with_its_structure() {
    for (name, _) in builtin::BUILTIN {
        let p = Puzzle::empty(Arc::new(builtin::load(name).unwrap()));
        let (code, out, err) = run(&["render", name]);
        assert_eq!(code, 0, "{name}: {err}");
        check_structure(name, &p, &out);
        assert_eq!(count(&out, "class=\"solved\""), 0);
    }
}

#[test]
fn every_example_puzzle_renders() {
    let dir = root().join("puzzles");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return; // no examples yet; the built-in geometries are covered above
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for f in files {
        let path = f.to_str().unwrap();
        let p = anydoku::puzzle::file::load_path(&f).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (code, out, err) = run(&["render", path]);
        assert_eq!(code, 0, "{path}: {err}");
        check_structure(path, &p, &out);
    }
}

/// Role counts per built-in layout, from what each layout is.
#[test]
fn regions_diagonals_and_shading_follow_the_layout() {
    let picture = |name: &str| {
        let g = builtin::load(name).unwrap();
        let n = g.cell_count();
        svg::draw(&g, &vec![None; n], &vec![None; n])
    };
    // X: the two diagonals, nothing shaded
    let x = picture("x");
    assert_eq!(count(&x, "class=\"diagonal\""), 2);
    assert_eq!(count(&x, "class=\"shade\""), 0);
    // Windoku: four shaded windows of nine cells, no diagonal
    let w = picture("windoku");
    assert_eq!(count(&w, "class=\"shade\""), 4);
    assert_eq!(count(&w, "fill-opacity"), 36);
    assert_eq!(count(&w, "class=\"diagonal\""), 0);
    // Tredoku: 72 rhombi; its bent lines are neither diagonals nor shading
    let t = picture("tredoku");
    assert_eq!(count(&t, "<polygon class=\"cell\""), 72);
    assert_eq!(count(&t, "class=\"diagonal\""), 0);
    assert_eq!(count(&t, "class=\"shade\""), 0);
    // Samurai: 5 grids sharing 4 boxes
    let s = picture("samurai");
    assert_eq!(count(&s, "<rect class=\"cell\""), 5 * 81 - 4 * 9);
}

/// A built-in layout by name, or a layout file by its path from the project root.
fn layout(name: &str) -> Geometry {
    match name.strip_prefix("puzzles/") {
        Some(_) => Geometry::load(root().join(name).to_str().unwrap()).unwrap(),
        None => builtin::load(name).unwrap(),
    }
}

fn empty_picture(g: &Geometry) -> String {
    let n = g.cell_count();
    svg::draw(g, &vec![None; n], &vec![None; n])
}

/// Every unique shape that is not a row, column or region of a drawn grid is visible: each grid
/// of a multi-grid layout outlined, pairs and a hexagon's lines drawn as lines, scattered shapes
/// named in a note.
#[test]
fn sub_grids_lines_and_patterns_are_shown() {
    for (name, grids) in [
        ("puzzles/layouts/flower.toml", 5),
        ("samurai", 5),
        ("windmill", 5),
        ("gattai8", 8),
        ("classic9", 0),
        ("tredoku", 0),
    ] {
        let s = empty_picture(&layout(name));
        assert_eq!(count(&s, "class=\"subgrid\""), grids, "{name}");
    }
    // the Flower's centre grid is rows 4-12, columns 4-12, and its outline says so
    let f = empty_picture(&layout("puzzles/layouts/flower.toml"));
    assert!(
        f.contains("<title>Grid of rows 4-12, columns 4-12</title>"),
        "{f}"
    );
    // 224 pairs a knight's move apart: one line each, and a note saying what lines mean
    let k = empty_picture(&layout("puzzles/layouts/antiknight.toml"));
    assert_eq!(count(&k, "class=\"line\""), 224);
    assert!(
        k.contains("Cells joined by a thin line hold different"),
        "{k}"
    );
    assert_eq!(count(&k, "class=\"diagonal\""), 0);
    // the hexagon's 15 lines (5 rows of hexagons and 10 slanted lines), none a diagonal
    let h = empty_picture(&layout("puzzles/layouts/hexagon.toml"));
    assert_eq!(count(&h, "class=\"line\""), 15);
    assert_eq!(count(&h, "class=\"diagonal\""), 0);
    // an X keeps its diagonals, a classic draws nothing more and has no note
    let x = empty_picture(&layout("x"));
    assert_eq!(
        (count(&x, "class=\"line\""), count(&x, "class=\"note\"")),
        (0, 0)
    );
    // scattered shapes (the same place in every box) are named in a note
    let mut text = std::fs::read_to_string(root().join("geometries/classic9.toml")).unwrap();
    for k in 0..9 {
        let cells: Vec<String> = (0..9)
            .map(|b| format!("r{}c{}", b / 3 * 3 + k / 3 + 1, b % 3 * 3 + k % 3 + 1))
            .collect();
        text.push_str(&format!(
            "[[shape]]\nname = \"Place {}\"\ncells = \"{}\"\n",
            k + 1,
            cells.join(" ")
        ));
    }
    let d = empty_picture(&Geometry::from_toml(&text).unwrap());
    let note: String = d
        .lines()
        .filter(|l| l.contains("class=\"note\""))
        .map(|l| {
            l.split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string()
                + " "
        })
        .collect();
    assert!(
        note.contains("9 shapes of scattered cells: Place 1, Place 2") && note.contains("Place 9."),
        "{note}"
    );
    assert_eq!(count(&d, "class=\"line\""), 0);
}

/// Givens stand on a light ground, whatever their symbols (emoji keep their own colours).
#[test]
fn givens_stand_out() {
    let out = run(&["render", "puzzles/fruit_toroidal.toml"]).1;
    let p = Puzzle::load(root().join("puzzles/fruit_toroidal.toml")).unwrap();
    assert_eq!(count(&out, "class=\"given-cell\""), p.given_count());
    assert_eq!(count(&out, "class=\"given\""), p.given_count());
}

/// Thick edges of a 9x9 classic: the outer frame (36 unit edges) and the box lines inside
/// (2 lines each way, 9 unit edges each).
#[test]
fn classic_thick_edges_are_the_frame_and_box_lines() {
    let g = builtin::load("classic9").unwrap();
    let svg = svg::draw(&g, &[None; 81], &[None; 81]);
    let d = svg
        .split("class=\"region-border\" d=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert_eq!(d.matches('M').count(), 36 + 36);
}

/// A geometry read back from the neutral JSON model (every shape of kind `Extra`) draws the same
/// regions, diagonals and shading as the TOML original.
#[test]
fn json_loaded_geometries_infer_the_same_picture() {
    for name in [
        "classic9",
        "x",
        "windoku",
        "jigsaw",
        "toroidal",
        "samurai",
        "tredoku",
        "puzzles/layouts/flower.toml",
        "puzzles/layouts/antiknight.toml",
        "puzzles/layouts/hexagon.toml",
    ] {
        let p = Puzzle::empty(Arc::new(layout(name)));
        let text = serde_json::to_string(&json::to_model(&p)).unwrap();
        let q = json::from_json(&text).unwrap();
        let n = p.geometry.cell_count();
        let a = svg::draw(&p.geometry, &vec![None; n], &vec![None; n]);
        let b = svg::draw(&q.geometry, &vec![None; n], &vec![None; n]);
        let part = |s: &str, what: &str| {
            s.lines()
                .filter(|l| l.contains(what))
                .map(|l| l.split("<title>").next().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        for what in [
            "region-border",
            "class=\"diagonal\"",
            "fill-opacity",
            "class=\"subgrid\"",
            "class=\"line\"",
            "class=\"note\"",
        ] {
            assert_eq!(part(&a, what), part(&b, what), "{name}: {what}");
        }
    }
}

/// A small Killer built from a known grid: cages drawn, sums shown, solution in blue.
#[test]
fn killer_cages_and_solution_colours() {
    let g = Arc::new(builtin::load("classic4").unwrap());
    let first = Engine::new(&g)
        .count(&[None; 16], 1, Limits::none())
        .solutions[0]
        .clone();
    let value = |r: usize, c: usize| g.symbols.value(first[r * 4 + c] as usize);
    // horizontal dominoes; sums from the grid
    let mut toml = String::from("geometry = \"classic4\"\ngivens = \"1...............\"\n");
    let mut n_cages = 0;
    for r in 0..4 {
        for c in [0, 2] {
            let sum = value(r, c) + value(r, c + 1);
            toml.push_str(&format!(
                "[[cage]]\nsum = {sum}\ncells = \"r{}c{} r{}c{}\"\n",
                r + 1,
                c + 1,
                r + 1,
                c + 2
            ));
            n_cages += 1;
        }
    }
    let given = g.symbols.symbol(first[0] as usize).to_string();
    let toml = toml.replacen("1...", &format!("{given}..."), 1);
    let dir = common::scratch_dir();
    let file = dir.join("killer4.toml");
    std::fs::write(&file, &toml).unwrap();
    let path = file.to_str().unwrap();

    let p = anydoku::puzzle::file::load_path(&file).unwrap();
    assert_eq!(cages(&p.geometry), n_cages);
    let (code, out, err) = run(&["render", path]);
    assert_eq!(code, 0, "{err}");
    check_structure(path, &p, &out);
    // each cage is one closed loop of 4 corners, inside its two cells
    for line in out.lines().filter(|l| l.contains("class=\"cage\"")) {
        assert_eq!(line.matches('M').count(), 1, "{line}");
        assert_eq!(line.matches('L').count(), 3, "{line}");
    }

    let status = Engine::new(&p.geometry).solve(&p.givens, Limits::none());
    let (code, out, err) = run(&["solve", path, "--format", "svg"]);
    let expect_code = if status.status() == Status::Unique {
        0
    } else {
        1
    };
    assert_eq!(code, expect_code, "{err}");
    check_structure(path, &p, &out);
    assert_eq!(count(&out, "class=\"solved\""), 15);
    // the drawn symbols are a valid solution, checked independently
    let (_, model, _) = run(&["export", path]);
    let model: serde_json::Value = serde_json::from_str(&model).unwrap();
    let mut drawn = serde_json::Map::new();
    let cells = p.geometry.cells.clone();
    let texts: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("class=\"given\"") || l.contains("class=\"solved\""))
        .collect();
    assert_eq!(texts.len(), 16);
    for (cell, line) in cells.iter().zip(&texts) {
        let sym = line
            .rsplit_once("\">")
            .unwrap()
            .1
            .trim_end_matches("</text>");
        drawn.insert(cell.name.clone(), sym.into());
    }
    check_solution(&model, &drawn).unwrap();
}

#[test]
fn output_is_deterministic() {
    for name in ["samurai", "tredoku", "jigsaw"] {
        let a = run(&["render", name]).1;
        let b = run(&["render", name]).1;
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn symbols_and_names_are_escaped() {
    let toml = "name = \"A & <B>\"\nsymbols = [\"<\", \"&\", \">\", \"'\"]\n[[grid]]\nsize = 4\nboxes = [2, 2]\n";
    let g = anydoku::geometry::build::from_toml(toml).unwrap();
    let grid: Vec<Option<u8>> = (0..16)
        .map(|i| Some(((i % 4 + i / 4 * 2 + i / 8) % 4) as u8))
        .collect();
    let svg = svg::draw(&g, &grid, &grid);
    assert_well_formed(&svg);
    assert!(svg.contains("<title>A &amp; &lt;B&gt;</title>"));
    for e in [
        "&lt;</text>",
        "&amp;</text>",
        "&gt;</text>",
        "&apos;</text>",
    ] {
        assert_eq!(count(&svg, e), 4, "{e}");
    }
}

#[test]
fn writes_to_a_file_and_reports_bad_paths() {
    let dir = common::scratch_dir();
    let out = dir.join("x.svg");
    let (code, stdout, err) = run(&["render", "x", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.is_empty());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));

    let (code, _, err) = run(&["render", "x", "-o", "/nonexistent-dir/x.svg"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("/nonexistent-dir/x.svg") && err.contains("cannot write"),
        "{err}"
    );
    let (code, _, err) = run(&["render", "no-such-layout"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-layout"), "{err}");
}

/// The number in `attr="…"` of an SVG tag.
fn attr(tag: &str, name: &str) -> f64 {
    let start = tag.find(&format!(" {name}=\"")).expect("the attribute") + name.len() + 3;
    let end = tag[start..].find('"').expect("a closing quote") + start;
    tag[start..end].parse().expect("a number")
}

/// The SVG tags that start with `prefix`.
fn tags<'a>(svg: &'a str, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    svg.match_indices(prefix).map(move |(i, _)| {
        let end = svg[i..].find('>').expect("the tag closes") + i;
        &svg[i..end]
    })
}

/// Clues read from the edge (little killers, sandwiches, skyscrapers) are written outside the
/// grid, on a canvas grown to hold them.
#[test]
fn edge_clues_are_drawn_outside_the_grid() {
    for kind in ["little-killer", "sandwich", "skyscraper"] {
        let file = root().join(format!("puzzles/kinds/{kind}.toml"));
        let (code, svg, _) = run(&["render", file.to_str().unwrap()]);
        assert_eq!(code, 0, "{kind}");
        let head = tags(&svg, "<svg ").next().expect("the svg tag");
        let (width, height) = (attr(head, "width"), attr(head, "height"));
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for cell in tags(&svg, "<rect class=\"cell\"") {
            let (x, y) = (attr(cell, "x"), attr(cell, "y"));
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x + attr(cell, "width"));
            y1 = y1.max(y + attr(cell, "height"));
        }
        let clues: Vec<(f64, f64)> = tags(&svg, "<text class=\"kind\"")
            .map(|t| (attr(t, "x"), attr(t, "y")))
            .collect();
        assert!(!clues.is_empty(), "{kind}: no clue drawn");
        for (x, y) in clues {
            let inside_grid = x > x0 && x < x1 && y > y0 && y < y1;
            assert!(!inside_grid, "{kind}: clue at ({x}, {y}) inside the grid");
            assert!(
                x > 0.0 && x < width && y > 0.0 && y < height,
                "{kind}: clue off the canvas"
            );
        }
    }
}

/// The pixels of a PNG file as RGBA rows, with its width and height.
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a bounded picture")];
    let info = reader.next_frame(&mut pixels).expect("PNG pixels");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

/// The SVG picture's width and height attributes.
fn svg_size(svg: &str) -> (f32, f32) {
    let attr = |name: &str| -> f32 {
        let at = svg.find(&format!(" {name}=\"")).expect("a size") + name.len() + 3;
        svg[at..].split('"').next().unwrap().parse().unwrap()
    };
    (attr("width"), attr("height"))
}

/// `render -o FILE.png` writes a PNG of the SVG at two pixels per unit on white: the grid's
/// lines dark, and (when the system has fonts) the solved symbols in blue; `--format` overrides
/// the extension, a PNG goes to a pipe as bytes, and a layout wider than 4096 pixels at that
/// scale is drawn smaller rather than refused.
#[test]
fn png_pictures_are_the_svg_rasterised() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("killer.png");
    let file_arg = file.to_str().unwrap();
    let (code, svg, _) = run(&["render", "puzzles/killer.toml", "--solution"]);
    assert_eq!(code, 0);
    let (code, _, err) = run(&[
        "render",
        "puzzles/killer.toml",
        "--solution",
        "-o",
        file_arg,
    ]);
    assert_eq!(code, 0, "{err}");
    let (width, height, pixels) = decode_png(&std::fs::read(&file).unwrap());
    let (w, h) = svg_size(&svg);
    assert_eq!(
        (width, height),
        ((2.0 * w).ceil() as u32, (2.0 * h).ceil() as u32)
    );
    let rgba: Vec<&[u8]> = pixels.chunks(4).collect();
    assert_eq!(rgba[0], [255, 255, 255, 255], "the background is white");
    let share =
        |f: &dyn Fn(&[u8]) -> bool| rgba.iter().filter(|p| f(p)).count() as f64 / rgba.len() as f64;
    let dark = share(&|p| p[0] < 80 && p[1] < 80 && p[2] < 80);
    let white = share(&|p| p[0] > 240 && p[1] > 240 && p[2] > 240);
    assert!(dark > 0.02 && white > 0.5, "dark {dark}, white {white}");
    if !err.contains("no fonts found") {
        let blue = share(&|p| p[2] > 150 && p[2] as i32 - p[0] as i32 > 80);
        assert!(blue > 0.01, "the solved symbols are drawn in blue: {blue}");
    }

    // --format wins over the extension
    let (code, _, _) = run(&["render", "classic4", "--format", "svg", "-o", file_arg]);
    assert_eq!(code, 0);
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("<svg"));

    // to a pipe, the PNG's bytes
    let out = std::process::Command::new(common::bin())
        .args(["render", "classic4", "--format", "png"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.starts_with(b"\x89PNG\r\n\x1a\n"));
    let (width, height, _) = decode_png(&out.stdout);
    assert!(width > 100 && width == height, "{width} x {height}");

    // two grids 400 cells apart: drawn at less than two pixels per unit
    let layout = dir.path().join("far.toml");
    std::fs::write(
        &layout,
        "name = \"far\"\nsymbols = \"1234\"\n\
         [[grid]]\norigin = [1, 1]\nsize = 4\nboxes = [2, 2]\n\
         [[grid]]\norigin = [1, 400]\nsize = 4\nboxes = [2, 2]\n",
    )
    .unwrap();
    let far = dir.path().join("far.png");
    let (code, svg, _) = run(&["render", layout.to_str().unwrap()]);
    assert_eq!(code, 0);
    let (w, h) = svg_size(&svg);
    assert!(2.0 * w > 4096.0, "{w}");
    let (code, _, err) = run(&[
        "render",
        layout.to_str().unwrap(),
        "-o",
        far.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (width, height, _) = decode_png(&std::fs::read(&far).unwrap());
    assert_eq!(width, 4096);
    assert_eq!(height, (h * 4096.0 / w).ceil() as u32);
}
