//! Office Math (ECMA-376 Part 1, 22.1, OMML) to LaTeX.
//!
//! An `m:oMath` (a formula in running text) becomes one [`Inline::Math`]; each
//! `m:oMath` of an `m:oMathPara` (a math paragraph) becomes a display one. The formula
//! is first read into a small owned tree (only that subtree; the XML layer already
//! bounds its depth), then written out as LaTeX without delimiters:
//!
//! * runs (`m:r/m:t`, and `w:r/w:t` inside math): Greek letters and common operators
//!   become LaTeX commands (`α` -> `\alpha`, `≤` -> `\leq`, `∞` -> `\infty`), other
//!   characters pass through; LaTeX's special characters are escaped. `m:sty` bold ->
//!   `\mathbf`, plain multi-letter words -> `\mathrm` (or `\cos`, ... for function
//!   names, also when an italic name is followed by U+2061 FUNCTION APPLICATION);
//!   `m:scr` script / fraktur / double-struck / sans-serif / monospace -> `\mathcal`,
//!   `\mathfrak`, `\mathbb`, `\mathsf`, `\mathtt`; normal text (`m:nor`, `w:r`) ->
//!   `\text{...}`.
//! * structures: `m:f` (`\frac`, linear `a/b`, no-bar `\genfrac`), `m:sSup`, `m:sSub`,
//!   `m:sSubSup`, `m:sPre`, `m:rad` (`\sqrt[n]{...}`), `m:nary` (`\sum`, `\int`, ...
//!   with limits), `m:d` (delimiters; `\left`/`\right` only around tall content,
//!   `\binom` and `pmatrix`-like environments where they fit), `m:func`, `m:limLow`,
//!   `m:limUpp`, `m:acc`, `m:bar`, `m:groupChr`, `m:box`, `m:borderBox`, `m:phant`,
//!   `m:m` (`matrix`), `m:eqArr` (`aligned`, `&` in its rows are alignment points).
//! * property elements (`m:*Pr`, `m:ctrlPr`, `m:argPr`) are read where they matter and
//!   ignored elsewhere; an unknown element is read for its children (no text is lost)
//!   with one `unknown-element` warning per name. Tracked deletions inside math are
//!   dropped (LaTeX cannot mark them), insertions kept.
//!
//! The output depends only on the input (no platform behaviour), so native and wasm
//! builds agree.
//!
//! Layout: `tree.rs` (XML to an owned tree), `conv.rs` (structures), `runs.rs` (runs
//! and their text), `tex.rs` (LaTeX string helpers), `latex_names.rs` (character and
//! operator names).

mod conv;
mod latex_names;
mod runs;
mod tex;
mod tree;

use crate::error::ConvertError;
use crate::model::Inline;

use super::ctx::Ctx;
use super::inlines::Inl;
use super::xml::{Ns, Start, Xml};
use conv::Conv;
use tree::{El, read_tree};

/// Reads an `m:oMath` or `m:oMathPara` whose start `s` was just returned and pushes
/// its formulas as [`Inline::Math`] (nothing when `hidden`).
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_math(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    s: &Start<'_>,
    inl: &mut Inl,
    hidden: bool,
) -> Result<(), ConvertError> {
    let root = read_tree(x, s)?;
    let (formulas, unknown) = convert(&root, cx.limits.max_depth);
    for (key, name) in unknown {
        let msg = format!(
            "unknown math element {name} in {} was read for its content only",
            cx.part
        );
        cx.warn_once(&format!("math:{key}"), "unknown-element", msg);
    }
    if hidden {
        return Ok(());
    }
    for (tex, display) in formulas {
        inl.push(Inline::Math { tex, display });
    }
    Ok(())
}

/// Formulas as (LaTeX, display).
type Formulas = Vec<(String, bool)>;

/// Unknown elements met, as (key, qualified name).
type Unknown = Vec<(String, String)>;

/// Converts an `m:oMath` / `m:oMathPara` tree: its formulas and the unknown elements
/// met.
fn convert(root: &El, max_depth: usize) -> (Formulas, Unknown) {
    let mut c = Conv {
        max_depth,
        align: false,
        unknown: Vec::new(),
    };
    let mut out = Vec::new();
    if root.is(Ns::M, "oMathPara") {
        for e in root.content() {
            let tex = if e.is(Ns::M, "oMath") {
                c.seq(e, 1)
            } else {
                c.element(e, 1)
            };
            let tex = tex.trim();
            if !tex.is_empty() {
                out.push((tex.to_string(), true));
            }
        }
    } else {
        let tex = c.seq(root, 1);
        let tex = tex.trim();
        if !tex.is_empty() {
            out.push((tex.to_string(), false));
        }
    }
    (out, c.unknown)
}

#[cfg(test)]
mod tests;
