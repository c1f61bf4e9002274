//! Footnotes. Typesetting puts a note at the foot of the page (or column) that
//! references it, in a type size smaller than the body or below a short separator
//! rule, opening with the same number or symbol that marks the reference in the
//! text as a superscript. A note
//! found that way leaves the body and becomes a [`Note`]; its marker in the body
//! becomes a note reference (see [`super::inlines::Builder::line`]).

use std::collections::{BTreeMap, BTreeSet};

use crate::error::ConvertError;
use crate::model::{Note, NoteKind};
use crate::read::budget;

use super::cells::Seg1;
use super::inlines::paragraph_of;
use super::lines::Line;
use super::paragraphs::Seg;

/// A note is set at most this share of the body size ("clearly smaller": notes are
/// 8 pt under 10 to 12 pt text).
const SMALL: f32 = 0.9;

/// The first note line of a page lies below this share of the page height.
const FOOT: f32 = 0.5;

/// A footnote separator is at most this share of the page width (Word and
/// LibreOffice draw a third of the text column; a table rule spans the table).
const SEPARATOR_MAX: f32 = 0.45;

/// ... and at least this share (shorter rules are underlines or marks).
const SEPARATOR_MIN: f32 = 0.08;

/// Symbols that mark notes (in the traditional order).
const SYMBOLS: &[char] = &['*', '†', '‡', '§', '¶', '#', '‖'];

/// The marker a note line opens with and how many characters of its text it takes
/// (with the `.` or `)` after it).
fn opening(line: &Line) -> Option<(String, usize)> {
    let first = line.frags.first()?;
    let pieces = first.pieces();
    let p = pieces.first()?;
    let text = line.text();
    if p.sup {
        let m = p.text.trim().to_string();
        let n = m.chars().count();
        return (n > 0 && n <= 3 && is_marker(&m)).then_some((m, n));
    }
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let symbols = text.chars().take_while(|c| SYMBOLS.contains(c)).count();
    let n = digits.max(symbols);
    if n == 0 || n > 3 {
        return None;
    }
    let m: String = text.chars().take(n).collect();
    let after = text.chars().nth(n);
    let punct = usize::from(matches!(after, Some('.' | ')')));
    // "12 apples" opens with a number too; a note's number is followed by its text,
    // never by a unit or more digits.
    let next = text.chars().nth(n + punct);
    if !next.is_none_or(|c| c.is_whitespace() || c.is_alphabetic()) {
        return None;
    }
    Some((m, n + punct))
}

fn is_marker(m: &str) -> bool {
    m.chars().all(|c| c.is_ascii_digit()) || m.chars().all(|c| SYMBOLS.contains(&c))
}

/// The y of the page's footnote separator: the lowest short horizontal rule in
/// the lower half of the page (see [`SEPARATOR_MAX`]; short rules higher up are
/// underlines and marks in the body). Word processors draw it right above the notes
/// whatever their size, and some set notes at the body size, so below it a line
/// need not be small to be a note.
pub(crate) fn separator(hrules: &[Seg1], width: f32, height: f32) -> Option<f32> {
    hrules
        .iter()
        .filter(|r| r.at >= FOOT * height)
        .filter(|r| {
            let len = r.to - r.from;
            len >= SEPARATOR_MIN * width && len <= SEPARATOR_MAX * width
        })
        .map(|r| r.at)
        .max_by(f32::total_cmp)
}

/// Takes the page's footnotes out of `segs`. `body` is the document's body size;
/// below `separator` (see [`separator`]) lines of any size may be notes;
/// `used` holds the note ids already given (ids are unique per document). Returns
/// the notes and the page's marker -> id map for the references.
///
/// # Errors
/// [`ConvertError::TooManyElements`] past the element budget.
pub(crate) fn extract(
    segs: &mut [Seg],
    body: f32,
    height: f32,
    separator: Option<f32>,
    page: u32,
    used: &mut BTreeSet<String>,
) -> Result<(Vec<Note>, BTreeMap<String, String>), ConvertError> {
    let small = |l: &Line| l.size <= SMALL * body || separator.is_some_and(|y| l.base > y);
    // Each column's trailing small lines, from the first that opens with a marker.
    let mut starts: Vec<Option<usize>> = Vec::with_capacity(segs.len());
    for s in segs.iter() {
        let Seg::Lines(lines) = s else {
            starts.push(None);
            continue;
        };
        let tail = lines.iter().rev().take_while(|l| small(l)).count();
        let from = lines.len() - tail;
        let first = lines
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, l)| l.base >= FOOT * height && opening(l).is_some())
            .map(|(i, _)| i);
        starts.push(first);
    }
    if starts.iter().all(Option::is_none) {
        return Ok((Vec::new(), BTreeMap::new()));
    }
    // Superscripts of the body text (outside the candidate notes).
    let mut refs: BTreeSet<String> = BTreeSet::new();
    for (s, start) in segs.iter().zip(&starts) {
        if let Seg::Lines(lines) = s {
            for l in lines.iter().take(start.unwrap_or(usize::MAX)) {
                for f in &l.frags {
                    for p in f.pieces().iter().filter(|p| p.sup) {
                        refs.insert(p.text.trim().to_string());
                    }
                }
            }
        }
    }
    let mut notes = Vec::new();
    let mut markers = BTreeMap::new();
    for (s, start) in segs.iter_mut().zip(&starts) {
        let (Seg::Lines(lines), Some(start)) = (s, *start) else {
            continue;
        };
        let first_ok = lines
            .get(start)
            .and_then(opening)
            .is_some_and(|(m, _)| refs.contains(&m));
        if !first_ok {
            continue;
        }
        let foot = lines.split_off(start);
        // (marker, characters to skip, lines)
        let mut groups: Vec<(String, usize, Vec<&Line>)> = Vec::new();
        for l in &foot {
            match opening(l).filter(|(m, _)| refs.contains(m) && !markers.contains_key(m)) {
                Some((m, skip)) => {
                    markers.insert(m.clone(), String::new());
                    groups.push((m, skip, vec![l]));
                }
                None => {
                    if let Some(g) = groups.last_mut() {
                        g.2.push(l);
                    }
                }
            }
        }
        for (m, skip, ls) in groups {
            budget::take(1 + ls.len() as u64)?;
            let id = fresh_id(&m, page, used);
            markers.insert(m, id.clone());
            notes.push(note(id, skip, &ls));
        }
    }
    markers.retain(|_, id| !id.is_empty());
    Ok((notes, markers))
}

/// The marker itself when no note has it yet, else the marker and the page.
fn fresh_id(m: &str, page: u32, used: &mut BTreeSet<String>) -> String {
    let mut id = m.to_string();
    let mut k = 1u32;
    while used.contains(&id) {
        id = if k == 1 {
            format!("{m}-p{page}")
        } else {
            format!("{m}-p{page}-{k}")
        };
        k = k.saturating_add(1);
    }
    used.insert(id.clone());
    id
}

fn note(id: String, skip: usize, lines: &[&Line]) -> Note {
    let blocks = paragraph_of(lines, skip);
    Note {
        kind: NoteKind::Footnote,
        id,
        blocks,
    }
}
