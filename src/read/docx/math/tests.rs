//! Office Math to LaTeX, formula by formula: runs and symbols, each OMML structure,
//! the depth limit, unknown elements, Strict namespaces and token splitting.

use super::super::xml::Ev;
use super::tex::atomic;
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
    // A document that does not parse gives no formula, which every caller rejects.
    root_of(&doc)
        .map(|root| convert(&root, max_depth))
        .unwrap_or_default()
}

/// The tree of `doc`'s root element; `None` when `doc` does not start with one.
fn root_of(doc: &str) -> Option<El> {
    let mut x = Xml::new(doc.as_bytes(), "test", 256);
    let Ok(Ev::Start(s)) = x.next() else {
        return None;
    };
    read_tree(&mut x, &s).ok()
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
    let read = root_of(&doc).map(|root| (root.is(Ns::M, "oMath"), convert(&root, 256).0));
    assert_eq!(read, Some((true, vec![("x^{2}".to_string(), false)])));
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
