//! Excerpts: a chunk's information line and its chosen units, in text order, as the
//! context shows them. Units of one table or list stay on consecutive lines; a
//! skipped stretch between blocks is marked with [`GAP`] so the reader knows text was
//! left out. A chunk whose units are (nearly) all chosen is sent whole.

use std::collections::BTreeSet;

use super::units::ChunkUnits;

/// The line standing for left-out blocks inside an excerpt.
pub const GAP: &str = "…";

/// A chunk is sent whole when its chosen units hold at least this share of its unit
/// tokens.
pub const WHOLE_SHARE: f64 = 0.9;

/// The excerpt of `text` (one chunk, split as `units`) holding the units `chosen`
/// (indices into `units.units`), and whether it is the whole chunk. `tokens` are the
/// units' token counts.
pub fn excerpt(
    text: &str,
    units: &ChunkUnits,
    tokens: &[usize],
    chosen: &BTreeSet<usize>,
) -> (String, bool) {
    let all: usize = tokens.iter().sum();
    let got: usize = chosen.iter().filter_map(|&i| tokens.get(i)).sum();
    if chosen.len() == units.units.len() || (all > 0 && got as f64 >= all as f64 * WHOLE_SHARE) {
        return (text.to_string(), true);
    }
    let mut out = String::with_capacity(text.len() / 2);
    out.push_str(&text[..units.info]);
    let mut prev: Option<usize> = None;
    for &i in chosen {
        let Some(u) = units.units.get(i) else {
            continue;
        };
        // Headings left out before this unit that still head it: the reader needs
        // them to know which section the unit is in (the information line names only
        // where the chunk starts, and a gap may cross into the next section).
        let from = prev.map_or(0, |p| p + 1);
        let heads = open_headings(text, units, from, i);
        match prev {
            None => {
                if !out.is_empty() {
                    out.push_str("\n\n");
                }
            }
            Some(p) => {
                let same_block = units.units[p].block == u.block;
                if same_block {
                    out.push('\n');
                } else if i > p + 1 && units.units[p + 1..i].iter().any(|x| x.block != u.block) {
                    out.push_str("\n\n");
                    out.push_str(GAP);
                    out.push_str("\n\n");
                } else {
                    out.push_str("\n\n");
                }
            }
        }
        for h in heads {
            out.push_str(&text[units.units[h].start..units.units[h].end]);
            out.push_str("\n\n");
        }
        out.push_str(&text[u.start..u.end]);
        prev = Some(i);
    }
    (out, false)
}

/// Of the heading units in `from..to`, those still open at unit `to`: walking back,
/// each heading of a level above all those already kept (its parents), in text order.
fn open_headings(text: &str, units: &ChunkUnits, from: usize, to: usize) -> Vec<usize> {
    let mut kept = Vec::new();
    let mut above = usize::MAX;
    for k in (from..to.min(units.units.len())).rev() {
        let x = &units.units[k];
        if x.kind != super::units::UnitKind::Heading {
            continue;
        }
        let level = super::units::level(&text[x.start..x.end]);
        if level > 0 && level < above {
            kept.push(k);
            above = level;
        }
    }
    kept.reverse();
    kept
}

#[cfg(test)]
mod tests {
    use super::super::units::split;
    use super::*;

    #[test]
    fn rows_keep_their_header_and_gaps_are_marked() {
        let t =
            "[Document: D]\n\nIntro.\n\nMiddle.\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |";
        let u = split(t);
        let tokens = vec![3; u.units.len()];
        let chosen: BTreeSet<usize> = [0, 2, 4].into_iter().collect();
        let (e, whole) = excerpt(t, &u, &tokens, &chosen);
        assert!(!whole);
        assert_eq!(
            e,
            "[Document: D]\n\nIntro.\n\n…\n\n| A | B |\n| --- | --- |\n| 3 | 4 |"
        );
        let every: BTreeSet<usize> = (0..u.units.len()).collect();
        assert_eq!(excerpt(t, &u, &tokens, &every), (t.to_string(), true));
    }

    #[test]
    fn a_gap_into_another_section_keeps_that_section_s_headings() {
        let t = "[Document: D | Section: A]\n\nIn A.\n\nMore of A.\n\n## B\n\nIn B.\n\n### B1\n\nSkipped.\n\n## C\n\n### C1\n\nIn C1.";
        let u = split(t);
        let tokens = vec![3; u.units.len()];
        // "In A." and "In C1.": "## B" and "### B1" are closed by "## C".
        let chosen: BTreeSet<usize> = [0, 8].into_iter().collect();
        let (e, _) = excerpt(t, &u, &tokens, &chosen);
        assert_eq!(
            e,
            "[Document: D | Section: A]\n\nIn A.\n\n…\n\n## C\n\n### C1\n\nIn C1."
        );
    }
}
