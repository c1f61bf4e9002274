//! Unicode characters and OMML operator characters with their LaTeX names: delimiters,
//! matrix environments, accents, n-ary operators, function and limit names, symbols.

use super::runs::math_text;

/// A delimiter character as LaTeX after `\left` / `\right` (`.` for none); `None`
/// when LaTeX has no such extensible delimiter.
pub(super) fn left_delim(c: &str) -> Option<&'static str> {
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
pub(super) fn plain_delim(c: &str) -> String {
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
pub(super) fn matrix_env(beg: &str, end: &str) -> Option<&'static str> {
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
pub(super) fn accent(chr: &str) -> Option<&'static str> {
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
pub(super) fn nary_op(chr: &str) -> Option<&'static str> {
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
pub(super) fn is_function(w: &str) -> bool {
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
pub(super) fn is_limit(w: &str) -> bool {
    matches!(
        w,
        "lim" | "liminf" | "limsup" | "max" | "min" | "sup" | "inf" | "det" | "gcd" | "Pr"
    )
}

/// LaTeX for a Greek letter or math symbol; `None` passes the character through.
pub(super) fn symbol(c: char) -> Option<&'static str> {
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
