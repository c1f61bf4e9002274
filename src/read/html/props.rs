//! Document properties from the head: `<title>` (the first one, HTML Standard 4.2.2)
//! and `<meta name=... content=...>` (4.2.5: `author`, `description`, `keywords`, plus
//! the Dublin Core names `dc.title`, `dc.creator`, `dc.subject`, `dcterms.created`,
//! `dcterms.modified` that publishing tools write), with Open Graph `og:title` and
//! `og:description` as fallbacks.

use super::dom::{collapse, get};
use crate::model::Properties;

/// Properties being collected.
#[derive(Default)]
pub(super) struct Props {
    p: Properties,
    og_title: Option<String>,
    og_description: Option<String>,
}

fn set(slot: &mut Option<String>, v: &str) {
    let v = collapse(v);
    if slot.is_none() && !v.is_empty() {
        *slot = Some(v);
    }
}

impl Props {
    /// A `<title>` element's text.
    pub fn title(&mut self, text: &str) {
        set(&mut self.p.title, text);
    }

    /// A `<meta>` element's attributes.
    pub fn meta(&mut self, attrs: &[(String, String)]) {
        let Some(content) = get(attrs, "content") else {
            return;
        };
        let name = get(attrs, "name")
            .or_else(|| get(attrs, "property"))
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let p = &mut self.p;
        match name.as_str() {
            "author" | "dc.creator" | "dcterms.creator" => set(&mut p.author, content),
            "description" | "dc.description" | "dcterms.description" => {
                set(&mut p.description, content)
            }
            "keywords" => set(&mut p.keywords, content),
            "subject" | "dc.subject" | "dcterms.subject" => set(&mut p.subject, content),
            "dc.title" | "dcterms.title" => set(&mut self.og_title, content),
            "dcterms.created" | "dc.date.created" | "created" => set(&mut p.created, content),
            "dcterms.modified" | "dc.date.modified" | "last-modified" | "revised" => {
                set(&mut p.modified, content)
            }
            "og:title" | "twitter:title" => set(&mut self.og_title, content),
            "og:description" | "twitter:description" => set(&mut self.og_description, content),
            _ => {}
        }
    }

    /// Word's `<o:DocumentProperties>` block, which Word writes inside a conditional
    /// comment (`<!--[if gte mso 9]><xml>...`): author, title, subject, keywords,
    /// description, created and last-saved times.
    pub fn word_comment(&mut self, comment: &str) {
        if !comment.contains("<o:DocumentProperties>") {
            return;
        }
        let field = |tag: &str| -> Option<String> {
            let open = format!("<o:{tag}>");
            let close = format!("</o:{tag}>");
            let start = comment.find(&open)? + open.len();
            let len = comment.get(start..)?.find(&close)?;
            let v = comment.get(start..start + len)?;
            Some(decode_basic_entities(v))
        };
        let p = &mut self.p;
        for (tag, slot) in [
            ("Author", &mut p.author),
            ("Title", &mut p.title),
            ("Subject", &mut p.subject),
            ("Keywords", &mut p.keywords),
            ("Description", &mut p.description),
            ("Created", &mut p.created),
            ("LastSaved", &mut p.modified),
        ] {
            if let Some(v) = field(tag) {
                set(slot, &v);
            }
        }
    }

    /// The collected properties.
    pub fn finish(mut self) -> Properties {
        if self.p.title.is_none() {
            self.p.title = self.og_title;
        }
        if self.p.description.is_none() {
            self.p.description = self.og_description;
        }
        self.p
    }
}

/// The five XML entities (the Word XML island is not parsed as HTML).
fn decode_basic_entities(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}
