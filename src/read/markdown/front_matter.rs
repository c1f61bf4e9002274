//! Document properties written at the top of a Markdown file: a YAML front-matter
//! block (`---` ... `---` or `...`, as Jekyll, Hugo and pandoc write it) or a pandoc
//! title block (`% title`, `% authors`, `% date`; pandoc manual, "Metadata blocks").
//!
//! Only the start of the file counts, so a thematic break later in the text is never
//! taken for metadata. The YAML subset read is the one front matter uses: `key: value`
//! scalars (plain or quoted), inline lists `[a, b]`, block lists of `- item`, and
//! block scalars `|`/`>`. Other keys are ignored; the block never appears as text.

use crate::model::Properties;

/// Splits the properties block off the start of `text`; returns the properties and
/// the rest of the text.
pub(super) fn split(text: &str) -> (Properties, &str) {
    if let Some(found) = yaml(text) {
        return found;
    }
    if let Some(found) = pandoc_title_block(text) {
        return found;
    }
    (Properties::default(), text)
}

/// Lines of `text` (without line ends) with the byte offsets of their start and of
/// just past their line end.
fn lines_with_end(text: &str) -> impl Iterator<Item = (&str, usize, usize)> {
    let mut pos = 0;
    text.split_inclusive('\n').map(move |l| {
        let start = pos;
        pos += l.len();
        (l.trim_end_matches(['\n', '\r']), start, pos)
    })
}

fn yaml(text: &str) -> Option<(Properties, &str)> {
    let mut lines = lines_with_end(text);
    let (first, _, _) = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let mut body = Vec::new();
    for (line, _, end) in lines {
        let t = line.trim_end();
        if t == "---" || t == "..." {
            if body.first().is_none_or(|l: &&str| l.trim().is_empty()) {
                return None;
            }
            return Some((parse_yaml(&body), &text[end..]));
        }
        body.push(line);
    }
    None
}

/// Reads the supported YAML subset into properties.
fn parse_yaml(lines: &[&str]) -> Properties {
    let mut props = Properties::default();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        // Continuation lines: indented, or `- item` list entries.
        let mut more = Vec::new();
        while i < lines.len() && (lines[i].starts_with([' ', '\t']) || lines[i].starts_with('-')) {
            more.push(lines[i].trim());
            i += 1;
        }
        let text = if value.is_empty() || value.starts_with(['|', '>']) {
            let items: Vec<String> = more
                .iter()
                .filter(|l| !l.is_empty())
                .map(|l| {
                    let l = l.strip_prefix("- ").unwrap_or(l);
                    let l = l.strip_prefix("name:").unwrap_or(l);
                    unquote(l.trim())
                })
                .collect();
            let sep = if value.starts_with(['|', '>']) {
                " "
            } else {
                "; "
            };
            items.join(sep)
        } else if let Some(list) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            list.split(',')
                .map(|s| unquote(s.trim()))
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            unquote(value)
        };
        if text.is_empty() {
            continue;
        }
        let slot = match key.trim().to_ascii_lowercase().as_str() {
            "title" => &mut props.title,
            "author" | "authors" | "creator" => &mut props.author,
            "description" | "abstract" | "summary" => &mut props.description,
            "subject" => &mut props.subject,
            "keywords" | "tags" => &mut props.keywords,
            "date" | "created" => &mut props.created,
            "modified" | "updated" | "lastmod" => &mut props.modified,
            _ => continue,
        };
        if slot.is_none() {
            *slot = Some(text);
        }
    }
    props
}

/// A YAML scalar without its quotes (`''` in single quotes is one quote; `\"` in
/// double quotes is one quote).
fn unquote(s: &str) -> String {
    if let Some(inner) = s.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        inner.replace("\\\"", "\"")
    } else if let Some(inner) = s.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        inner.replace("''", "'")
    } else {
        s.to_string()
    }
}

/// `% title`, `% author; author`, `% date` lines at the very start; continuation lines
/// begin with a space.
fn pandoc_title_block(text: &str) -> Option<(Properties, &str)> {
    if !text.starts_with('%') {
        return None;
    }
    let mut fields: Vec<String> = Vec::new();
    let mut rest_at = text.len();
    for (line, start, _) in lines_with_end(text) {
        match line.strip_prefix('%') {
            Some(f) if fields.len() < 3 => fields.push(f.trim().to_string()),
            None if line.starts_with(' ') && !line.trim().is_empty() => {
                if let Some(last) = fields.last_mut() {
                    last.push(' ');
                    last.push_str(line.trim());
                }
            }
            _ => {
                rest_at = start;
                break;
            }
        }
    }
    let mut props = Properties::default();
    let nonempty = |s: &String| (!s.is_empty()).then(|| s.clone());
    props.title = fields.first().and_then(nonempty);
    props.author = fields.get(1).and_then(nonempty).map(|a| {
        a.split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("; ")
    });
    props.created = fields.get(2).and_then(nonempty);
    Some((props, text.get(rest_at..).unwrap_or("")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_front_matter() {
        let (p, rest) = split(
            "---\ntitle: \"A: B\"\nauthor:\n  - Ann\n  - Bob\ndescription: >\n  one\n  two\ntags: [x, y]\n---\n# Body\n",
        );
        assert_eq!(p.title.as_deref(), Some("A: B"));
        assert_eq!(p.author.as_deref(), Some("Ann; Bob"));
        assert_eq!(p.description.as_deref(), Some("one two"));
        assert_eq!(p.keywords.as_deref(), Some("x; y"));
        assert_eq!(rest, "# Body\n");
    }

    #[test]
    fn not_front_matter() {
        let text = "---\n\ntext\n---\n";
        assert_eq!(split(text).1, text);
        assert_eq!(split("para\n---\nx: y\n---\n").1, "para\n---\nx: y\n---\n");
    }

    #[test]
    fn pandoc_title() {
        let (p, rest) = split("% Pandoc Test Suite\n% John; Anon\n% July 17, 2006\n\nBody\n");
        assert_eq!(p.title.as_deref(), Some("Pandoc Test Suite"));
        assert_eq!(p.author.as_deref(), Some("John; Anon"));
        assert_eq!(p.created.as_deref(), Some("July 17, 2006"));
        assert_eq!(rest, "\nBody\n");
    }
}
