//! PNG pictures: the SVG that [`anydoku::render::svg()`] draws, rasterised by resvg on white, its
//! symbols set in the system's fonts. The picture has [`SCALE`] pixels per SVG unit, less when
//! that would make a side longer than [`MAX_SIDE`]: its memory is bounded whatever the layout.

use resvg::{tiny_skia, usvg};

/// Pixels per SVG unit (a 9x9 grid comes out 776 pixels wide).
pub const SCALE: f32 = 2.0;
/// The longest side a PNG may have, in pixels (at most 64 MiB of pixels).
pub const MAX_SIDE: f32 = 4096.0;

/// A PNG picture and whether the system had a font for its symbols (without one, the grid
/// is drawn but its symbols are not).
pub struct Png {
    pub bytes: Vec<u8>,
    pub fonts: bool,
}

/// The PNG of `svg`, or why it cannot be made.
pub fn from_svg(svg: &str) -> Result<Png, String> {
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let fonts = !options.fontdb.is_empty();
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| format!("the picture could not be read back as SVG: {e}"))?;
    let (width, height) = (tree.size().width(), tree.size().height());
    let scale = SCALE.min(MAX_SIDE / width.max(height));
    let side = |x: f32| ((x * scale).ceil() as u32).clamp(1, MAX_SIDE as u32);
    let mut pixmap = tiny_skia::Pixmap::new(side(width), side(height))
        .ok_or_else(|| "the picture has no area".to_string())?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let bytes = pixmap
        .encode_png()
        .map_err(|e| format!("the picture could not be encoded as PNG: {e}"))?;
    Ok(Png { bytes, fonts })
}
