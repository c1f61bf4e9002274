//! Numbering (ECMA-376 Part 1, 17.9 `numbering.xml`): list definitions and the item
//! counters that give each list paragraph its number.
//!
//! Counting rules:
//! * Every `w:num` instance that points at the same `w:abstractNum` shares one set of
//!   counters, as Word renders them: a second `w:num` continues the first one's list.
//! * A start override (17.9.27 `w:lvlOverride/w:startOverride`) is applied once: the
//!   first item of that `w:num` at the overridden level restarts the shared counter at
//!   the override value; every later item of any `w:num` of the same abstract list
//!   continues from there (a list restarted through a new numId whose next items keep
//!   the old numId counts 1, 2, 3, not 1, 4, 5).
//! * After an item at level `L`, deeper levels restart (17.9.10 `w:lvlRestart`: a level
//!   restarts after an item of a level above the one named, default: any higher level;
//!   0 = never).
//!
//! All counters live in a map keyed by instance, so numbering is linear time.

use std::collections::{HashMap, HashSet};

use crate::error::ConvertError;

use super::labels::format_number;
use super::styles::Styles;
use super::xml::{Ev, Ns, Xml};

/// One level of a list definition (17.9.6 `w:lvl`).
#[derive(Debug, Clone, Default)]
struct Level {
    start: Option<u32>,
    format: Option<String>,
    text: Option<String>,
    restart: Option<u32>,
    style: Option<String>,
    legal: bool,
}

#[derive(Debug, Clone, Default)]
struct Abstract {
    levels: HashMap<u8, Level>,
    style_link: Option<String>,
}

#[derive(Debug, Clone, Default)]
struct Num {
    abstract_id: String,
    start_overrides: HashMap<u8, u32>,
    level_overrides: HashMap<u8, Level>,
}

/// A numbered or bulleted paragraph, counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    /// Any format other than `bullet` and `none`.
    pub ordered: bool,
    /// 0-based level.
    pub level: u8,
    /// The number at this level (1-based unless the list starts elsewhere).
    pub number: u32,
    /// The rendered label (`w:lvlText` with `%n` replaced), empty for bullets.
    pub label: String,
}

/// Parsed numbering definitions plus running counters.
#[derive(Debug, Default)]
pub(crate) struct Numbering {
    abstracts: HashMap<String, Abstract>,
    nums: HashMap<String, Num>,
    /// Running counters per `w:abstractNum` id.
    counters: HashMap<String, [Option<u32>; 9]>,
    /// `(numId, level)` start overrides already applied.
    restarted: HashSet<(String, u8)>,
}

impl Numbering {
    /// Parses `numbering.xml`.
    ///
    /// # Errors
    /// XML errors from [`Xml::next`].
    pub(crate) fn parse(x: &mut Xml<'_>) -> Result<Numbering, ConvertError> {
        let mut n = Numbering::default();
        loop {
            match x.next()? {
                Ev::Start(s) if s.is(Ns::W, "abstractNum") => {
                    let id = s.w("abstractNumId").unwrap_or("").to_string();
                    let a = read_abstract(x)?;
                    n.abstracts.entry(id).or_insert(a);
                }
                Ev::Start(s) if s.is(Ns::W, "num") => {
                    let id = s.w("numId").unwrap_or("").to_string();
                    let num = read_num(x)?;
                    n.nums.entry(id).or_insert(num);
                }
                Ev::Start(s) if s.is(Ns::W, "numbering") => {}
                Ev::Start(_) => x.skip()?,
                Ev::End | Ev::Text(_) => {}
                Ev::Eof => return Ok(n),
            }
        }
    }

    /// The level whose `w:pStyle` is `style` in the list of `num_id` (a style that
    /// carries `w:numPr` without `w:ilvl` takes its level this way, 17.9.23).
    pub(crate) fn level_of_style(&self, num_id: &str, style: &str, styles: &Styles) -> Option<u8> {
        let a = abstract_of(&self.nums, &self.abstracts, num_id, styles)?.1;
        a.levels
            .iter()
            .find(|(_, l)| l.style.as_deref() == Some(style))
            .map(|(k, _)| *k)
    }

    /// Counts one paragraph of list `num_id` at `level` and returns its item, or
    /// `None` when `num_id` is `0` or unknown.
    pub(crate) fn next_item(&mut self, num_id: &str, level: u8, styles: &Styles) -> Option<Item> {
        let level = level.min(8);
        let Numbering {
            abstracts,
            nums,
            counters,
            restarted,
        } = self;
        let num = nums.get(num_id)?;
        let (abs_id, abs) = abstract_of(nums, abstracts, num_id, styles)?;
        // Borrowed, not cloned: a long list reads its nine level definitions per item.
        let none = Level::default();
        let defs: [&Level; 9] = std::array::from_fn(|l| {
            let l = l as u8;
            num.level_overrides
                .get(&l)
                .or_else(|| abs.levels.get(&l))
                .unwrap_or(&none)
        });
        let starts: [u32; 9] = std::array::from_fn(|l| {
            num.start_overrides
                .get(&(l as u8))
                .copied()
                .or(defs[l].start)
                .unwrap_or(0)
        });
        let start_of = |l: usize| starts.get(l).copied().unwrap_or(0);
        let counters = counters.entry(abs_id).or_insert([None; 9]);
        let li = usize::from(level);
        let restart = num
            .start_overrides
            .get(&level)
            .copied()
            .filter(|_| restarted.insert((num_id.to_string(), level)));
        let value = match (restart, counters.get(li).copied().flatten()) {
            (Some(v), _) => v,
            (None, Some(v)) => v.saturating_add(1),
            (None, None) => start_of(li),
        };
        if let Some(c) = counters.get_mut(li) {
            *c = Some(value);
        }
        for deeper in (li + 1)..9 {
            let restart = defs[deeper].restart.unwrap_or(deeper as u32);
            if restart > 0 && (li as u32) < restart {
                if let Some(c) = counters.get_mut(deeper) {
                    *c = None;
                }
            }
        }
        let def = defs[li];
        let format = def.format.as_deref().unwrap_or("decimal");
        let ordered = !matches!(format, "bullet" | "none");
        let mut label = String::new();
        if ordered {
            let text = def.text.as_deref().unwrap_or("");
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                let n = chars.peek().and_then(|d| d.to_digit(10));
                match (c, n) {
                    ('%', Some(d @ 1..=9)) => {
                        chars.next();
                        let l = (d - 1) as usize;
                        let v = counters
                            .get(l)
                            .copied()
                            .flatten()
                            .unwrap_or_else(|| start_of(l));
                        let f = match defs.get(l).and_then(|d| d.format.as_deref()) {
                            _ if def.legal => "decimal",
                            Some(f) => f,
                            None => "decimal",
                        };
                        label.push_str(&format_number(v, f));
                    }
                    _ => label.push(c),
                }
            }
        }
        Some(Item {
            ordered,
            level,
            number: value,
            label,
        })
    }
}

/// The `w:abstractNum` of `num_id` and its id, following `w:numStyleLink` (17.9.21)
/// through at most four numbering styles.
fn abstract_of<'n>(
    nums: &'n HashMap<String, Num>,
    abstracts: &'n HashMap<String, Abstract>,
    num_id: &str,
    styles: &Styles,
) -> Option<(String, &'n Abstract)> {
    let num = nums.get(num_id)?;
    let mut id = num.abstract_id.clone();
    // w:numStyleLink -> numbering style -> its numId -> that num's abstractNum.
    for _ in 0..4 {
        let a = abstracts.get(&id)?;
        let Some(link) = &a.style_link else {
            return Some((id, a));
        };
        let next = styles
            .own_num(link)
            .and_then(|r| r.num_id.as_deref())
            .and_then(|n| nums.get(n))
            .map(|n| n.abstract_id.clone());
        match next {
            Some(next) if next != id => id = next,
            _ => return Some((id, a)),
        }
    }
    None
}

fn read_abstract(x: &mut Xml<'_>) -> Result<Abstract, ConvertError> {
    let mut a = Abstract::default();
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "lvl") => {
                let il = s
                    .w("ilvl")
                    .and_then(|v| v.trim().parse::<u8>().ok())
                    .unwrap_or(0);
                let lvl = read_level(x)?;
                a.levels.entry(il.min(8)).or_insert(lvl);
            }
            Ev::Start(s) if s.is(Ns::W, "numStyleLink") => {
                a.style_link = s.w("val").map(str::to_string);
                x.skip()?;
            }
            Ev::Start(_) => x.skip()?,
            Ev::End | Ev::Eof => return Ok(a),
            Ev::Text(_) => {}
        }
    }
}

fn read_level(x: &mut Xml<'_>) -> Result<Level, ConvertError> {
    let mut l = Level::default();
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.ns == Ns::W {
                    let val = s.w("val");
                    match s.local {
                        "start" => l.start = val.and_then(|v| v.trim().parse().ok()),
                        "numFmt" => l.format = val.map(str::to_string),
                        "lvlText" => l.text = val.map(str::to_string),
                        "lvlRestart" => l.restart = val.and_then(|v| v.trim().parse().ok()),
                        "pStyle" => l.style = val.map(str::to_string),
                        "isLgl" => l.legal = s.on_off(),
                        _ => {}
                    }
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(l),
            Ev::Text(_) => {}
        }
    }
}

fn read_num(x: &mut Xml<'_>) -> Result<Num, ConvertError> {
    let mut n = Num::default();
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "abstractNumId") => {
                n.abstract_id = s.w("val").unwrap_or("").trim().to_string();
                x.skip()?;
            }
            Ev::Start(s) if s.is(Ns::W, "lvlOverride") => {
                let il = s
                    .w("ilvl")
                    .and_then(|v| v.trim().parse::<u8>().ok())
                    .unwrap_or(0)
                    .min(8);
                loop {
                    match x.next()? {
                        Ev::Start(c) if c.is(Ns::W, "startOverride") => {
                            if let Some(v) = c.w("val").and_then(|v| v.trim().parse().ok()) {
                                n.start_overrides.insert(il, v);
                            }
                            x.skip()?;
                        }
                        Ev::Start(c) if c.is(Ns::W, "lvl") => {
                            let lvl = read_level(x)?;
                            n.level_overrides.insert(il, lvl);
                        }
                        Ev::Start(_) => x.skip()?,
                        Ev::End | Ev::Eof => break,
                        Ev::Text(_) => {}
                    }
                }
            }
            Ev::Start(_) => x.skip()?,
            Ev::End | Ev::Eof => return Ok(n),
            Ev::Text(_) => {}
        }
    }
}
