//! The structures of OMML (ECMA-376 Part 1, 22.1.2) written as LaTeX: fractions,
//! scripts, radicals, n-ary operators, delimiters, functions, limits, accents, group
//! characters, boxes, matrices and equation arrays.

use super::Unknown;
use super::latex_names::{
    accent, is_function, is_limit, left_delim, matrix_env, nary_op, plain_delim,
};
use super::runs::{RunStyle, invisible, math_text, plain_text, run_style, run_text, styled};
use super::tex::{atomic, cat, group, tall};
use super::tree::El;

use super::super::xml::Ns;

pub(super) struct Conv {
    pub(super) max_depth: usize,
    /// Inside an `m:eqArr` row: `&` is an alignment point.
    pub(super) align: bool,
    pub(super) unknown: Unknown,
}

impl Conv {
    /// The LaTeX of the content children of `el`, runs of one style merged first.
    pub(super) fn seq(&mut self, el: &El, depth: usize) -> String {
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
    pub(super) fn arg(&mut self, el: &El, local: &str, depth: usize) -> String {
        match el.child(local) {
            Some(c) => self.seq(c, depth + 1).trim().to_string(),
            None => String::new(),
        }
    }

    /// `arg` in braces when it is more than one token (a base of scripts).
    pub(super) fn base(&mut self, el: &El, depth: usize) -> String {
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
    pub(super) fn element(&mut self, e: &El, depth: usize) -> String {
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

    pub(super) fn unknown(&mut self, e: &El, depth: usize) -> String {
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

    pub(super) fn math_element(&mut self, e: &El, depth: usize) -> String {
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

    pub(super) fn fraction(&mut self, e: &El, depth: usize) -> String {
        let num = self.arg(e, "num", depth);
        let den = self.arg(e, "den", depth);
        match e.prop_val("fPr", "type") {
            Some("lin") | Some("skw") => format!("{}/{}", group(&num), group(&den)),
            Some("noBar") => format!("\\genfrac{{}}{{}}{{0pt}}{{}}{{{num}}}{{{den}}}"),
            _ => format!("\\frac{{{num}}}{{{den}}}"),
        }
    }

    pub(super) fn nary(&mut self, e: &El, depth: usize) -> String {
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

    pub(super) fn delimiters(&mut self, e: &El, depth: usize) -> String {
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

    pub(super) fn func(&mut self, e: &El, depth: usize) -> String {
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

    pub(super) fn limit(&mut self, e: &El, depth: usize) -> String {
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
    pub(super) fn group_chr(
        &mut self,
        e: &El,
        depth: usize,
        label: Option<(bool, String)>,
    ) -> String {
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

    pub(super) fn matrix(&mut self, e: &El, depth: usize, env: &str) -> String {
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
