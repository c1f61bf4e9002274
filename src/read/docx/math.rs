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

use crate::error::ConvertError;
use crate::model::Inline;

use super::ctx::Ctx;
use super::inlines::Inl;
use super::xml::{Ev, Ns, Start, Xml};
use crate::read::symbols::sym_char;

/// One node of the math subtree.
#[derive(Debug)]
enum Node {
    El(El),
    Text(String),
}

/// One element of the math subtree: name, attributes and children.
#[derive(Debug)]
struct El {
    ns: Ns,
    local: String,
    qname: String,
    /// Attributes as (local name, value); math properties use `m:val`.
    attrs: Vec<(String, String)>,
    kids: Vec<Node>,
}

impl El {
    fn from_start(s: &Start<'_>) -> El {
        El {
            ns: s.ns,
            local: s.local.to_string(),
            qname: s.qname.to_string(),
            attrs: s
                .attrs
                .iter()
                .map(|a| (a.local.to_string(), a.value.to_string()))
                .collect(),
            kids: Vec::new(),
        }
    }

    fn is(&self, ns: Ns, local: &str) -> bool {
        self.ns == ns && self.local == local
    }

    fn attr(&self, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == local)
            .map(|(_, v)| v.as_str())
    }

    /// `m:val` (or `w:val`).
    fn val(&self) -> Option<&str> {
        self.attr("val")
    }

    fn elements(&self) -> impl Iterator<Item = &El> {
        self.kids.iter().filter_map(|n| match n {
            Node::El(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// The first `m:local` child.
    fn child(&self, local: &str) -> Option<&El> {
        self.elements().find(|e| e.is(Ns::M, local))
    }

    /// The `m:prop` child of the `m:pr` child (a property of a structure).
    fn prop(&self, pr: &str, prop: &str) -> Option<&El> {
        self.child(pr).and_then(|p| p.child(prop))
    }

    /// The value of property `prop` in `pr`: `None` when absent, `Some("")` when the
    /// element has no `m:val`.
    fn prop_val(&self, pr: &str, prop: &str) -> Option<&str> {
        self.prop(pr, prop).map(|p| p.val().unwrap_or(""))
    }

    /// An ST_OnOff property: absent is off, present without a value is on.
    fn prop_on(&self, pr: &str, prop: &str) -> bool {
        self.prop_val(pr, prop)
            .is_some_and(|v| !matches!(v, "0" | "false" | "off"))
    }

    /// Content children: elements other than property containers.
    fn content(&self) -> impl Iterator<Item = &El> {
        self.elements().filter(|e| !is_property(e))
    }
}

/// Property containers and control properties carry no content.
fn is_property(e: &El) -> bool {
    e.ns == Ns::M && (e.local.ends_with("Pr") || e.local == "ctrlPr" || e.local == "argPr")
}

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

/// Elements dropped while the tree is read (run formatting of WordprocessingML and
/// control properties: they never hold math content).
fn dropped(s: &Start<'_>) -> bool {
    (s.ns == Ns::W && s.local == "rPr") || (s.ns == Ns::M && matches!(s.local, "ctrlPr" | "argPr"))
}

/// Reads the element whose start `s` was just returned into a tree, without recursion.
fn read_tree(x: &mut Xml<'_>, s: &Start<'_>) -> Result<El, ConvertError> {
    let mut stack = vec![El::from_start(s)];
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if dropped(&s) {
                    x.skip()?;
                } else {
                    stack.push(El::from_start(&s));
                }
            }
            Ev::Text(t) => {
                if let Some(top) = stack.last_mut().filter(|e| e.local == "t") {
                    top.kids.push(Node::Text(t.into_owned()));
                }
            }
            Ev::End => {
                let Some(done) = stack.pop() else {
                    return Ok(empty_root(s));
                };
                match stack.last_mut() {
                    Some(parent) => parent.kids.push(Node::El(done)),
                    None => return Ok(done),
                }
            }
            Ev::Eof => {
                while let Some(done) = stack.pop() {
                    match stack.last_mut() {
                        Some(parent) => parent.kids.push(Node::El(done)),
                        None => return Ok(done),
                    }
                }
                return Ok(empty_root(s));
            }
        }
    }
}

fn empty_root(s: &Start<'_>) -> El {
    El::from_start(s)
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

/// The style of a math run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RunStyle {
    /// Normal text (`m:nor`, or a `w:r` inside math).
    text: bool,
    /// Upright (`m:sty` `p` or `b`).
    upright: bool,
    /// Bold (`m:sty` `b` or `bi`).
    bold: bool,
    /// `m:scr` other than roman: the LaTeX font command.
    script: Option<&'static str>,
}

struct Conv {
    max_depth: usize,
    /// Inside an `m:eqArr` row: `&` is an alignment point.
    align: bool,
    unknown: Unknown,
}

impl Conv {
    /// The LaTeX of the content children of `el`, runs of one style merged first.
    fn seq(&mut self, el: &El, depth: usize) -> String {
        let mut out = String::new();
        if depth > self.max_depth {
            cat(&mut out, &math_text(&plain_text(el), false, self.align));
            return out;
        }
        let mut pending: Option<(RunStyle, String)> = None;
        for e in el.content() {
            if let Some(style) = run_style(e) {
                let text = run_text(e);
                match &mut pending {
                    Some((st, buf)) if *st == style => buf.push_str(&text),
                    _ => {
                        if let Some((st, buf)) = pending.take() {
                            cat(&mut out, &styled(&buf, st, self.align));
                        }
                        pending = Some((style, text));
                    }
                }
                continue;
            }
            if let Some((st, buf)) = pending.take() {
                cat(&mut out, &styled(&buf, st, self.align));
            }
            let tex = self.element(e, depth + 1);
            cat(&mut out, &tex);
        }
        if let Some((st, buf)) = pending.take() {
            cat(&mut out, &styled(&buf, st, self.align));
        }
        out
    }

    /// The LaTeX of the `m:local` child of `el` (empty when absent).
    fn arg(&mut self, el: &El, local: &str, depth: usize) -> String {
        match el.child(local) {
            Some(c) => self.seq(c, depth + 1).trim().to_string(),
            None => String::new(),
        }
    }

    /// `arg` in braces when it is more than one token (a base of scripts).
    fn base(&mut self, el: &El, depth: usize) -> String {
        let tex = self.arg(el, "e", depth);
        if tex.is_empty() {
            return "{}".to_string();
        }
        let delimited = el
            .child("e")
            .is_some_and(|e| e.content().count() == 1 && e.content().any(|c| c.is(Ns::M, "d")));
        if delimited || atomic(&tex) {
            tex
        } else {
            format!("{{{tex}}}")
        }
    }

    /// One element other than a run.
    fn element(&mut self, e: &El, depth: usize) -> String {
        if depth > self.max_depth {
            return math_text(&plain_text(e), false, self.align);
        }
        match e.ns {
            Ns::M => self.math_element(e, depth),
            Ns::W => match e.local.as_str() {
                "ins" | "moveTo" | "smartTag" | "customXml" | "sdt" | "sdtContent"
                | "hyperlink" | "fldSimple" | "dir" | "bdo" => self.seq(e, depth),
                "del" | "moveFrom" | "bookmarkStart" | "bookmarkEnd" | "proofErr" | "permStart"
                | "permEnd" | "commentRangeStart" | "commentRangeEnd" | "sdtPr" | "sdtEndPr"
                | "customXmlPr" | "smartTagPr" => String::new(),
                _ => self.unknown(e, depth),
            },
            Ns::MsWord => self.seq(e, depth),
            _ => self.unknown(e, depth),
        }
    }

    fn unknown(&mut self, e: &El, depth: usize) -> String {
        let key = format!("{:?}:{}", e.ns, e.local);
        if !self.unknown.iter().any(|(k, _)| *k == key) {
            let name = if e.qname.is_empty() {
                e.local.clone()
            } else {
                e.qname.clone()
            };
            self.unknown.push((key, name));
        }
        self.seq(e, depth)
    }

    fn math_element(&mut self, e: &El, depth: usize) -> String {
        match e.local.as_str() {
            "oMath" | "e" | "num" | "den" | "sub" | "sup" | "deg" | "lim" | "fName" => {
                self.seq(e, depth)
            }
            "f" => self.fraction(e, depth),
            "sSup" => {
                let base = self.base(e, depth);
                let sup = self.arg(e, "sup", depth);
                format!("{base}^{{{sup}}}")
            }
            "sSub" => {
                let base = self.base(e, depth);
                let sub = self.arg(e, "sub", depth);
                format!("{base}_{{{sub}}}")
            }
            "sSubSup" => {
                let base = self.base(e, depth);
                let sub = self.arg(e, "sub", depth);
                let sup = self.arg(e, "sup", depth);
                format!("{base}_{{{sub}}}^{{{sup}}}")
            }
            "sPre" => {
                let sub = self.arg(e, "sub", depth);
                let sup = self.arg(e, "sup", depth);
                let base = self.base(e, depth);
                format!("{{}}_{{{sub}}}^{{{sup}}}{base}")
            }
            "rad" => {
                let body = self.arg(e, "e", depth);
                let deg = self.arg(e, "deg", depth);
                if deg.is_empty() || e.prop_on("radPr", "degHide") {
                    format!("\\sqrt{{{body}}}")
                } else {
                    format!("\\sqrt[{deg}]{{{body}}}")
                }
            }
            "nary" => self.nary(e, depth),
            "d" => self.delimiters(e, depth),
            "func" => self.func(e, depth),
            "limLow" | "limUpp" => self.limit(e, depth),
            "acc" => {
                let body = self.arg(e, "e", depth);
                let chr = e.prop_val("accPr", "chr").unwrap_or("\u{302}");
                match accent(chr) {
                    Some(cmd) => format!("\\{cmd}{{{body}}}"),
                    None => {
                        let mark = math_text(chr, false, false);
                        format!("\\overset{{{}}}{{{body}}}", mark.trim())
                    }
                }
            }
            "bar" => {
                let body = self.arg(e, "e", depth);
                if e.prop_val("barPr", "pos") == Some("top") {
                    format!("\\overline{{{body}}}")
                } else {
                    format!("\\underline{{{body}}}")
                }
            }
            "groupChr" => self.group_chr(e, depth, None),
            "box" => self.arg(e, "e", depth),
            "borderBox" => {
                let body = self.arg(e, "e", depth);
                format!("\\boxed{{{body}}}")
            }
            "phant" => {
                let body = self.arg(e, "e", depth);
                let show = e
                    .prop_val("phantPr", "show")
                    .is_none_or(|v| !matches!(v, "0" | "false" | "off"));
                if show {
                    body
                } else {
                    format!("\\phantom{{{body}}}")
                }
            }
            "m" => self.matrix(e, depth, "matrix"),
            "eqArr" => {
                let was = self.align;
                self.align = true;
                let rows: Vec<String> = e
                    .content()
                    .filter(|r| r.is(Ns::M, "e"))
                    .map(|r| self.seq(r, depth + 1).trim().to_string())
                    .collect();
                self.align = was;
                format!("\\begin{{aligned}}{}\\end{{aligned}}", rows.join(" \\\\ "))
            }
            "r" => {
                let st = run_style(e).unwrap_or(RunStyle {
                    text: false,
                    upright: false,
                    bold: false,
                    script: None,
                });
                styled(&run_text(e), st, self.align)
            }
            "t" => math_text(&plain_text(e), false, self.align),
            _ => self.unknown(e, depth),
        }
    }

    fn fraction(&mut self, e: &El, depth: usize) -> String {
        let num = self.arg(e, "num", depth);
        let den = self.arg(e, "den", depth);
        match e.prop_val("fPr", "type") {
            Some("lin") | Some("skw") => format!("{}/{}", group(&num), group(&den)),
            Some("noBar") => format!("\\genfrac{{}}{{}}{{0pt}}{{}}{{{num}}}{{{den}}}"),
            _ => format!("\\frac{{{num}}}{{{den}}}"),
        }
    }

    fn nary(&mut self, e: &El, depth: usize) -> String {
        let chr = match e.prop_val("naryPr", "chr") {
            Some(c) if !c.is_empty() => c,
            _ => "\u{222B}",
        };
        let mut out = match nary_op(chr) {
            Some(op) => op.to_string(),
            None => format!("\\mathop{{{}}}", math_text(chr, false, false).trim()),
        };
        let sub = self.arg(e, "sub", depth);
        let sup = self.arg(e, "sup", depth);
        if !sub.is_empty() && !e.prop_on("naryPr", "subHide") {
            out.push_str(&format!("_{{{sub}}}"));
        }
        if !sup.is_empty() && !e.prop_on("naryPr", "supHide") {
            out.push_str(&format!("^{{{sup}}}"));
        }
        let body = self.arg(e, "e", depth);
        cat(&mut out, &body);
        out
    }

    fn delimiters(&mut self, e: &El, depth: usize) -> String {
        let beg = e.prop_val("dPr", "begChr").unwrap_or("(");
        let end = e.prop_val("dPr", "endChr").unwrap_or(")");
        let sep = e.prop_val("dPr", "sepChr").unwrap_or("|");
        let items: Vec<&El> = e.content().filter(|c| c.is(Ns::M, "e")).collect();
        // One matrix in brackets: the bracketed matrix environment.
        if let [only] = items.as_slice() {
            let inner: Vec<&El> = only.content().collect();
            if let [m] = inner.as_slice() {
                if let Some(env) = matrix_env(beg, end).filter(|_| m.is(Ns::M, "m")) {
                    return self.matrix(m, depth + 1, env);
                }
                if m.is(Ns::M, "f")
                    && m.prop_val("fPr", "type") == Some("noBar")
                    && beg == "("
                    && end == ")"
                {
                    let num = self.arg(m, "num", depth + 1);
                    let den = self.arg(m, "den", depth + 1);
                    return format!("\\binom{{{num}}}{{{den}}}");
                }
            }
        }
        let parts: Vec<String> = items
            .iter()
            .map(|i| self.seq(i, depth + 1).trim().to_string())
            .collect();
        // \left ... \right around tall content, or to get a \middle separator.
        let middle = parts.len() > 1 && left_delim(sep).is_some_and(|s| s != ".");
        let grow = middle || parts.iter().any(|p| tall(p));
        let fence = |c: &str| if grow { left_delim(c) } else { None };
        let mut out = String::new();
        match (fence(beg), fence(end)) {
            (Some(b), Some(en)) => {
                cat(&mut out, "\\left");
                cat(&mut out, b);
                let mid = match left_delim(sep) {
                    Some(s) if s != "." => format!("\\middle{s}"),
                    _ => plain_delim(sep),
                };
                for (n, p) in parts.iter().enumerate() {
                    if n > 0 {
                        cat(&mut out, &mid);
                    }
                    cat(&mut out, p);
                }
                cat(&mut out, "\\right");
                cat(&mut out, en);
            }
            _ => {
                cat(&mut out, &plain_delim(beg));
                let mid = plain_delim(sep);
                for (n, p) in parts.iter().enumerate() {
                    if n > 0 {
                        cat(&mut out, &mid);
                    }
                    cat(&mut out, p);
                }
                cat(&mut out, &plain_delim(end));
            }
        }
        out
    }

    fn func(&mut self, e: &El, depth: usize) -> String {
        let mut out = match e.child("fName") {
            Some(f) if f.content().all(|c| c.is(Ns::M, "r")) => {
                let name: String = plain_text(f)
                    .chars()
                    .filter(|c| !c.is_whitespace() && !invisible(*c))
                    .collect();
                if is_function(&name) {
                    format!("\\{name}")
                } else if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphabetic()) {
                    format!("\\operatorname{{{name}}}")
                } else {
                    self.seq(f, depth + 1).trim().to_string()
                }
            }
            Some(f) => self.seq(f, depth + 1).trim().to_string(),
            None => String::new(),
        };
        let body = self.arg(e, "e", depth);
        cat(&mut out, &body);
        out
    }

    fn limit(&mut self, e: &El, depth: usize) -> String {
        let low = e.local == "limLow";
        let lim = self.arg(e, "lim", depth);
        // A brace with a label: \underbrace{...}_{label}.
        if let Some(g) = e.child("e").and_then(|b| {
            let inner: Vec<&El> = b.content().collect();
            match inner.as_slice() {
                [g] if g.is(Ns::M, "groupChr") => Some(*g),
                _ => None,
            }
        }) {
            return self.group_chr(g, depth + 1, Some((low, lim)));
        }
        let base_text: String = e
            .child("e")
            .map(plain_text)
            .unwrap_or_default()
            .chars()
            .filter(|c| !c.is_whitespace() && !invisible(*c))
            .collect();
        let body = self.arg(e, "e", depth);
        if low && is_limit(&base_text) {
            return format!("\\{base_text}_{{{lim}}}");
        }
        let cmd = if low { "underset" } else { "overset" };
        format!("\\{cmd}{{{lim}}}{{{body}}}")
    }

    /// `m:groupChr`; `label` is the limit of an enclosing `m:limLow` (true) or
    /// `m:limUpp` (false).
    fn group_chr(&mut self, e: &El, depth: usize, label: Option<(bool, String)>) -> String {
        let body = self.arg(e, "e", depth);
        let chr = e.prop_val("groupChrPr", "chr").unwrap_or("\u{23DF}");
        let top = match e.prop_val("groupChrPr", "pos") {
            Some(p) => p == "top",
            None => chr == "\u{23DE}",
        };
        let inner = match chr {
            "\u{23DF}" => format!("\\underbrace{{{body}}}"),
            "\u{23DE}" => format!("\\overbrace{{{body}}}"),
            _ => {
                let mark = math_text(chr, false, false);
                let cmd = if top { "overset" } else { "underset" };
                format!("\\{cmd}{{{}}}{{{body}}}", mark.trim())
            }
        };
        match label {
            Some((low, lim)) if !lim.is_empty() => {
                let brace = matches!(chr, "\u{23DF}" | "\u{23DE}");
                if brace && low != top {
                    format!("{inner}{}{{{lim}}}", if low { "_" } else { "^" })
                } else {
                    let cmd = if low { "underset" } else { "overset" };
                    format!("\\{cmd}{{{lim}}}{{{inner}}}")
                }
            }
            _ => inner,
        }
    }

    fn matrix(&mut self, e: &El, depth: usize, env: &str) -> String {
        let was = self.align;
        self.align = false;
        let mut rows = Vec::new();
        for r in e.content().filter(|r| r.is(Ns::M, "mr")) {
            let cells: Vec<String> = r
                .content()
                .filter(|c| c.is(Ns::M, "e"))
                .map(|c| self.seq(c, depth + 2).trim().to_string())
                .collect();
            rows.push(cells.join(" & "));
        }
        self.align = was;
        format!("\\begin{{{env}}}{}\\end{{{env}}}", rows.join(" \\\\ "))
    }
}

/// The style of a run element, or `None` when `e` is not a run.
fn run_style(e: &El) -> Option<RunStyle> {
    if e.is(Ns::W, "r") {
        return Some(RunStyle {
            text: true,
            upright: true,
            bold: false,
            script: None,
        });
    }
    if !e.is(Ns::M, "r") {
        return None;
    }
    let rpr = e.child("rPr");
    let prop = |name: &str| rpr.and_then(|p| p.child(name));
    let sty = prop("sty").and_then(El::val).unwrap_or("i");
    let text = prop("nor").is_some_and(|n| !matches!(n.val(), Some("0" | "false" | "off")));
    let script = match prop("scr").and_then(El::val) {
        Some("script") => Some("mathcal"),
        Some("fraktur") => Some("mathfrak"),
        Some("double-struck") => Some("mathbb"),
        Some("sans-serif") => Some("mathsf"),
        Some("monospace") => Some("mathtt"),
        _ => None,
    };
    Some(RunStyle {
        text,
        upright: matches!(sty, "p" | "b"),
        bold: matches!(sty, "b" | "bi"),
        script,
    })
}

/// The text of a run: `m:t`/`w:t` (and `w:delText`), `w:sym`, tabs as spaces.
fn run_text(e: &El) -> String {
    let mut out = String::new();
    for c in e.elements() {
        match c.local.as_str() {
            "t" | "delText" => out.push_str(&plain_text(c)),
            "sym" if c.ns == Ns::W => {
                if let Some(ch) = c.attr("char").and_then(|h| sym_char(c.attr("font"), h)) {
                    out.push(ch);
                }
            }
            "tab" | "br" | "cr" if c.ns == Ns::W => out.push(' '),
            _ => {}
        }
    }
    out
}

/// All character data under `e` (iteratively, whatever the depth).
fn plain_text(e: &El) -> String {
    let mut out = String::new();
    let mut stack: Vec<std::slice::Iter<'_, Node>> = vec![e.kids.iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            Some(Node::Text(t)) => out.push_str(t),
            Some(Node::El(c)) => {
                if !is_property(c) {
                    stack.push(c.kids.iter());
                }
            }
            None => {
                stack.pop();
            }
        }
    }
    out
}

/// A run's text as LaTeX in its style.
fn styled(text: &str, st: RunStyle, align: bool) -> String {
    if st.text && text.chars().any(char::is_alphabetic) {
        let trimmed = text.trim();
        let mut out = String::from("\\text{");
        for c in trimmed.chars() {
            match c {
                '\\' => out.push_str("\\textbackslash{}"),
                '{' | '}' | '$' | '%' | '#' | '&' | '_' => {
                    out.push('\\');
                    out.push(c);
                }
                '^' => out.push_str("\\^{}"),
                '~' => out.push_str("\\~{}"),
                c if invisible(c) => {}
                c => out.push(c),
            }
        }
        out.push('}');
        return pad(text, out);
    }
    let plain = st.upright && !st.bold && st.script.is_none();
    if !st.bold && st.script.is_none() {
        return math_text(text, plain, align);
    }
    // Font commands go around letters and digits only (`\mathbf{x}+\mathbf{1}`).
    let mut out = String::new();
    let mut seg = String::new();
    let mut seg_alnum = false;
    for c in text.chars().chain(std::iter::once('\0')) {
        let alnum = c.is_alphanumeric();
        if (alnum != seg_alnum || c == '\0') && !seg.is_empty() {
            let core = math_text(&seg, false, align);
            if seg_alnum {
                let mut inner = core.trim().to_string();
                if let Some(cmd) = st.script {
                    inner = format!("\\{cmd}{{{inner}}}");
                }
                if st.bold {
                    inner = format!("\\mathbf{{{inner}}}");
                }
                cat(&mut out, &inner);
            } else {
                cat(&mut out, &core);
            }
            seg.clear();
        }
        seg_alnum = alnum;
        seg.push(c);
    }
    out
}

/// `inner` with one space before / after when `orig` had whitespace there.
fn pad(orig: &str, inner: String) -> String {
    let mut out = String::new();
    if orig.starts_with(char::is_whitespace) {
        out.push(' ');
    }
    out.push_str(&inner);
    if orig.ends_with(char::is_whitespace) {
        out.push(' ');
    }
    out
}

/// Math text as LaTeX: letters grouped into words (function names become commands,
/// upright words `\mathrm`), symbols mapped, specials escaped, whitespace collapsed.
fn math_text(text: &str, upright: bool, align: bool) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut space = false;
    while let Some(&c) = chars.get(i) {
        if c.is_whitespace() {
            space = true;
            i += 1;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        if c.is_ascii_alphabetic() {
            let start = i;
            while chars.get(i).is_some_and(char::is_ascii_alphabetic) {
                i += 1;
            }
            let word: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
            let applied = chars.get(i).is_some_and(|c| *c == '\u{2061}');
            if is_function(&word) && (upright || applied) {
                cat(&mut out, &format!("\\{word}"));
            } else if upright {
                cat(&mut out, &format!("\\mathrm{{{word}}}"));
            } else {
                cat(&mut out, &word);
            }
            continue;
        }
        i += 1;
        let mapped: std::borrow::Cow<'static, str> = match c {
            '{' => "\\{".into(),
            '}' => "\\}".into(),
            '\\' => "\\backslash".into(),
            '%' => "\\%".into(),
            '#' => "\\#".into(),
            '$' => "\\$".into(),
            '&' if !align => "\\&".into(),
            '~' => "\\sim".into(),
            c if invisible(c) => "".into(),
            c => match symbol(c) {
                Some(s) => s.into(),
                None => c.to_string().into(),
            },
        };
        cat(&mut out, &mapped);
    }
    if space && !out.is_empty() {
        out.push(' ');
    }
    out
}

/// Invisible operators and zero-width characters (U+2061..U+2064, U+200B).
fn invisible(c: char) -> bool {
    matches!(c, '\u{2061}'..='\u{2064}' | '\u{200B}' | '\u{FEFF}')
}

/// Appends `s`, with a space when `out` ends in a control word and `s` starts with a
/// letter or digit (`\pi` + `x` is `\pi x`, not `\pix`; `\langle 12` reads better
/// than `\langle12`).
fn cat(out: &mut String, s: &str) {
    if s.is_empty() {
        return;
    }
    if s.starts_with(|c: char| c.is_ascii_alphanumeric()) && ends_with_control_word(out) {
        out.push(' ');
    }
    out.push_str(s);
}

fn ends_with_control_word(s: &str) -> bool {
    let head = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    if head.len() == s.len() {
        return false;
    }
    let slashes = head.len() - head.trim_end_matches('\\').len();
    slashes % 2 == 1
}

/// `s` in braces unless it is one token.
fn group(s: &str) -> String {
    if atomic(s) {
        s.to_string()
    } else {
        format!("{{{s}}}")
    }
}

/// Whether `s` is one LaTeX token: a character, a control sequence with its brace
/// arguments (`\frac{a}{b}`, `\mathbf{x}`), a brace group or a `\left...\right` pair.
fn atomic(s: &str) -> bool {
    !s.is_empty() && first_token(s) == s.len()
}

fn first_token(s: &str) -> usize {
    let Some(c) = s.chars().next() else {
        return 0;
    };
    match c {
        '{' => group_end(s, 0, '{', '}'),
        '\\' => {
            let rest = &s[1..];
            let letters = rest.len()
                - rest
                    .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                    .len();
            if letters == 0 {
                return 1 + rest.chars().next().map_or(0, char::len_utf8);
            }
            let mut at = 1 + letters;
            if &s[1..at] == "left" {
                return left_end(s, at);
            }
            while let Some(next) = s[at..].chars().next() {
                at = match next {
                    '{' => group_end(s, at, '{', '}'),
                    '[' => group_end(s, at, '[', ']'),
                    _ => break,
                };
            }
            at
        }
        c => c.len_utf8(),
    }
}

/// The byte end of the group opened at `from` (or `s.len()` when unclosed).
fn group_end(s: &str, from: usize, open: char, close: char) -> usize {
    let mut level = 0usize;
    let mut chars = s[from..].char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            chars.next();
            continue;
        }
        if c == open {
            level += 1;
        } else if c == close {
            level = level.saturating_sub(1);
            if level == 0 {
                return from + i + c.len_utf8();
            }
        }
    }
    s.len()
}

/// The byte end of the `\left ... \right X` group whose `\left` ends at `from`.
fn left_end(s: &str, from: usize) -> usize {
    let mut level = 1usize;
    let mut at = from;
    while let Some(pos) = s[at..].find('\\') {
        let p = at + pos;
        let rest = &s[p + 1..];
        let letters = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len();
        let word = &rest[..letters];
        if letters == 0 {
            at = p + 1 + rest.chars().next().map_or(0, char::len_utf8);
            continue;
        }
        at = p + 1 + letters;
        if word == "left" {
            level += 1;
        } else if word == "right" {
            level -= 1;
            if level == 0 {
                let tail = &s[at..];
                return at + first_token(tail).min(tail.len());
            }
        }
    }
    s.len()
}

/// Whether `tex` is tall enough to want `\left`/`\right` delimiters.
fn tall(tex: &str) -> bool {
    [
        "\\frac",
        "\\genfrac",
        "\\binom",
        "\\sum",
        "\\prod",
        "\\coprod",
        "\\int",
        "\\iint",
        "\\iiint",
        "\\oint",
        "\\bigcup",
        "\\bigcap",
        "\\bigvee",
        "\\bigwedge",
        "\\bigoplus",
        "\\bigotimes",
        "\\begin{",
        "\\sqrt",
        "\\left",
        "\\underbrace",
        "\\overbrace",
        "\\underset",
        "\\overset",
        "\\lim_",
    ]
    .iter()
    .any(|m| tex.contains(m))
}

/// A delimiter character as LaTeX after `\left` / `\right` (`.` for none); `None`
/// when LaTeX has no such extensible delimiter.
fn left_delim(c: &str) -> Option<&'static str> {
    Some(match c {
        "" => ".",
        "(" => "(",
        ")" => ")",
        "[" => "[",
        "]" => "]",
        "{" => "\\{",
        "}" => "\\}",
        "|" => "|",
        "‖" => "\\|",
        "⟨" | "〈" => "\\langle",
        "⟩" | "〉" => "\\rangle",
        "⌈" => "\\lceil",
        "⌉" => "\\rceil",
        "⌊" => "\\lfloor",
        "⌋" => "\\rfloor",
        "/" => "/",
        "↑" => "\\uparrow",
        "↓" => "\\downarrow",
        "⟦" => "[\\![",
        _ => return None,
    })
}

/// A delimiter character as plain LaTeX (no `\left`).
fn plain_delim(c: &str) -> String {
    match c {
        "" => String::new(),
        "{" => "\\{".into(),
        "}" => "\\}".into(),
        "‖" => "\\|".into(),
        "⟨" | "〈" => "\\langle".into(),
        "⟩" | "〉" => "\\rangle".into(),
        _ => math_text(c, false, false).trim().to_string(),
    }
}

/// The matrix environment for a matrix inside `beg` ... `end`.
fn matrix_env(beg: &str, end: &str) -> Option<&'static str> {
    Some(match (beg, end) {
        ("(", ")") => "pmatrix",
        ("[", "]") => "bmatrix",
        ("{", "}") => "Bmatrix",
        ("|", "|") => "vmatrix",
        ("‖", "‖") => "Vmatrix",
        _ => return None,
    })
}

/// The LaTeX command of an accent mark (`m:acc/m:accPr/m:chr`).
fn accent(chr: &str) -> Option<&'static str> {
    Some(match chr {
        "\u{302}" | "^" | "\u{2C6}" => "hat",
        "\u{303}" | "~" | "\u{2DC}" => "tilde",
        "\u{304}" | "\u{305}" | "\u{AF}" => "bar",
        "\u{307}" | "\u{2D9}" => "dot",
        "\u{308}" | "\u{A8}" => "ddot",
        "\u{20DB}" => "dddot",
        "\u{20D7}" | "\u{2192}" => "vec",
        "\u{301}" | "\u{B4}" => "acute",
        "\u{300}" | "`" => "grave",
        "\u{30C}" | "\u{2C7}" => "check",
        "\u{306}" | "\u{2D8}" => "breve",
        "\u{30A}" | "\u{2DA}" => "mathring",
        "\u{20D6}" | "\u{2190}" => "overleftarrow",
        "\u{20E1}" | "\u{2194}" => "overleftrightarrow",
        _ => return None,
    })
}

/// The LaTeX operator of an n-ary character (`m:nary/m:naryPr/m:chr`).
fn nary_op(chr: &str) -> Option<&'static str> {
    Some(match chr {
        "∑" => "\\sum",
        "∏" => "\\prod",
        "∐" => "\\coprod",
        "∫" => "\\int",
        "∬" => "\\iint",
        "∭" => "\\iiint",
        "∮" => "\\oint",
        "∯" => "\\oiint",
        "∰" => "\\oiiint",
        "⋃" => "\\bigcup",
        "⋂" => "\\bigcap",
        "⋁" => "\\bigvee",
        "⋀" => "\\bigwedge",
        "⨁" => "\\bigoplus",
        "⨂" => "\\bigotimes",
        "⨀" => "\\bigodot",
        "⨄" => "\\biguplus",
        "⨆" => "\\bigsqcup",
        _ => return None,
    })
}

/// Function names LaTeX has as commands (`\sin`, `\log`, ...).
fn is_function(w: &str) -> bool {
    matches!(
        w,
        "sin"
            | "cos"
            | "tan"
            | "cot"
            | "sec"
            | "csc"
            | "arcsin"
            | "arccos"
            | "arctan"
            | "sinh"
            | "cosh"
            | "tanh"
            | "coth"
            | "log"
            | "ln"
            | "lg"
            | "exp"
            | "lim"
            | "liminf"
            | "limsup"
            | "max"
            | "min"
            | "sup"
            | "inf"
            | "det"
            | "dim"
            | "ker"
            | "deg"
            | "gcd"
            | "hom"
            | "arg"
            | "Pr"
    )
}

/// Operators that take limits below (`\lim_{x\to 0}`).
fn is_limit(w: &str) -> bool {
    matches!(
        w,
        "lim" | "liminf" | "limsup" | "max" | "min" | "sup" | "inf" | "det" | "gcd" | "Pr"
    )
}

/// LaTeX for a Greek letter or math symbol; `None` passes the character through.
fn symbol(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "\\alpha",
        'β' => "\\beta",
        'γ' => "\\gamma",
        'δ' => "\\delta",
        'ε' => "\\varepsilon",
        'ϵ' => "\\epsilon",
        'ζ' => "\\zeta",
        'η' => "\\eta",
        'θ' => "\\theta",
        'ϑ' => "\\vartheta",
        'ι' => "\\iota",
        'κ' => "\\kappa",
        'λ' => "\\lambda",
        'μ' => "\\mu",
        'ν' => "\\nu",
        'ξ' => "\\xi",
        'ο' => "o",
        'π' => "\\pi",
        'ϖ' => "\\varpi",
        'ρ' => "\\rho",
        'ϱ' => "\\varrho",
        'σ' => "\\sigma",
        'ς' => "\\varsigma",
        'τ' => "\\tau",
        'υ' => "\\upsilon",
        'φ' => "\\varphi",
        'ϕ' => "\\phi",
        'χ' => "\\chi",
        'ψ' => "\\psi",
        'ω' => "\\omega",
        'Γ' => "\\Gamma",
        'Δ' => "\\Delta",
        'Θ' => "\\Theta",
        'Λ' => "\\Lambda",
        'Ξ' => "\\Xi",
        'Π' => "\\Pi",
        'Σ' => "\\Sigma",
        'Υ' => "\\Upsilon",
        'Φ' => "\\Phi",
        'Ψ' => "\\Psi",
        'Ω' => "\\Omega",
        '∞' => "\\infty",
        '±' => "\\pm",
        '∓' => "\\mp",
        '×' => "\\times",
        '÷' => "\\div",
        '≤' | '⩽' => "\\leq",
        '≥' | '⩾' => "\\geq",
        '≠' => "\\neq",
        '≈' => "\\approx",
        '≡' => "\\equiv",
        '≅' => "\\cong",
        '≃' => "\\simeq",
        '∼' => "\\sim",
        '∝' => "\\propto",
        '≪' => "\\ll",
        '≫' => "\\gg",
        '≺' => "\\prec",
        '≻' => "\\succ",
        '→' => "\\rightarrow",
        '←' => "\\leftarrow",
        '↔' => "\\leftrightarrow",
        '⇒' => "\\Rightarrow",
        '⇐' => "\\Leftarrow",
        '⇔' => "\\Leftrightarrow",
        '⇏' => "\\nRightarrow",
        '↦' => "\\mapsto",
        '↑' => "\\uparrow",
        '↓' => "\\downarrow",
        '∈' => "\\in",
        '∉' => "\\notin",
        '∋' => "\\ni",
        '⊂' => "\\subset",
        '⊃' => "\\supset",
        '⊆' => "\\subseteq",
        '⊇' => "\\supseteq",
        '∪' => "\\cup",
        '∩' => "\\cap",
        '∖' => "\\setminus",
        '∅' => "\\emptyset",
        '∑' => "\\sum",
        '∏' => "\\prod",
        '∐' => "\\coprod",
        '∫' => "\\int",
        '∬' => "\\iint",
        '∭' => "\\iiint",
        '∮' => "\\oint",
        '⋃' => "\\bigcup",
        '⋂' => "\\bigcap",
        '∂' => "\\partial",
        '∇' => "\\nabla",
        '…' => "\\ldots",
        '⋯' => "\\cdots",
        '⋮' => "\\vdots",
        '⋱' => "\\ddots",
        '·' | '⋅' => "\\cdot",
        '∘' => "\\circ",
        '∗' => "\\ast",
        '−' => "-",
        '∃' => "\\exists",
        '∄' => "\\nexists",
        '∀' => "\\forall",
        '¬' => "\\neg",
        '∧' => "\\wedge",
        '∨' => "\\vee",
        '⊕' => "\\oplus",
        '⊗' => "\\otimes",
        '⊙' => "\\odot",
        '⊥' => "\\perp",
        '∥' => "\\parallel",
        '∣' => "\\mid",
        '∠' => "\\angle",
        '°' => "^{\\circ}",
        '′' => "'",
        '″' => "''",
        '‴' => "'''",
        'ℏ' => "\\hbar",
        'ℓ' => "\\ell",
        'ℜ' => "\\Re",
        'ℑ' => "\\Im",
        'ℵ' => "\\aleph",
        '√' => "\\surd",
        '⟨' | '〈' => "\\langle",
        '⟩' | '〉' => "\\rangle",
        '⌈' => "\\lceil",
        '⌉' => "\\rceil",
        '⌊' => "\\lfloor",
        '⌋' => "\\rfloor",
        '∴' => "\\therefore",
        '∵' => "\\because",
        '≜' => "\\triangleq",
        '⊤' => "\\top",
        '†' => "\\dagger",
        '‖' => "\\|",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NS: &str = "xmlns:m=\"http://schemas.openxmlformats.org/officeDocument/2006/math\" \
                      xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"";

    /// The formulas of `<m:oMath>inner</m:oMath>` (or of an `m:oMathPara` when
    /// `inner` starts with one).
    fn conv_all(xml: &str, max_depth: usize) -> (Formulas, Unknown) {
        let doc = if xml.starts_with("<m:oMathPara") {
            xml.replacen("<m:oMathPara", &format!("<m:oMathPara {NS}"), 1)
        } else {
            format!("<m:oMath {NS}>{xml}</m:oMath>")
        };
        let mut x = Xml::new(doc.as_bytes(), "test", 256);
        let Ok(Ev::Start(s)) = x.next() else {
            panic!("no start");
        };
        let root = read_tree(&mut x, &s).unwrap();
        convert(&root, max_depth)
    }

    fn tex(xml: &str) -> String {
        let (f, _) = conv_all(xml, 256);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(!f[0].1);
        f[0].0.clone()
    }

    fn r(t: &str) -> String {
        format!("<m:r><m:t>{t}</m:t></m:r>")
    }

    fn rp(sty: &str, t: &str) -> String {
        format!("<m:r><m:rPr><m:sty m:val=\"{sty}\"/></m:rPr><m:t>{t}</m:t></m:r>")
    }

    fn wrap(name: &str, t: &str) -> String {
        format!("<m:{name}>{t}</m:{name}>")
    }

    #[test]
    fn runs_map_symbols_and_greek() {
        assert_eq!(tex(&r("α+β≤∞")), "\\alpha+\\beta\\leq\\infty");
        assert_eq!(tex(&r("nπx")), "n\\pi x");
        assert_eq!(tex(&r("a−b×c÷d±e")), "a-b\\times c\\div d\\pm e");
        assert_eq!(tex(&r("x≠y≈z")), "x\\neq y\\approx z");
        assert_eq!(tex(&r("A→B⇒C")), "A\\rightarrow B\\Rightarrow C");
        assert_eq!(
            tex(&r("x∈A∉B⊂C∪D∩E")),
            "x\\in A\\notin B\\subset C\\cup D\\cap E"
        );
        assert_eq!(tex(&r("∂f∇g")), "\\partial f\\nabla g");
        assert_eq!(tex(&r("1+…·2")), "1+\\ldots\\cdot 2");
        assert_eq!(tex(&r("∃x∀y")), "\\exists x\\forall y");
        assert_eq!(tex(&r("ΓΔΩΑ")), "\\Gamma\\Delta\\OmegaΑ");
        assert_eq!(tex(&r("ωϵε")), "\\omega\\epsilon\\varepsilon");
        assert_eq!(tex(&r("∑∏∫")), "\\sum\\prod\\int");
        assert_eq!(tex(&r("a{b}%$#&amp;")), "a\\{b\\}\\%\\$\\#\\&");
        assert_eq!(tex(&r("x@y")), "x@y");
    }

    #[test]
    fn plain_and_styled_runs() {
        // Function names: plain style, or followed by U+2061.
        assert_eq!(
            tex(&(rp("p", "cos") + &rp("p", "\u{2061}") + &r("α"))),
            "\\cos\\alpha"
        );
        assert_eq!(tex(&r("sin\u{2061}x")), "\\sin x");
        assert_eq!(tex(&r("sin")), "sin");
        assert_eq!(tex(&rp("p", "abc")), "\\mathrm{abc}");
        assert_eq!(tex(&rp("p", "12")), "12");
        assert_eq!(tex(&rp("b", "1")), "\\mathbf{1}");
        assert_eq!(tex(&rp("bi", "v")), "\\mathbf{v}");
        let scr = |s: &str, t: &str| {
            format!(
                "<m:r><m:rPr><m:scr m:val=\"{s}\"/><m:sty m:val=\"p\"/></m:rPr><m:t>{t}</m:t></m:r>"
            )
        };
        assert_eq!(tex(&scr("script", "L")), "\\mathcal{L}");
        assert_eq!(tex(&scr("double-struck", "R")), "\\mathbb{R}");
        assert_eq!(tex(&scr("fraktur", "g")), "\\mathfrak{g}");
        let nor = "<m:r><m:rPr><m:nor/></m:rPr><m:t>if x_1 &gt; 0</m:t></m:r>";
        assert_eq!(tex(&(r("y=1") + nor)), "y=1\\text{if x\\_1 > 0}");
        let w = "<w:r><w:rPr><w:b/></w:rPr><w:t>where</w:t></w:r>";
        assert_eq!(tex(&(r("x") + w)), "x\\text{where}");
        // Properties and control properties carry no text.
        let ctrl = "<m:ctrlPr><w:rPr><w:i/></w:rPr></m:ctrlPr>";
        assert_eq!(tex(&(r("x") + ctrl)), "x");
    }

    #[test]
    fn fractions() {
        let f = |pr: &str| {
            format!(
                "<m:f>{pr}<m:num>{}</m:num><m:den>{}</m:den></m:f>",
                r("nπx"),
                r("L")
            )
        };
        assert_eq!(tex(&f("")), "\\frac{n\\pi x}{L}");
        assert_eq!(
            tex(&f("<m:fPr><m:type m:val=\"bar\"/></m:fPr>")),
            "\\frac{n\\pi x}{L}"
        );
        assert_eq!(
            tex(&f("<m:fPr><m:type m:val=\"lin\"/></m:fPr>")),
            "{n\\pi x}/L"
        );
        assert_eq!(
            tex(&f("<m:fPr><m:type m:val=\"noBar\"/></m:fPr>")),
            "\\genfrac{}{}{0pt}{}{n\\pi x}{L}"
        );
    }

    #[test]
    fn scripts() {
        let e = |t: &str| wrap("e", &r(t));
        assert_eq!(
            tex(&wrap("sSup", &(e("x") + &wrap("sup", &r("2"))))),
            "x^{2}"
        );
        assert_eq!(
            tex(&wrap("sSub", &(e("a") + &wrap("sub", &r("n"))))),
            "a_{n}"
        );
        assert_eq!(
            tex(&wrap("sSup", &(e("ab") + &wrap("sup", &r("n-k"))))),
            "{ab}^{n-k}"
        );
        assert_eq!(
            tex(&wrap(
                "sSubSup",
                &(e("x") + &wrap("sub", &r("i")) + &wrap("sup", &r("2")))
            )),
            "x_{i}^{2}"
        );
        assert_eq!(
            tex(&wrap(
                "sPre",
                &(wrap("sub", &r("1")) + &wrap("sup", &r("2")) + &e("X"))
            )),
            "{}_{1}^{2}X"
        );
        // A delimited base takes no braces.
        let d = wrap("d", &e("x+a"));
        assert_eq!(
            tex(&wrap("sSup", &(wrap("e", &d) + &wrap("sup", &r("n"))))),
            "(x+a)^{n}"
        );
    }

    #[test]
    fn radicals() {
        let e = wrap("e", &r("x"));
        assert_eq!(tex(&wrap("rad", &e)), "\\sqrt{x}");
        let deg = wrap("deg", &r("3"));
        assert_eq!(tex(&wrap("rad", &(deg.clone() + &e))), "\\sqrt[3]{x}");
        let hide = "<m:radPr><m:degHide m:val=\"1\"/></m:radPr>";
        assert_eq!(
            tex(&wrap("rad", &(hide.to_string() + &deg + &e))),
            "\\sqrt{x}"
        );
        assert_eq!(tex(&wrap("rad", &(wrap("deg", "") + &e))), "\\sqrt{x}");
    }

    #[test]
    fn nary_operators() {
        let body = wrap("sub", &r("n=1")) + &wrap("sup", &r("∞")) + &wrap("e", &r("a"));
        let sum = format!("<m:nary><m:naryPr><m:chr m:val=\"∑\"/></m:naryPr>{body}</m:nary>");
        assert_eq!(tex(&sum), "\\sum_{n=1}^{\\infty}a");
        // Default character: the integral.
        let int = format!(
            "<m:nary>{}{}{}</m:nary>",
            wrap("sub", &r("0")),
            wrap("sup", &r("1")),
            wrap("e", &r("f(x)dx"))
        );
        assert_eq!(tex(&int), "\\int_{0}^{1}f(x)dx");
        for (c, op) in [
            ("∏", "\\prod"),
            ("∬", "\\iint"),
            ("∮", "\\oint"),
            ("⋃", "\\bigcup"),
            ("⋂", "\\bigcap"),
        ] {
            let n = format!(
                "<m:nary><m:naryPr><m:chr m:val=\"{c}\"/><m:subHide m:val=\"1\"/><m:supHide/></m:naryPr><m:sub/><m:sup/>{}</m:nary>",
                wrap("e", &r("A"))
            );
            assert_eq!(tex(&n), format!("{op} A"));
        }
    }

    #[test]
    fn delimiters() {
        assert_eq!(tex(&wrap("d", &wrap("e", &r("x")))), "(x)");
        let angle = "<m:dPr><m:begChr m:val=\"⟨\"/><m:endChr m:val=\"⟩\"/></m:dPr>";
        assert_eq!(
            tex(&wrap(
                "d",
                &(angle.to_string() + &wrap("e", &r("a")) + &wrap("e", &r("b")))
            )),
            "\\left\\langle a\\middle|b\\right\\rangle"
        );
        let frac = format!(
            "<m:f><m:num>{}</m:num><m:den>{}</m:den></m:f>",
            r("1"),
            r("2")
        );
        assert_eq!(
            tex(&wrap("d", &(wrap("e", &frac) + &wrap("e", &r("y"))))),
            "\\left(\\frac{1}{2}\\middle|y\\right)"
        );
        let brackets = "<m:dPr><m:begChr m:val=\"[\"/><m:endChr m:val=\"\"/></m:dPr>";
        assert_eq!(
            tex(&wrap("d", &(brackets.to_string() + &wrap("e", &frac)))),
            "\\left[\\frac{1}{2}\\right."
        );
        let set =
            "<m:dPr><m:begChr m:val=\"{\"/><m:endChr m:val=\"}\"/><m:sepChr m:val=\",\"/></m:dPr>";
        assert_eq!(
            tex(&wrap(
                "d",
                &(set.to_string() + &wrap("e", &r("a")) + &wrap("e", &r("b")))
            )),
            "\\{a,b\\}"
        );
        // A bar-less fraction in parentheses is a binomial coefficient.
        let binom = format!(
            "<m:f><m:fPr><m:type m:val=\"noBar\"/></m:fPr><m:num>{}</m:num><m:den>{}</m:den></m:f>",
            r("n"),
            r("k")
        );
        assert_eq!(tex(&wrap("d", &wrap("e", &binom))), "\\binom{n}{k}");
    }

    #[test]
    fn functions_and_limits() {
        let f = format!(
            "<m:func><m:fName>{}</m:fName><m:e>{}</m:e></m:func>",
            rp("p", "sin"),
            r("x")
        );
        assert_eq!(tex(&f), "\\sin x");
        let f = format!(
            "<m:func><m:fName>{}</m:fName><m:e>{}</m:e></m:func>",
            rp("p", "sgn"),
            r("x")
        );
        assert_eq!(tex(&f), "\\operatorname{sgn}x");
        let lim = format!(
            "<m:func><m:fName><m:limLow><m:e>{}</m:e><m:lim>{}</m:lim></m:limLow></m:fName><m:e>{}</m:e></m:func>",
            rp("p", "lim"),
            r("x→0"),
            r("f(x)")
        );
        assert_eq!(tex(&lim), "\\lim_{x\\rightarrow 0}f(x)");
        let under = format!(
            "<m:limLow><m:e>{}</m:e><m:lim>{}</m:lim></m:limLow>",
            r("a"),
            r("b")
        );
        assert_eq!(tex(&under), "\\underset{b}{a}");
        let over = format!(
            "<m:limUpp><m:e>{}</m:e><m:lim>{}</m:lim></m:limUpp>",
            r("a"),
            r("def")
        );
        assert_eq!(tex(&over), "\\overset{def}{a}");
    }

    #[test]
    fn accents_bars_groups_boxes() {
        let acc = |chr: &str| {
            let pr = if chr.is_empty() {
                String::new()
            } else {
                format!("<m:accPr><m:chr m:val=\"{chr}\"/></m:accPr>")
            };
            tex(&format!("<m:acc>{pr}<m:e>{}</m:e></m:acc>", r("x")))
        };
        assert_eq!(acc(""), "\\hat{x}");
        assert_eq!(acc("\u{303}"), "\\tilde{x}");
        assert_eq!(acc("\u{304}"), "\\bar{x}");
        assert_eq!(acc("\u{307}"), "\\dot{x}");
        assert_eq!(acc("\u{20D7}"), "\\vec{x}");
        let e = wrap("e", &r("AB"));
        assert_eq!(tex(&wrap("bar", &e)), "\\underline{AB}");
        let top = "<m:barPr><m:pos m:val=\"top\"/></m:barPr>";
        assert_eq!(tex(&wrap("bar", &(top.to_string() + &e))), "\\overline{AB}");
        assert_eq!(tex(&wrap("groupChr", &e)), "\\underbrace{AB}");
        let over = "<m:groupChrPr><m:chr m:val=\"⏞\"/><m:pos m:val=\"top\"/></m:groupChrPr>";
        assert_eq!(
            tex(&wrap("groupChr", &(over.to_string() + &e))),
            "\\overbrace{AB}"
        );
        let labelled = format!(
            "<m:limLow><m:e>{}</m:e><m:lim>{}</m:lim></m:limLow>",
            wrap("groupChr", &e),
            r("n")
        );
        assert_eq!(tex(&labelled), "\\underbrace{AB}_{n}");
        assert_eq!(tex(&wrap("box", &e)), "AB");
        assert_eq!(tex(&wrap("borderBox", &e)), "\\boxed{AB}");
    }

    #[test]
    fn matrices_and_arrays() {
        let cell = |t: &str| wrap("e", &r(t));
        let m = format!(
            "<m:m><m:mPr><m:mcs><m:mc><m:mcPr><m:count m:val=\"2\"/></m:mcPr></m:mc></m:mcs></m:mPr><m:mr>{}{}</m:mr><m:mr>{}{}</m:mr></m:m>",
            cell("a"),
            cell("b"),
            cell("c"),
            cell("d")
        );
        assert_eq!(tex(&m), "\\begin{matrix}a & b \\\\ c & d\\end{matrix}");
        let brackets = "<m:dPr><m:begChr m:val=\"[\"/><m:endChr m:val=\"]\"/></m:dPr>";
        assert_eq!(
            tex(&wrap("d", &(brackets.to_string() + &wrap("e", &m)))),
            "\\begin{bmatrix}a & b \\\\ c & d\\end{bmatrix}"
        );
        let arr = format!(
            "<m:eqArr>{}{}</m:eqArr>",
            cell("x&amp;=1"),
            cell("y&amp;=2")
        );
        assert_eq!(tex(&arr), "\\begin{aligned}x&=1 \\\\ y&=2\\end{aligned}");
    }

    #[test]
    fn display_paragraphs_and_unknown_elements() {
        let para = format!(
            "<m:oMathPara><m:oMathParaPr><m:jc m:val=\"center\"/></m:oMathParaPr><m:oMath>{}</m:oMath><m:oMath>{}</m:oMath></m:oMathPara>",
            r("a=1"),
            r("b=2")
        );
        let (f, unknown) = conv_all(&para, 256);
        assert_eq!(
            f,
            vec![("a=1".to_string(), true), ("b=2".to_string(), true)]
        );
        assert!(unknown.is_empty());
        // An unknown element keeps its text and is reported once.
        let odd = format!(
            "<m:future>{}</m:future><m:future>{}</m:future>",
            r("x"),
            r("y")
        );
        let (f, unknown) = conv_all(&odd, 256);
        assert_eq!(f, vec![("xy".to_string(), false)]);
        assert_eq!(unknown.len(), 1);
        assert_eq!(unknown[0].1, "m:future");
        // Tracked changes: insertions kept, deletions dropped.
        let rev = format!("<w:ins>{}</w:ins><w:del>{}</w:del>", r("1"), r("2"));
        assert_eq!(tex(&rev), "1");
    }

    #[test]
    fn depth_limit_keeps_text() {
        let mut xml = r("z");
        for _ in 0..20 {
            xml = wrap("sSup", &(wrap("e", &xml) + &wrap("sup", &r("2"))));
        }
        let (f, _) = conv_all(&xml, 8);
        assert_eq!(f.len(), 1);
        assert!(f[0].0.contains('z'), "{}", f[0].0);
        let (f, _) = conv_all(&xml, 256);
        assert!(f[0].0.starts_with("{{{"), "{}", f[0].0);
    }

    #[test]
    fn strict_namespace() {
        let doc = format!(
            "<m:oMath xmlns:m=\"http://purl.oclc.org/ooxml/officeDocument/math\">{}</m:oMath>",
            wrap("sSup", &(wrap("e", &r("x")) + &wrap("sup", &r("2"))))
        );
        let mut x = Xml::new(doc.as_bytes(), "test", 256);
        let Ok(Ev::Start(s)) = x.next() else {
            panic!("no start");
        };
        assert!(s.is(Ns::M, "oMath"));
        let root = read_tree(&mut x, &s).unwrap();
        assert_eq!(convert(&root, 256).0, vec![("x^{2}".to_string(), false)]);
    }

    #[test]
    fn tokens() {
        assert!(atomic("x"));
        assert!(atomic("\\alpha"));
        assert!(atomic("\\frac{a}{b}"));
        assert!(atomic("\\left(a\\right)"));
        assert!(atomic("\\left(\\left[a\\right]\\right\\rangle"));
        assert!(!atomic("\\left(a\\right)b"));
        assert!(!atomic("ab"));
        assert!(!atomic("\\sum_{n}"));
    }
}
