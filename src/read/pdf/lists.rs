//! List items: a PDF keeps no list structure (unless tagged, which few are); a list
//! is text whose lines open with a bullet glyph or a number marker, the item's text
//! hanging after it. The marker is read from the text and left out of the item (the
//! model's kind says it); nesting comes from how far the marker is indented.

/// Bullet glyphs that open an item with or without a space after them (U+F0B7 is
/// the Symbol font's bullet, which fonts without a ToUnicode map leave in the
/// private use area).
const BULLETS: &[char] = &[
    '•', '◦', '▪', '▫', '●', '○', '■', '□', '‣', '⁃', '∙', '·', '►', '▸', '➢', '✓', '\u{F0B7}',
];

/// Characters that open an item only when a space follows (otherwise they are a
/// minus sign, an emphasis mark or a dash in running text).
const SPACED_BULLETS: &[char] = &['-', '*', '–', '+'];

/// A marker found at the start of a paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Marker {
    pub ordered: bool,
    /// The item's number as printed (1 for `a)`, 4 for `(iv)`); 0 for bullets.
    pub number: u32,
    /// Characters the marker and the space after it take at the start of the text.
    pub len: usize,
}

/// The marker opening `text` (white space already collapsed), if any.
pub(crate) fn marker(text: &str) -> Option<Marker> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    if BULLETS.contains(&first) {
        let body = rest.trim_start();
        return (!body.is_empty()).then(|| Marker {
            ordered: false,
            number: 0,
            len: text.chars().count() - body.chars().count(),
        });
    }
    if SPACED_BULLETS.contains(&first) {
        let body = rest.strip_prefix(' ')?;
        return (!body.trim().is_empty()).then_some(Marker {
            ordered: false,
            number: 0,
            len: 2,
        });
    }
    let (token, body) = text.split_once(' ')?;
    if body.trim().is_empty() {
        return None;
    }
    let number = numbered(token)?;
    Some(Marker {
        ordered: true,
        number,
        len: token.chars().count() + 1,
    })
}

/// Whether `text` is a marker alone (a bullet or number set apart from its item by a
/// tab, so that it forms a fragment of its own).
pub(crate) fn marker_only(text: &str) -> bool {
    let n = text.chars().count();
    n > 0 && marker(&format!("{text} x")).is_some_and(|m| m.len == n + 1)
}

/// The value of a number marker token: `1.` `12)` `a)` `(a)` `(iv)` `(3)`.
fn numbered(token: &str) -> Option<u32> {
    if let Some(inner) = token.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        return value(inner, true);
    }
    if let Some(inner) = token.strip_suffix(')') {
        return value(inner, false);
    }
    // "1." only with digits: "a." and "I." are more often initials than markers.
    let inner = token.strip_suffix('.')?;
    let digits = inner.chars().all(|c| c.is_ascii_digit());
    (digits).then(|| value(inner, false)).flatten()
}

/// The number a marker's inside says: 1 to 3 digits, one letter (`a` = 1), or a
/// lower-case Roman numeral (only inside parentheses, where `(i)` cannot be a word).
fn value(inner: &str, parenthesized: bool) -> Option<u32> {
    let n = inner.chars().count();
    if (1..=3).contains(&n) && inner.chars().all(|c| c.is_ascii_digit()) {
        return inner.parse().ok();
    }
    let mut cs = inner.chars();
    if let (Some(c), None) = (cs.next(), cs.next())
        && c.is_ascii_alphabetic()
        && !(parenthesized && matches!(c, 'i' | 'v' | 'x'))
    {
        return Some(u32::from(c.to_ascii_lowercase()) - u32::from('a') + 1);
    }
    if parenthesized && (1..=6).contains(&n) {
        return roman(inner);
    }
    None
}

/// A lower-case Roman numeral's value.
fn roman(s: &str) -> Option<u32> {
    let mut total = 0u32;
    let mut prev = 0u32;
    for c in s.chars().rev() {
        let v = match c {
            'i' => 1,
            'v' => 5,
            'x' => 10,
            'l' => 50,
            'c' => 100,
            _ => return None,
        };
        if v < prev {
            total = total.checked_sub(v)?;
        } else {
            total += v;
            prev = v;
        }
    }
    (total > 0).then_some(total)
}

/// Nesting of consecutive items by the x of their markers: deeper when a marker sits
/// right of the one before, back out to the level whose marker it lines up with.
#[derive(Debug, Default)]
pub(crate) struct Levels {
    stack: Vec<f32>,
}

/// Deepest level the model's lists are given (0-based).
const MAX_LEVEL: usize = 8;

impl Levels {
    /// The level of an item whose marker is at `x`, with `em` the font size.
    pub fn level(&mut self, x: f32, em: f32) -> u8 {
        let tol = 0.5 * em;
        while let Some(&top) = self.stack.last() {
            if x < top - tol {
                self.stack.pop();
            } else {
                break;
            }
        }
        match self.stack.last() {
            Some(&top) if x <= top + tol => {}
            _ => self.stack.push(x),
        }
        u8::try_from(self.stack.len().saturating_sub(1).min(MAX_LEVEL)).unwrap_or(0)
    }

    /// Forgets the list (a paragraph that is not an item ended it).
    pub fn reset(&mut self) {
        self.stack.clear();
    }
}
