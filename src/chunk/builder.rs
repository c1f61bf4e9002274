//! Packing units into chunks under the token budget.
//!
//! `max_tokens` bounds the whole chunk text, chunk-information line included. Units
//! are added whole, greedily, from each unit's own token count (never re-tokenizing a
//! growing chunk). A chunk ends early before a heading or title, or when the heading
//! context changes, and at a page end, each once it is at least half full; a heading
//! never ends a chunk (consecutive headings stay with their first content). A chunk's
//! section (info line, `headingPath`) is the one its first non-heading text is in.
//! A unit that does not fit goes to the next chunk; one larger than a whole chunk is split (see `split.rs`); a
//! table row larger than a whole chunk stays whole in a chunk of its own, flagged
//! oversize. A table's header unit never ends a chunk when its rows follow; a chunk
//! that starts inside a table repeats the header, and one that ends inside an HTML
//! table closes it.
//!
//! When a chunk is sealed its exact count comes from its units' tallies, rescanning
//! only the seams between them (`tokens::count_joined`: each byte is counted once, by
//! its unit); if that count is over the budget (token counts of pieces are not exactly
//! additive), the last unit moves to the next chunk. So `tokenCount ==
//! tokens::count(text)` and `tokenCount <= max` unless the record says `oversize`.

use std::collections::{HashMap, VecDeque};

use super::split::split_unit;
use super::units::{Kind, TableInfo, Unit};
use crate::tokens::{self, Tally};

/// Tokens kept free when sizing split pieces, for BPE effects at the joins.
const MARGIN: usize = 3;

/// A sealed chunk before its record is built.
#[derive(Debug)]
pub(crate) struct Draft {
    pub units: Vec<Unit>,
    pub text: String,
    pub tokens: usize,
    /// Table (index) this chunk continues from the previous chunk.
    pub starts_in: Option<usize>,
    /// Table (index) that continues into the next chunk.
    pub ends_in: Option<usize>,
    pub oversize: bool,
    pub ctx: usize,
    pub pages: (u32, u32),
}

/// Packs one stream of units (the body, one header, the footnotes, ...).
pub(crate) struct Packer<'a> {
    pub max: usize,
    pub tables: &'a [TableInfo],
    /// The chunk-information line for a context and page range, with its tally.
    pub info: &'a dyn Fn(usize, (u32, u32)) -> (String, Tally),
    info_lines: HashMap<(usize, u32, u32), (String, Tally)>,
    /// Pages a chunk must start on (the edges of a requested page range), so that
    /// filtering by page drops exactly the pages outside it.
    pub hard_pages: Vec<u32>,
}

#[derive(Default)]
struct Cur {
    units: Vec<Unit>,
    /// Tokens of units, separators and a repeated table header.
    body: usize,
    pages: (u32, u32),
}

/// The section a chunk belongs to: that of its first unit that is not a heading (a
/// chunk opening with `# A` / `## B` is in "A > B"), else of its last heading.
fn chunk_ctx(units: &[Unit]) -> usize {
    units
        .iter()
        .find(|u| !is_heading(u))
        .or(units.last())
        .map_or(0, |u| u.ctx)
}

fn is_heading(u: &Unit) -> bool {
    matches!(u.kind, Kind::Heading | Kind::Title)
}

/// Units that introduce what follows: headings, and a table's header when rows follow.
fn is_lead(u: &Unit) -> bool {
    is_heading(u) || (matches!(u.kind, Kind::TableHead(_)) && u.more_rows)
}

impl<'a> Packer<'a> {
    /// A packer with budget `max`.
    pub(crate) fn new(
        max: usize,
        tables: &'a [TableInfo],
        info: &'a dyn Fn(usize, (u32, u32)) -> (String, Tally),
    ) -> Self {
        Packer {
            max,
            tables,
            info,
            info_lines: HashMap::new(),
            hard_pages: Vec::new(),
        }
    }

    /// The information line for `ctx` and `pages` and its tally, made once.
    fn info_line(&mut self, ctx: usize, pages: (u32, u32)) -> &(String, Tally) {
        let info = self.info;
        self.info_lines
            .entry((ctx, pages.0, pages.1))
            .or_insert_with(|| info(ctx, pages))
    }

    fn info_tally(&mut self, ctx: usize, pages: (u32, u32)) -> &Tally {
        &self.info_line(ctx, pages).1
    }

    fn info_cost(&mut self, ctx: usize, pages: (u32, u32)) -> usize {
        self.info_tally(ctx, pages).tokens + 2
    }

    fn repeat_cost(&self, u: &Unit) -> usize {
        match u.kind {
            Kind::TableRow(t) => self.tables.get(t).map_or(0, |t| t.repeat_tokens + 1),
            _ => 0,
        }
    }

    fn suffix_cost(&self, u: &Unit) -> usize {
        match u.kind {
            Kind::TableHead(t) | Kind::TableRow(t) if u.more_rows => self
                .tables
                .get(t)
                .filter(|t| !t.close.is_empty())
                .map_or(0, |t| t.close_tokens + 1),
            _ => 0,
        }
    }

    /// Estimated tokens of `cur` with `u` added.
    fn cost_with(&mut self, cur: &Cur, u: &Unit) -> usize {
        let (body, pages) = if cur.units.is_empty() {
            (self.repeat_cost(u) + u.tokens, u.pages)
        } else {
            (
                cur.body + 1 + u.tokens,
                (cur.pages.0.min(u.pages.0), cur.pages.1.max(u.pages.1)),
            )
        };
        let ctx = cur
            .units
            .iter()
            .find(|c| !is_heading(c))
            .map_or(u.ctx, |c| c.ctx);
        self.info_cost(ctx, pages) + body + self.suffix_cost(u)
    }

    fn cost(&mut self, cur: &Cur) -> usize {
        match cur.units.last() {
            Some(last) => {
                let ctx = chunk_ctx(&cur.units);
                let suffix = self.suffix_cost(last);
                self.info_cost(ctx, cur.pages) + cur.body + suffix
            }
            None => 0,
        }
    }

    fn add(&mut self, cur: &mut Cur, u: Unit) {
        if cur.units.is_empty() {
            cur.body = self.repeat_cost(&u) + u.tokens;
            cur.pages = u.pages;
        } else {
            cur.body += 1 + u.tokens;
            cur.pages = (cur.pages.0.min(u.pages.0), cur.pages.1.max(u.pages.1));
        }
        cur.units.push(u);
    }

    fn boundary_before(&mut self, cur: &Cur, u: &Unit) -> bool {
        let Some(last) = cur.units.last() else {
            return false;
        };
        let only_headings = cur.units.iter().all(is_heading);
        // A new section ends the chunk only once it is half full: small sections share
        // a chunk (their headings stay visible in the text), so chunks average near
        // 70% of the budget instead of one tiny chunk per short section.
        if (is_heading(u) || u.ctx != last.ctx) && !only_headings && self.cost(cur) * 2 >= self.max
        {
            return true;
        }
        let new_page = u.pages.0 > cur.pages.1;
        if new_page
            && self
                .hard_pages
                .iter()
                .any(|p| cur.pages.1 < *p && *p <= u.pages.0)
        {
            return true;
        }
        new_page && self.cost(cur) * 2 >= self.max
    }

    /// Room for a unit alone in a chunk.
    fn empty_cap(&mut self, u: &Unit) -> usize {
        let fixed = self.info_cost(u.ctx, u.pages) + self.repeat_cost(u) + self.suffix_cost(u);
        self.max.saturating_sub(fixed + MARGIN).max(1)
    }

    /// Packs `units` into drafts.
    pub(crate) fn pack(&mut self, units: Vec<Unit>) -> Vec<Draft> {
        let mut queue: VecDeque<Unit> = units.into();
        let mut out = Vec::new();
        let mut cur = Cur::default();
        while let Some(u) = queue.pop_front() {
            if self.boundary_before(&cur, &u) {
                queue.push_front(u);
                self.seal(&mut cur, &mut queue, &mut out);
                continue;
            }
            if self.cost_with(&cur, &u) <= self.max {
                self.add(&mut cur, u);
                continue;
            }
            let full = self.empty_cap(&u);
            if !cur.units.is_empty() {
                let used = self.cost(&cur);
                let room = self.max.saturating_sub(used + 1 + MARGIN);
                let only_headings = cur.units.iter().all(is_heading);
                let oversized = u.tokens > full;
                if u.split.is_some()
                    && room > 0
                    && (only_headings || (oversized && room * 4 >= self.max))
                {
                    let pieces = split_unit(u, room, full);
                    for p in pieces.into_iter().rev() {
                        queue.push_front(p);
                    }
                    if let Some(head) = queue.pop_front() {
                        if self.cost_with(&cur, &head) <= self.max {
                            self.add(&mut cur, head);
                        } else {
                            queue.push_front(head);
                        }
                    }
                    self.seal(&mut cur, &mut queue, &mut out);
                    continue;
                }
                if u.split.is_none() && oversized && cur.units.iter().all(is_lead) {
                    // Headings (or a table's header) stay with the oversized row they
                    // introduce: the chunk is over budget anyway and says so.
                    self.add(&mut cur, u);
                    self.seal_all(&mut cur, &mut out);
                    continue;
                }
                queue.push_front(u);
                self.seal(&mut cur, &mut queue, &mut out);
                continue;
            }
            if u.split.is_some() {
                let pieces = split_unit(u, full, full);
                if pieces.len() > 1 {
                    for p in pieces.into_iter().rev() {
                        queue.push_front(p);
                    }
                    continue;
                }
                if let Some(p) = pieces.into_iter().next() {
                    self.add(&mut cur, p);
                }
            } else {
                self.add(&mut cur, u);
            }
            self.seal(&mut cur, &mut queue, &mut out);
        }
        self.seal(&mut cur, &mut queue, &mut out);
        // Units moved back by the last seal (rare) are packed on their own.
        if !queue.is_empty() {
            let rest: Vec<Unit> = queue.into_iter().collect();
            out.extend(self.pack(rest));
        }
        out
    }

    /// Seals `cur` as it is (over budget: flagged oversize).
    fn seal_all(&mut self, cur: &mut Cur, out: &mut Vec<Draft>) {
        let units = std::mem::take(&mut cur.units);
        *cur = Cur::default();
        let (draft, tokens) = self.counted(&units);
        let over = tokens > self.max;
        out.push(self.draft(units, draft, tokens, over));
    }

    fn seal(&mut self, cur: &mut Cur, queue: &mut VecDeque<Unit>, out: &mut Vec<Draft>) {
        let mut units = std::mem::take(&mut cur.units);
        *cur = Cur::default();
        // Nothing that introduces what follows (a heading, a table's header) ends a chunk.
        while units.len() > 1
            && !units.iter().all(is_heading)
            && units.last().is_some_and(|u| {
                is_heading(u) || (matches!(u.kind, Kind::TableHead(_)) && u.more_rows)
            })
        {
            if let Some(u) = units.pop() {
                queue.push_front(u);
            }
        }
        while !units.is_empty() {
            let (draft, tokens) = self.counted(&units);
            if tokens <= self.max {
                out.push(self.draft(units, draft, tokens, false));
                return;
            }
            if units.len() > 1 {
                if let Some(u) = units.pop() {
                    queue.push_front(u);
                }
                continue;
            }
            let Some(u) = units.pop() else {
                return;
            };
            if u.split.is_some() {
                let over = tokens - self.max;
                let cap = u.tokens.saturating_sub(over + MARGIN).max(1);
                let rest = self.empty_cap(&u);
                let pieces = split_unit(u, cap, rest.min(cap));
                if pieces.len() > 1 {
                    for p in pieces.into_iter().rev() {
                        queue.push_front(p);
                    }
                    return;
                }
                units = pieces;
            } else {
                units = vec![u];
            }
            let (draft, tokens) = self.counted(&units);
            let over = tokens > self.max;
            out.push(self.draft(units, draft, tokens, over));
            return;
        }
    }

    fn draft(
        &self,
        units: Vec<Unit>,
        (text, starts_in, ends_in): (String, Option<usize>, Option<usize>),
        tokens: usize,
        oversize: bool,
    ) -> Draft {
        let ctx = chunk_ctx(&units);
        let pages = units.iter().fold(None, |acc: Option<(u32, u32)>, u| {
            Some(match acc {
                None => u.pages,
                Some((a, b)) => (a.min(u.pages.0), b.max(u.pages.1)),
            })
        });
        Draft {
            units,
            text,
            tokens,
            starts_in,
            ends_in,
            oversize,
            ctx,
            pages: pages.unwrap_or((1, 1)),
        }
    }

    /// The chunk text of `units`, the tables it starts and ends inside, and its exact
    /// token count from the units' tallies.
    fn counted(&mut self, units: &[Unit]) -> ((String, Option<usize>, Option<usize>), usize) {
        let ctx = chunk_ctx(units);
        let pages = units.iter().fold((u32::MAX, 0), |(a, b), u| {
            (a.min(u.pages.0), b.max(u.pages.1))
        });
        self.info_line(ctx, pages);
        let Some((line, tally)) = self.info_lines.get(&(ctx, pages.0, pages.1)) else {
            return ((String::new(), None, None), 0); // made just above
        };
        let (draft, offsets) = self.assemble(line, units);
        let mut parts = vec![(0, tally)];
        parts.extend(offsets.iter().copied().zip(units.iter().map(|u| &u.tally)));
        let tokens = tokens::count_joined(&draft.0, &parts);
        (draft, tokens)
    }

    /// The chunk text of `units` under the information line `line`, the tables it
    /// starts and ends inside, and the byte offset of each unit's text in it.
    fn assemble(
        &self,
        line: &str,
        units: &[Unit],
    ) -> ((String, Option<usize>, Option<usize>), Vec<usize>) {
        let mut offsets = Vec::with_capacity(units.len());
        let mut text = String::with_capacity(
            line.len() + 2 + units.iter().map(|u| u.text.len() + 2).sum::<usize>(),
        );
        text.push_str(line);
        text.push_str("\n\n");
        let mut starts_in = None;
        if let Some(Kind::TableRow(t)) = units.first().map(|u| u.kind) {
            if let Some(info) = self.tables.get(t) {
                text.push_str(&info.repeat);
                text.push('\n');
            }
            starts_in = Some(t);
        }
        for (i, u) in units.iter().enumerate() {
            if i > 0 {
                text.push_str(if u.line_sep { "\n" } else { "\n\n" });
            }
            offsets.push(text.len());
            text.push_str(&u.text);
        }
        let mut ends_in = None;
        if let Some(last) = units.last() {
            if let Kind::TableHead(t) | Kind::TableRow(t) = last.kind {
                if last.more_rows {
                    ends_in = Some(t);
                    if let Some(info) = self.tables.get(t).filter(|i| !i.close.is_empty()) {
                        text.push('\n');
                        text.push_str(info.close);
                    }
                }
            }
        }
        ((text, starts_in, ends_in), offsets)
    }
}
