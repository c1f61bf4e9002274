//! Filling the token budget: the best units first, each with what makes it readable
//! (its chunk's information line, a table row's header rows and caption, a note with
//! its anchor sentence and back, a comment with its marked text, the tracked changes
//! next to a change), skipping a unit whose completion does not fit.
//!
//! Completion beyond one unit follows the question: every row of a table and every
//! item of a list it hits when it asks for all of them, the rest of the section when
//! it asks about a section. A broad question takes each document's best unit before
//! any document's second. Units scoring below [`FLOOR`] of the best are never taken,
//! so a question with one clear answer spends a fraction of the budget and one that
//! nothing answers spends little.

use std::collections::{BTreeMap, BTreeSet};

use super::analyze::Analysis;
use super::pool::{Place, Pool, chunk_text};
use super::section;
use super::units::UnitKind;
use crate::query::collection::Collection;

/// Units scoring below this share of the best unit's score are not evidence.
pub const FLOOR: f64 = 0.15;
/// Broad questions read further down each document's ranking.
pub const BROAD_FLOOR: f64 = 0.12;
/// A pointed question reads at most this many documents...
pub const FOCUS_DOCS: usize = 3;
/// ...each with a unit scoring at least this share of the best.
pub const FOCUS_SHARE: f64 = 0.6;
/// A paragraph ending in `:` brings what it introduces (the blocks up to the next
/// heading), up to this many tokens (three times as many when the question asks for
/// all of it).
const INTRODUCED_TOKENS: usize = 400;

/// Most words of a line that labels the list right under it.
const LABEL_WORDS: usize = 8;
/// A caption (the paragraph before a table) is at most this many tokens.
const CAPTION_TOKENS: usize = 80;
/// Tracked changes next to a chosen one, taken on each side.
const REVISION_NEIGHBOURS: usize = 4;
/// Units that mark or hold one comment, at most.
const COMMENT_UNITS: usize = 6;
/// Chunks searched back for the start of a table that continues into a chunk.
const TABLE_LOOKBACK: usize = 12;

/// Words that open a statement resting on what was just said.
const LEANING: &[&str] = &[
    "since",
    "therefore",
    "thus",
    "hence",
    "so",
    "consequently",
    "accordingly",
    "this",
    "these",
    "it",
];
/// Units before a leaning statement taken with it, at most...
const LEAN_UNITS: usize = 3;
/// ...and their tokens together.
const LEAN_TOKENS: usize = 60;

/// Whether paragraph `text` opens with a word of [`LEANING`] (after Markdown
/// emphasis), so it cannot be read without what precedes it.
fn leans_back(text: &str) -> bool {
    let t = text.trim_start_matches(['*', '_', ' ', '>']);
    let word: String = t
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    LEANING.contains(&word.as_str())
}

/// A unit: chunk key `(doc position, seq)` and unit index.
pub type UnitRef = ((usize, usize), usize);

/// What the budget bought.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picked {
    /// Chosen units per chunk.
    pub units: BTreeMap<(usize, usize), BTreeSet<usize>>,
    /// Units chosen for their own score.
    pub primary: BTreeSet<UnitRef>,
    /// Tokens of units chosen for their score, with their chunks' information lines.
    pub retrieval_tokens: usize,
    /// Tokens of units added to complete others.
    pub completion_tokens: usize,
    /// The best unit's score (0 when nothing scored).
    pub best: f64,
}

struct Filler<'a> {
    c: &'a Collection,
    pool: &'a mut Pool,
    budget: usize,
    used: usize,
    out: Picked,
}

/// Fills `budget` tokens from `pool` for a question analysed as `a`.
pub fn fill(c: &Collection, pool: &mut Pool, a: &Analysis, budget: usize) -> Picked {
    let mut ranked: Vec<(f64, UnitRef)> = Vec::new();
    for (&key, cand) in &pool.cands {
        for (i, &s) in cand.scores.iter().enumerate() {
            if s > 0.0 {
                ranked.push((s, (key, i)));
            }
        }
    }
    crate::order::sort_by(&mut ranked, |x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let best = ranked.first().map_or(0.0, |r| r.0);
    let floor = best * if a.broad { BROAD_FLOOR } else { FLOOR };
    ranked.retain(|r| r.0 >= floor);
    if !a.broad {
        // A pointed question is answered in a few documents: those whose best unit,
        // weighed by their retrieval mass ([`Pool::retrieval_share`]), comes near
        // the strongest.
        let mut doc_best: BTreeMap<usize, f64> = BTreeMap::new();
        for &(s, ((d, _), _)) in &ranked {
            let e = doc_best.entry(d).or_insert(0.0);
            *e = e.max(s);
        }
        let mut docs: Vec<(usize, f64)> = doc_best
            .into_iter()
            .map(|(d, s)| (d, s * (0.5 + 0.5 * pool.retrieval_share(d))))
            .collect();
        crate::order::sort_by(&mut docs, |x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        let strongest = docs.first().map_or(0.0, |x| x.1);
        let mut keep: BTreeSet<usize> = docs
            .iter()
            .take(FOCUS_DOCS)
            .filter(|x| x.1 >= strongest * FOCUS_SHARE)
            .map(|x| x.0)
            .collect();
        // A document the question names (title, file name, language) is read
        // whatever its neighbours weigh.
        keep.extend(pool.named.iter().copied());
        ranked.retain(|r| keep.contains(&r.1.0.0));
    }
    if a.broad {
        // Each document's nth unit before any document's (n+1)th. A broad question
        // that names its documents ("summarize the harbour report") is about them:
        // their units come before any other document's.
        let mut nth: BTreeMap<usize, usize> = BTreeMap::new();
        let mut keyed: Vec<(bool, usize, f64, UnitRef)> = ranked
            .iter()
            .map(|&(s, u)| {
                let n = nth.entry(u.0.0).or_insert(0);
                *n += 1;
                (!pool.named.contains(&u.0.0), *n, s, u)
            })
            .collect();
        crate::order::sort_by(&mut keyed, |x, y| {
            x.0.cmp(&y.0)
                .then(x.1.cmp(&y.1))
                .then(y.2.total_cmp(&x.2))
                .then(x.3.cmp(&y.3))
        });
        ranked = keyed.into_iter().map(|(_, _, s, u)| (s, u)).collect();
    }
    let mut f = Filler {
        c,
        pool,
        budget,
        used: 0,
        out: Picked {
            best,
            ..Picked::default()
        },
    };
    // A section the question names by its heading (or, for "what does the section
    // on ... say", the section of the best unit) comes first.
    let heading = section::named_heading(c, f.pool, a).or_else(|| {
        a.section
            .then(|| ranked.first().map(|r| r.1))
            .flatten()
            .and_then(|u| section::enclosing_heading(c, f.pool, u))
    });
    if let Some(h) = heading {
        f.take_section(h, a);
    }
    for &(_, u) in &ranked {
        if f.budget.saturating_sub(f.used) < 8 {
            break;
        }
        if f.has(u) {
            continue;
        }
        let mut needs = vec![u];
        f.closure(u, a, &mut needs);
        if !f.take(&needs, true) {
            continue;
        }
        // "Every row" of a table or list; in "which documents ..., what is each
        // about" it is every document, unless the question names a table.
        if a.wants_all && (!a.documents || a.table) {
            f.complete_all(u);
        }
    }
    f.out
}

impl Filler<'_> {
    fn has(&self, (key, i): UnitRef) -> bool {
        self.out.units.get(&key).is_some_and(|s| s.contains(&i))
    }

    /// Takes `needs` when all of them fit; the first is primary when `primary`.
    fn take(&mut self, needs: &[UnitRef], primary: bool) -> bool {
        let mut cost = 0usize;
        let mut new_chunks = BTreeSet::new();
        let mut seen = BTreeSet::new();
        for &(key, i) in needs {
            if self.has((key, i)) || !seen.insert((key, i)) {
                continue;
            }
            let Some(cand) = self.pool.cands.get(&key) else {
                continue;
            };
            cost += cand.unit_tokens.get(i).copied().unwrap_or(0);
            if !self.out.units.contains_key(&key) && new_chunks.insert(key) {
                cost += cand.info_tokens;
            }
        }
        if cost == 0 {
            return true;
        }
        if self.used + cost > self.budget {
            return false;
        }
        self.used += cost;
        let mut first_cost = 0usize;
        for (n, &(key, i)) in needs.iter().enumerate() {
            if self.has((key, i)) {
                continue;
            }
            if n == 0 && primary {
                if let Some(cand) = self.pool.cands.get(&key) {
                    first_cost = cand.unit_tokens.get(i).copied().unwrap_or(0)
                        + if new_chunks.contains(&key) {
                            cand.info_tokens
                        } else {
                            0
                        };
                }
                self.out.primary.insert((key, i));
            }
            self.out.units.entry(key).or_default().insert(i);
        }
        self.out.retrieval_tokens += first_cost;
        self.out.completion_tokens += cost - first_cost;
        true
    }

    /// What unit `u` needs to be read: table header rows and caption, a table's
    /// closing tag, a heading's first paragraph, notes, comments, adjacent changes.
    fn closure(&mut self, u: UnitRef, a: &Analysis, needs: &mut Vec<UnitRef>) {
        let (key, i) = u;
        let Some(cand) = self.pool.cands.get(&key) else {
            return;
        };
        let units = cand.units.units.clone();
        let unit_tokens = cand.unit_tokens.clone();
        let Some(unit) = units.get(i) else { return };
        match unit.kind {
            UnitKind::TableRow | UnitKind::TableEnd | UnitKind::TableHead => {
                let head = unit.head.unwrap_or(i);
                if head != i {
                    needs.push((key, head));
                }
                if let Some(end) = units
                    .iter()
                    .position(|x| x.block == unit.block && x.kind == UnitKind::TableEnd)
                {
                    needs.push((key, end));
                }
                if let Some(cap) = self.caption(key, head) {
                    needs.push(cap);
                }
                // In a two-column (key | value) table such as an infobox, the rows
                // next to a hit often answer the rest of the question; a row with an
                // empty key cell has no label of its own and is read with the rows
                // around it (a value split over two rows, a glyph row above its codes).
                let row = self.text(key, unit.start, unit.end);
                let unlabelled = super::pool::first_cell(row)
                    .trim_matches(|c: char| c.is_whitespace() || c == '*' || c == '_')
                    .is_empty();
                if unit.kind == UnitKind::TableRow
                    && (unlabelled || self.cells(key, unit.start, unit.end) == 2)
                {
                    for j in [i.wrapping_sub(1), i + 1] {
                        if units
                            .get(j)
                            .is_some_and(|x| x.kind == UnitKind::TableRow && x.block == unit.block)
                        {
                            needs.push((key, j));
                        }
                    }
                }
            }
            UnitKind::Heading => {
                if i + 1 < units.len() {
                    needs.push((key, i + 1));
                }
            }
            _ => {}
        }
        // The headings above it in its chunk that still head it: the information line
        // names only the section the chunk starts in, and an excerpt may skip into
        // the next one; a reader needs them to know where the unit stands.
        if let Some(text) = chunk_text(self.c, key.0, key.1)
            && let Some(cand) = self.pool.cands.get(&key)
        {
            for h in super::units::open_headings(text, &cand.units, 0, i) {
                needs.push((key, h));
            }
        }
        let text = self.text(key, unit.start, unit.end).to_string();
        // A short line right above a list is that list's label ("Basics" over a list
        // of samples), as a lead-in ending in ':' is: both introduce what follows.
        let label = unit.kind == UnitKind::Text
            && text.split_whitespace().count() <= LABEL_WORDS
            && units
                .get(i + 1)
                .is_some_and(|x| x.kind == UnitKind::ListItem);
        if matches!(unit.kind, UnitKind::Text | UnitKind::Heading)
            && (text.trim_end().ends_with(':') || label)
        {
            // What follows up to the next heading, within a cap (three times as
            // much when the question asks for all of it).
            let cap = INTRODUCED_TOKENS * if a.wants_all { 3 } else { 1 };
            let mut spent = 0usize;
            for (j, x) in units.iter().enumerate().skip(i + 1) {
                if x.kind == UnitKind::Heading || (label && x.kind != UnitKind::ListItem) {
                    break;
                }
                let t = unit_tokens.get(j).copied().unwrap_or(0);
                if spent + t > cap {
                    break;
                }
                spent += t;
                needs.push((key, j));
            }
        }
        if unit.kind == UnitKind::Text && leans_back(&text) {
            // "Since F > 4.2 ...", "Therefore ...": the short lines right
            // before (the values it concludes from) are part of the statement.
            let mut spent = 0usize;
            for j in (i.saturating_sub(LEAN_UNITS)..i).rev() {
                let t = unit_tokens.get(j).copied().unwrap_or(usize::MAX);
                if units[j].kind != UnitKind::Text || spent + t > LEAN_TOKENS {
                    break;
                }
                spent += t;
                needs.push((key, j));
            }
        }
        self.notes(key.0, &text, needs);
        if a.comments || text.contains("<comment ") || text.contains("<mark comment=") {
            self.comments(key.0, &text, needs);
        }
        if text.contains("<ins ") || text.contains("<del ") {
            self.revisions(key, i, needs);
        }
    }

    /// The number of cells of the table row at `start..end` of chunk `key`.
    fn cells(&self, key: (usize, usize), start: usize, end: usize) -> usize {
        let t = self.text(key, start, end);
        if t.starts_with("<tr") {
            t.matches("<td").count() + t.matches("<th").count()
        } else {
            t.trim().trim_matches('|').split('|').count()
        }
    }

    fn text(&self, (d, seq): (usize, usize), start: usize, end: usize) -> &str {
        chunk_text(self.c, d, seq)
            .and_then(|t| t.get(start..end))
            .unwrap_or("")
    }

    /// The paragraph right before the table whose head is `(key, head)`, looked for
    /// in earlier chunks when the table started there.
    fn caption(&mut self, key: (usize, usize), head: usize) -> Option<UnitRef> {
        let (d, seq) = key;
        let continues = |c: &Collection, s: usize| {
            c.documents()
                .get(d)
                .and_then(|x| x.chunks.get(s))
                .is_some_and(|ch| ch.metadata.get_str("startsInTable") == Some("yes"))
        };
        let mut at = (key, head);
        if head == 0 && continues(self.c, seq) {
            let mut s = seq;
            let mut steps = 0;
            while s > 0 && steps < TABLE_LOOKBACK {
                s -= 1;
                steps += 1;
                let cand = self.pool.ensure(self.c, d, s)?;
                let last_head = cand
                    .units
                    .units
                    .iter()
                    .rposition(|x| x.kind == UnitKind::TableHead);
                let starts_here = !continues(self.c, s) || last_head.is_some_and(|h| h > 0);
                if let (Some(h), true) = (last_head, starts_here) {
                    at = ((d, s), h);
                    break;
                }
            }
        }
        let ((ck, ci), cand) = (at, self.pool.cands.get(&at.0)?);
        if ci == 0 {
            return None;
        }
        let prev = cand.units.units.get(ci - 1)?;
        let small = cand
            .unit_tokens
            .get(ci - 1)
            .is_some_and(|&t| t <= CAPTION_TOKENS);
        (matches!(prev.kind, UnitKind::Text | UnitKind::Heading) && small).then_some((ck, ci - 1))
    }

    /// The note a unit references (`[^ID]`), or the body unit that references the
    /// note a unit holds (`[^ID]: `).
    fn notes(&mut self, d: usize, text: &str, needs: &mut Vec<UnitRef>) {
        let mut rest = text;
        let mut found = Vec::new();
        while let Some(p) = rest.find("[^") {
            let after = &rest[p + 2..];
            let Some(q) = after.find(']') else { break };
            let id = &after[..q];
            if !id.is_empty() && id.len() <= 12 && !id.contains(char::is_whitespace) {
                let is_def = after[q + 1..].starts_with(':');
                found.push((format!("[^{id}]"), is_def));
            }
            rest = &after[q..];
        }
        for (marker, is_def) in found.into_iter().take(4) {
            let def = format!("{marker}:");
            let want: Box<dyn Fn(&str) -> bool> = if is_def {
                Box::new(|t: &str| t.contains(&marker) && !t.starts_with(&def))
            } else {
                Box::new(|t: &str| t.starts_with(&def))
            };
            if let Some(u) = self.find_unit(d, &marker, |p| (p == Place::Notes) != is_def, &*want) {
                needs.push(u);
            }
        }
    }

    /// The first unit of document `d` whose chunk's text holds `probe`, whose place
    /// passes `place_ok` and whose own text passes `want`.
    fn find_unit(
        &mut self,
        d: usize,
        probe: &str,
        place_ok: impl Fn(Place) -> bool,
        want: &dyn Fn(&str) -> bool,
    ) -> Option<UnitRef> {
        let n = self.c.documents().get(d)?.chunks.len();
        for seq in 0..n {
            let holds = self.c.documents()[d].chunks[seq].text.contains(probe);
            if !holds {
                continue;
            }
            let cand = self.pool.ensure(self.c, d, seq)?;
            if !place_ok(cand.place) {
                continue;
            }
            let text = &self.c.documents()[d].chunks[seq].text;
            if let Some(i) = cand
                .units
                .units
                .iter()
                .position(|u| want(&text[u.start..u.end]))
            {
                return Some(((d, seq), i));
            }
        }
        None
    }

    /// The units that mark or hold the comments a unit marks or holds.
    fn comments(&mut self, d: usize, text: &str, needs: &mut Vec<UnitRef>) {
        let mut ids: Vec<String> = Vec::new();
        for pat in ["<comment id=\"", "<mark comment=\"", "reply-to=\""] {
            let mut rest = text;
            while let Some(p) = rest.find(pat) {
                let after = &rest[p + pat.len()..];
                let Some(q) = after.find('"') else { break };
                ids.extend(after[..q].split_whitespace().map(str::to_string));
                rest = &after[q..];
            }
        }
        crate::order::sort(&mut ids);
        ids.dedup();
        let mut added = 0usize;
        for id in ids.iter().take(4) {
            let probe = format!("comment id=\"{id}\"");
            let holds = |t: &str| {
                t.contains(&probe)
                    || t.match_indices("<mark comment=\"").any(|(p, m)| {
                        let after = &t[p + m.len()..];
                        after
                            .split('"')
                            .next()
                            .is_some_and(|v| v.split_whitespace().any(|x| x == id))
                    })
            };
            let Some(doc) = self.c.documents().get(d) else {
                return;
            };
            for seq in 0..doc.chunks.len() {
                if added >= COMMENT_UNITS {
                    return;
                }
                if !holds(&doc.chunks[seq].text) {
                    continue;
                }
                let Some(cand) = self.pool.ensure(self.c, d, seq) else {
                    continue;
                };
                let text = &doc.chunks[seq].text;
                for (i, u) in cand.units.units.iter().enumerate() {
                    if added < COMMENT_UNITS && holds(&text[u.start..u.end]) {
                        needs.push(((d, seq), i));
                        added += 1;
                    }
                }
            }
        }
    }

    /// The tracked changes right before and after unit `i` of chunk `key`.
    fn revisions(&mut self, key: (usize, usize), i: usize, needs: &mut Vec<UnitRef>) {
        let Some(cand) = self.pool.cands.get(&key) else {
            return;
        };
        let units = cand.units.units.clone();
        let changed = |j: usize| {
            let u = &units[j];
            let t = self.text(key, u.start, u.end);
            t.contains("<ins ") || t.contains("<del ")
        };
        let mut j = i;
        let mut n = 0;
        while j > 0 && n < REVISION_NEIGHBOURS && changed(j - 1) {
            j -= 1;
            n += 1;
            needs.push((key, j));
        }
        let (mut j, mut n) = (i, 0);
        while j + 1 < units.len() && n < REVISION_NEIGHBOURS && changed(j + 1) {
            j += 1;
            n += 1;
            needs.push((key, j));
        }
    }

    /// Every row of the table (or item of the list) unit `u` is in, in this chunk and
    /// the chunks the table continues into, while the budget lasts.
    fn complete_all(&mut self, u: UnitRef) {
        let (key, i) = u;
        let Some(cand) = self.pool.cands.get(&key) else {
            return;
        };
        let Some(unit) = cand.units.units.get(i).cloned() else {
            return;
        };
        let (d, seq) = key;
        let table = matches!(
            unit.kind,
            UnitKind::TableRow | UnitKind::TableHead | UnitKind::TableEnd
        );
        if !table && unit.kind != UnitKind::ListItem {
            return;
        }
        let block: Vec<usize> = (0..cand.units.units.len())
            .filter(|&j| cand.units.units[j].block == unit.block)
            .collect();
        for j in block {
            if !self.take(&[(key, j)], false) {
                return;
            }
        }
        if !table {
            return;
        }
        // Later chunks that open with the same table.
        let mut s = seq + 1;
        loop {
            let continues = self
                .c
                .documents()
                .get(d)
                .and_then(|x| x.chunks.get(s))
                .is_some_and(|ch| ch.metadata.get_str("startsInTable") == Some("yes"));
            if !continues {
                return;
            }
            let Some(next) = self.pool.ensure(self.c, d, s) else {
                return;
            };
            let first_block = next.units.units.first().map(|x| x.block);
            let idx: Vec<usize> = (0..next.units.units.len())
                .filter(|&j| Some(next.units.units[j].block) == first_block)
                .collect();
            let whole = idx.len() == next.units.units.len();
            for j in idx {
                if !self.take(&[((d, s), j)], false) {
                    return;
                }
            }
            if !whole {
                return;
            }
            s += 1;
        }
    }

    /// The section headed by `heading`: whole when it fits; otherwise the heading
    /// and the section's best units (each with what it needs), within the whole
    /// budget when the question says "section" or "chapter" and half of it when only
    /// the heading names the section.
    fn take_section(&mut self, heading: UnitRef, a: &Analysis) {
        let units = section::section_units(self.c, self.pool, heading);
        if self.take(&units, true) {
            return;
        }
        let budget = self.budget;
        if !a.section {
            self.budget = self.used + self.budget.saturating_sub(self.used) / 2;
        }
        // Best first; document order among equals.
        let mut order: Vec<(f64, usize, UnitRef)> = units
            .iter()
            .enumerate()
            .map(|(n, &u)| (self.pool.score_of(u), n, u))
            .collect();
        crate::order::sort_by(&mut order, |x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let mut needs = vec![heading];
        self.closure(heading, a, &mut needs);
        self.take(&needs, true);
        for (_, _, u) in order {
            if self.has(u) {
                continue;
            }
            let mut needs = vec![u];
            self.closure(u, a, &mut needs);
            self.take(&needs, false);
        }
        self.budget = budget;
    }
}

#[cfg(test)]
mod tests {
    use super::leans_back;

    #[test]
    fn statements_that_rest_on_what_precedes() {
        assert!(leans_back("Since F > 4.2 the effect is real."));
        assert!(leans_back("**Therefore** the diet worked."));
        assert!(leans_back("This is the estimated probability."));
        assert!(!leans_back("Twelve people took the placebo."));
        assert!(!leans_back("Sincerely yours,"));
        assert!(!leans_back(""));
    }
}
