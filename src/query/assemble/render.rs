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
        out.push_str(&text[u.start..u.end]);
        prev = Some(i);
    }
    (out, false)
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
}
