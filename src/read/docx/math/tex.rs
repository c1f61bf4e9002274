//! Helpers on LaTeX strings: joining with control words, grouping, where a token or
//! group ends, and whether content is tall enough for `\left`/`\right`.

/// Appends `s`, with a space when `out` ends in a control word and `s` starts with a
/// letter or digit (`\pi` + `x` is `\pi x`, not `\pix`; `\langle 12` reads better
/// than `\langle12`).
pub(super) fn cat(out: &mut String, s: &str) {
    if s.is_empty() {
        return;
    }
    if s.starts_with(|c: char| c.is_ascii_alphanumeric()) && ends_with_control_word(out) {
        out.push(' ');
    }
    out.push_str(s);
}

pub(super) fn ends_with_control_word(s: &str) -> bool {
    let head = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    if head.len() == s.len() {
        return false;
    }
    let slashes = head.len() - head.trim_end_matches('\\').len();
    slashes % 2 == 1
}

/// `s` in braces unless it is one token.
pub(super) fn group(s: &str) -> String {
    if atomic(s) {
        s.to_string()
    } else {
        format!("{{{s}}}")
    }
}

/// Whether `s` is one LaTeX token: a character, a control sequence with its brace
/// arguments (`\frac{a}{b}`, `\mathbf{x}`), a brace group or a `\left...\right` pair.
pub(super) fn atomic(s: &str) -> bool {
    !s.is_empty() && first_token(s) == s.len()
}

pub(super) fn first_token(s: &str) -> usize {
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
pub(super) fn group_end(s: &str, from: usize, open: char, close: char) -> usize {
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
pub(super) fn left_end(s: &str, from: usize) -> usize {
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
pub(super) fn tall(tex: &str) -> bool {
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
