//! A minimal PDF writer for tests that build their own PDFs: pages of text in the
//! standard 14 fonts (Helvetica, Helvetica-Bold; WinAnsiEncoding; and Helvetica
//! with a ToUnicode map that reads A-Z as Hebrew letters), stroked lines,
//! an outline and a title, written as an uncompressed PDF 1.4 file with a
//! cross-reference table (ISO 32000-1, 7.5). Coordinates are given from the page's
//! top-left corner, y downward, like the layout analysis's; the writer flips them.

/// A page being written: US Letter unless made otherwise.
pub struct Page {
    pub width: f32,
    pub height: f32,
    /// The page's `/Rotate` (degrees clockwise, a multiple of 90): how a viewer turns
    /// the page for display. Coordinates stay those of the unturned page.
    pub rotate: u16,
    content: String,
}

impl Default for Page {
    fn default() -> Self {
        Page {
            width: 612.0,
            height: 792.0,
            rotate: 0,
            content: String::new(),
        }
    }
}

impl Page {
    /// Text with its baseline at `y` (from the top), left edge at `x`, in Helvetica
    /// (`bold`: Helvetica-Bold) at `size` points.
    pub fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, s: &str) -> &mut Self {
        let font = if bold { "F2" } else { "F1" };
        let escaped = s
            .replace('\\', "\\\\")
            .replace('(', "\\(")
            .replace(')', "\\)");
        self.content.push_str(&format!(
            "BT /{font} {size} Tf {x} {} Td ({escaped}) Tj ET\n",
            self.height - y
        ));
        self
    }

    /// Text whose baseline starts at (`x`, `y`) (from the top) and runs `degrees`
    /// counter-clockwise from the page's x axis (90: reading upward), in Helvetica.
    pub fn text_turned(&mut self, x: f32, y: f32, size: f32, degrees: f32, s: &str) -> &mut Self {
        let (sin, cos) = degrees.to_radians().sin_cos();
        self.content.push_str(&format!(
            "BT /F1 {size} Tf {cos:.6} {sin:.6} {:.6} {cos:.6} {x} {} Tm ({s}) Tj ET\n",
            -sin,
            self.height - y
        ));
        self
    }

    /// Hebrew text `seen` as it is seen, left to right (visual order, how most
    /// producers draw it), with its baseline at `y` and left edge at `x`, in the
    /// Hebrew-mapped font (letters U+05D0-U+05E9, digits, spaces, Latin lower case).
    pub fn hebrew_seen(&mut self, x: f32, y: f32, size: f32, seen: &str) -> &mut Self {
        self.content.push_str(&format!(
            "BT /F3 {size} Tf {x} {} Td ({}) Tj ET\n",
            self.height - y,
            hebrew_codes(seen)
        ));
        self
    }

    /// Hebrew text `read` (logical order) drawn glyph by glyph from the right edge
    /// `right` leftward, each glyph `advance` units left of the last and each space
    /// a further `advance`: a producer that writes in reading order.
    pub fn hebrew_from_right(
        &mut self,
        right: f32,
        y: f32,
        size: f32,
        advance: f32,
        read: &str,
    ) -> &mut Self {
        let mut x = right;
        for c in read.chars() {
            x -= advance;
            if c == ' ' {
                continue;
            }
            self.content.push_str(&format!(
                "BT /F3 {size} Tf {x} {} Td ({}) Tj ET\n",
                self.height - y,
                hebrew_codes(&c.to_string())
            ));
        }
        self
    }

    /// Lines of `size`-point text from baseline `y` down, `leading` apart.
    pub fn lines(&mut self, x: f32, y: f32, size: f32, leading: f32, lines: &[&str]) -> &mut Self {
        for (i, l) in lines.iter().enumerate() {
            self.text(x, y + i as f32 * leading, size, false, l);
        }
        self
    }

    /// A stroked straight line from (x0, y0) to (x1, y1), 0.5 points wide.
    pub fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32) -> &mut Self {
        self.content.push_str(&format!(
            "0.5 w {x0} {} m {x1} {} l S\n",
            self.height - y0,
            self.height - y1
        ));
        self
    }
}

/// The codes of the Hebrew-mapped font (`/F3`, whose ToUnicode map sends A-Z to
/// U+05D0-U+05E9) for `text`.
fn hebrew_codes(text: &str) -> String {
    text.chars()
        .map(|c| match c as u32 {
            0x05D0..=0x05E9 => char::from_u32(c as u32 - 0x05D0 + 0x41).unwrap_or('?'),
            _ => c,
        })
        .collect()
}

/// A document being written.
#[derive(Default)]
pub struct Pdf {
    pub pages: Vec<Page>,
    /// Bookmarks: (title, 1-based page), all at the top level.
    pub outline: Vec<(String, usize)>,
    pub title: Option<String>,
    /// Raw extra trailer entries and objects, e.g. an `/Encrypt` dictionary.
    pub trailer_extra: String,
}

impl Pdf {
    /// A new page at the end.
    pub fn page(&mut self) -> &mut Page {
        self.pages.push(Page::default());
        self.pages.last_mut().expect("just pushed")
    }

    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        // Objects: 1 catalog, 2 page tree, 3 and 4 fonts, 5 info, 6 outline root,
        // then per page (page, content), then the outline items.
        let n = self.pages.len();
        let page_id = |i: usize| 7 + 2 * i;
        let item_id = |i: usize| 7 + 2 * n + i;
        let mut objects: Vec<String> = Vec::new();
        let outlines = if self.outline.is_empty() {
            String::new()
        } else {
            " /Outlines 6 0 R".into()
        };
        objects.push(format!("<< /Type /Catalog /Pages 2 0 R{outlines} >>"));
        let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", page_id(i))).collect();
        objects.push(format!(
            "<< /Type /Pages /Kids [{}] /Count {n} >>",
            kids.join(" ")
        ));
        for base in ["Helvetica", "Helvetica-Bold"] {
            objects.push(format!(
                "<< /Type /Font /Subtype /Type1 /BaseFont /{base} /Encoding /WinAnsiEncoding >>"
            ));
        }
        objects.push(match &self.title {
            Some(t) => format!("<< /Title ({t}) >>"),
            None => "<< >>".into(),
        });
        let m = self.outline.len();
        objects.push(if m == 0 {
            "<< /Type /Outlines /Count 0 >>".into()
        } else {
            format!(
                "<< /Type /Outlines /First {} 0 R /Last {} 0 R /Count {m} >>",
                item_id(0),
                item_id(m - 1)
            )
        });
        // The Hebrew-mapped font and its ToUnicode map come after the outline items.
        let hebrew = 7 + 2 * n + m;
        for p in &self.pages {
            let id = objects.len() + 2;
            objects.push(format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Rotate {} /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 {hebrew} 0 R >> >> /Contents {id} 0 R >>",
                p.width, p.height, p.rotate
            ));
            objects.push(format!(
                "<< /Length {} >>\nstream\n{}endstream",
                p.content.len(),
                p.content
            ));
        }
        for (i, (title, page)) in self.outline.iter().enumerate() {
            let mut d = format!(
                "<< /Title ({title}) /Parent 6 0 R /Dest [{} 0 R /XYZ 0 792 0]",
                page_id(page - 1)
            );
            if i > 0 {
                d.push_str(&format!(" /Prev {} 0 R", item_id(i - 1)));
            }
            if i + 1 < m {
                d.push_str(&format!(" /Next {} 0 R", item_id(i + 1)));
            }
            d.push_str(" >>");
            objects.push(d);
        }
        objects.push(format!(
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode {} 0 R >>",
            hebrew + 1
        ));
        let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n\
            /CMapName /Hebrew-UCS def /CMapType 2 def\n\
            1 begincodespacerange <00> <FF> endcodespacerange\n\
            4 beginbfrange <20> <20> <0020> <30> <39> <0030> <41> <5A> <05D0> <61> <7A> <0061> endbfrange\n\
            endcmap CMapName currentdict /CMap defineresource pop end end\n";
        objects.push(format!(
            "<< /Length {} >>\nstream\n{cmap}endstream",
            cmap.len()
        ));
        write(
            &objects,
            &format!("/Root 1 0 R /Info 5 0 R{}", self.trailer_extra),
        )
    }
}

/// A PDF 1.4 file of `objects` (numbered from 1, in order) with a cross-reference
/// table and a trailer holding `/Size` and `trailer` (e.g. `/Root 1 0 R`).
pub fn write(objects: &[String], trailer: &str) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} {trailer} >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}
