//! Printable scramble sheets: the scrambles of a round with a picture of
//! each scrambled puzzle, as a PDF, the way WCA delegates print them.
//!
//! The sheet is made in memory ([`scramble_sheet`] returns the file's
//! bytes; writing it is the caller's business). Pictures are the nets
//! [`twistor_geometry::svg::draw`] lays out, filled as PDF paths, so no
//! SVG is parsed; text is set in the standard Helvetica font, which every
//! PDF reader has.
//!
//! ```
//! use twistor_tools::sheet::{scramble_sheet, SheetEntry};
//!
//! let pdf = scramble_sheet("3x3x3 round 1", &[SheetEntry {
//!     label: "1".into(),
//!     scramble: "R U R' U'".into(),
//!     picture: Vec::new(),
//!     picture_size: (800.0, 500.0),
//! }]);
//! assert!(pdf.starts_with(b"%PDF-"));
//! ```

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};
use twistor_geometry::svg::DrawnSticker;

/// One scramble on a sheet.
#[derive(Clone, Debug)]
pub struct SheetEntry {
    /// Its label (`1`, `2`, `E1` for extras).
    pub label: String,
    /// The scramble in the event's notation, in rows separated by
    /// newlines where the event prints it so (the megaminx's seven,
    /// [`crate::scramble::Event::rows`]); each row is wrapped at spaces.
    pub scramble: String,
    /// The scrambled puzzle's net (empty: no picture).
    pub picture: Vec<DrawnSticker>,
    /// The net's drawing size (the coordinates of `picture`).
    pub picture_size: (f64, f64),
}

/// A4 in points.
const PAGE: (f32, f32) = (595.0, 842.0);
const MARGIN: f32 = 40.0;
const ENTRIES_PER_PAGE: usize = 5;
const TEXT_SIZE: f32 = 11.0;
/// Characters of scramble text a line, at [`TEXT_SIZE`] in the text column:
/// Helvetica's move letters and signs average about 6 pt, and the column
/// ends 10 pt before the picture (a megaminx row, 42 characters, fits).
const LINE_CHARS: usize = 44;

/// The sheet, as the bytes of a PDF file: a title on each page, then each
/// scramble's label, its text (wrapped at spaces) and its picture.
pub fn scramble_sheet(title: &str, entries: &[SheetEntry]) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let font = Ref::new(3);
    let pages: Vec<&[SheetEntry]> = if entries.is_empty() {
        vec![&[]]
    } else {
        entries.chunks(ENTRIES_PER_PAGE).collect()
    };
    let page_ids: Vec<Ref> = (0..pages.len())
        .map(|i| Ref::new(4 + 2 * i as i32))
        .collect();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(page_ids.iter().copied())
        .count(pages.len() as i32);
    // WinAnsi, so `'` is the straight quote people type, not a curly one.
    pdf.type1_font(font)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    for (i, chunk) in pages.iter().enumerate() {
        let content_id = Ref::new(5 + 2 * i as i32);
        let mut page = pdf.page(page_ids[i]);
        page.media_box(Rect::new(0.0, 0.0, PAGE.0, PAGE.1));
        page.parent(tree);
        page.contents(content_id);
        page.resources().fonts().pair(Name(b"F1"), font);
        page.finish();
        let content = page_content(title, i + 1, pages.len(), chunk);
        pdf.stream(content_id, &content);
    }
    pdf.finish()
}

fn page_content(title: &str, page: usize, pages: usize, entries: &[SheetEntry]) -> Vec<u8> {
    let mut c = Content::new();
    let heading = format!("{title}    page {page} of {pages}");
    text(&mut c, MARGIN, PAGE.1 - MARGIN, 14.0, &heading);
    let block = (PAGE.1 - 2.0 * MARGIN - 30.0) / ENTRIES_PER_PAGE as f32;
    for (k, e) in entries.iter().enumerate() {
        let top = PAGE.1 - MARGIN - 30.0 - k as f32 * block;
        // A rule between scrambles.
        c.set_stroke_rgb(0.6, 0.6, 0.6);
        c.set_line_width(0.5);
        c.move_to(MARGIN, top);
        c.line_to(PAGE.0 - MARGIN, top);
        c.stroke();
        text(&mut c, MARGIN, top - 18.0, 12.0, &format!("{}.", e.label));
        let lines: Vec<String> = e
            .scramble
            .lines()
            .flat_map(|row| wrap(row, LINE_CHARS))
            .collect();
        for (l, line) in lines.iter().enumerate() {
            let y = top - 18.0 - l as f32 * (TEXT_SIZE + 3.0);
            text(&mut c, MARGIN + 28.0, y, TEXT_SIZE, line);
        }
        let box_w = 200.0f32;
        let box_h = block - 16.0;
        picture(&mut c, e, PAGE.0 - MARGIN - box_w, top - 8.0, box_w, box_h);
    }
    c.finish().to_vec()
}

fn text(c: &mut Content, x: f32, y: f32, size: f32, s: &str) {
    // Helvetica's standard encoding covers ASCII; anything else is shown as
    // `?` rather than as bytes the font would misread.
    let ascii: Vec<u8> = s
        .chars()
        .map(|ch| if ch.is_ascii() { ch as u8 } else { b'?' })
        .collect();
    c.set_fill_rgb(0.0, 0.0, 0.0);
    c.begin_text();
    c.set_font(Name(b"F1"), size);
    c.next_line(x, y);
    c.show(Str(&ascii));
    c.end_text();
}

/// Splits `s` at spaces into lines of at most `width` characters (a longer
/// word stands alone).
fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Draws the entry's net scaled into the box whose top-left is (`x`, `top`).
fn picture(c: &mut Content, e: &SheetEntry, x: f32, top: f32, w: f32, h: f32) {
    let (pw, ph) = e.picture_size;
    if e.picture.is_empty() || pw <= 0.0 || ph <= 0.0 {
        return;
    }
    let scale = (f64::from(w) / pw).min(f64::from(h) / ph);
    c.set_stroke_rgb(0.0, 0.0, 0.0);
    c.set_line_width(0.3);
    for s in &e.picture {
        let (r, g, b) = rgb(&s.color);
        c.set_fill_rgb(r, g, b);
        for (i, &(px, py)) in s.points.iter().enumerate() {
            let (qx, qy) = (x + (px * scale) as f32, top - (py * scale) as f32);
            if i == 0 {
                c.move_to(qx, qy);
            } else {
                c.line_to(qx, qy);
            }
        }
        c.close_path();
        c.fill_nonzero_and_stroke();
    }
}

/// `#rrggbb` as fractions (grey for anything else).
fn rgb(hex: &str) -> (f32, f32, f32) {
    let channel = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .map(|v| f32::from(v) / 255.0)
    };
    match (hex.len(), channel(1), channel(3), channel(5)) {
        (7, Some(r), Some(g), Some(b)) => (r, g, b),
        _ => (0.5, 0.5, 0.5),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_move_and_the_width() {
        let s = "R U R' U' R' F R2 U' R' U' R U R' F' ".repeat(5);
        let lines = wrap(&s, 20);
        assert!(lines.iter().all(|l| l.len() <= 20));
        assert_eq!(lines.join(" "), s.trim());
    }

    #[test]
    fn colours_parse() {
        assert_eq!(rgb("#ff0000"), (1.0, 0.0, 0.0));
        assert_eq!(rgb("red"), (0.5, 0.5, 0.5));
    }

    #[test]
    fn pages_hold_five_scrambles_each() {
        let e = SheetEntry {
            label: "1".into(),
            scramble: "R U".into(),
            picture: Vec::new(),
            picture_size: (800.0, 500.0),
        };
        let pdf = scramble_sheet("t", &vec![e; 11]);
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("/Count 3"), "{text}");
        assert!(text.contains("(t    page 3 of 3)"));
    }
}
