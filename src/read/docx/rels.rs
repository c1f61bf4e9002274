//! Relationship parts (ECMA-376 Part 2, 9.3): `_rels/.rels` for the package and
//! `<dir>/_rels/<name>.rels` for a part.
//!
//! Relationship types are compared by their last path segment(s), so the Transitional
//! (`http://schemas.openxmlformats.org/officeDocument/2006/relationships/...`) and
//! Strict (`http://purl.oclc.org/ooxml/officeDocument/relationships/...`) URIs of the
//! same relationship match alike.

use std::collections::HashMap;

use crate::error::ConvertError;

use super::package::{Package, PartError};
use super::xml::{Ev, Ns, Xml};

/// One relationship.
#[derive(Debug, Clone)]
pub(crate) struct Rel {
    /// `Type`, as written.
    pub kind: String,
    /// The target: a resolved part name for internal targets, the raw URI for
    /// external ones.
    pub target: String,
    /// `TargetMode="External"`.
    pub external: bool,
}

impl Rel {
    /// True when the relationship type ends with `/<suffix>`.
    pub(crate) fn is(&self, suffix: &str) -> bool {
        self.kind
            .rsplit_once('/')
            .is_some_and(|(_, last)| last.eq_ignore_ascii_case(suffix))
    }
}

/// The relationships of one source part, by id, in file order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rels {
    list: Vec<(String, Rel)>,
    by_id: HashMap<String, usize>,
}

impl Rels {
    /// The relationship with id `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&Rel> {
        self.by_id
            .get(id)
            .and_then(|&i| self.list.get(i))
            .map(|(_, r)| r)
    }

    /// The first relationship whose type ends with `/<suffix>`.
    pub(crate) fn first(&self, suffix: &str) -> Option<&Rel> {
        self.list.iter().map(|(_, r)| r).find(|r| r.is(suffix))
    }

    /// Reads the relationships of `source` (`""` for the package). A missing or
    /// damaged rels part gives an empty set.
    ///
    /// # Errors
    /// Only fatal limits ([`ConvertError::TooLarge`], [`ConvertError::ZipBomb`],
    /// [`ConvertError::TooDeep`]).
    pub(crate) fn read(pkg: &mut Package<'_>, source: &str) -> Result<Rels, ConvertError> {
        let (dir, file) = split_dir(source);
        let rels_name = if source.is_empty() {
            "_rels/.rels".to_string()
        } else if dir.is_empty() {
            format!("_rels/{file}.rels")
        } else {
            format!("{dir}/_rels/{file}.rels")
        };
        let bytes = match pkg.read(&rels_name) {
            Ok(b) => b,
            Err(PartError::Fatal(e)) => return Err(e),
            Err(_) => return Ok(Rels::default()),
        };
        let mut rels = Rels::default();
        let mut x = Xml::new(&bytes, &rels_name, 64);
        loop {
            match x.next() {
                Ok(Ev::Start(s)) if s.ns == Ns::PkgRels && s.local == "Relationship" => {
                    let (Some(id), Some(target)) = (s.attr_any("Id"), s.attr_any("Target")) else {
                        continue;
                    };
                    let external = s
                        .attr_any("TargetMode")
                        .is_some_and(|m| m.eq_ignore_ascii_case("external"));
                    let target = if external {
                        target.to_string()
                    } else {
                        resolve(dir, target)
                    };
                    let rel = Rel {
                        kind: s.attr_any("Type").unwrap_or("").to_string(),
                        target,
                        external,
                    };
                    rels.by_id.entry(id.to_string()).or_insert(rels.list.len());
                    rels.list.push((id.to_string(), rel));
                }
                Ok(Ev::Eof) => return Ok(rels),
                Ok(_) => {}
                Err(e @ ConvertError::TooDeep { .. }) => return Err(e),
                Err(_) => return Ok(rels),
            }
        }
    }
}

/// Splits a part name into directory and file name.
fn split_dir(name: &str) -> (&str, &str) {
    let name = name.trim_start_matches('/');
    name.rsplit_once('/').unwrap_or(("", name))
}

/// Resolves an internal relationship target against the source part's directory
/// (Part 2, 9.3.2.2 and RFC 3986 5.2): absolute targets start at the package root,
/// `..` segments climb.
pub(crate) fn resolve(dir: &str, target: &str) -> String {
    let target = target.split(['#', '?']).next().unwrap_or(target);
    let mut segments: Vec<&str> = Vec::new();
    if !target.starts_with('/') {
        segments.extend(dir.split('/').filter(|s| !s.is_empty()));
    }
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    segments.join("/")
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn resolves_targets() {
        assert_eq!(resolve("word", "styles.xml"), "word/styles.xml");
        assert_eq!(
            resolve("word", "../customXml/item1.xml"),
            "customXml/item1.xml"
        );
        assert_eq!(resolve("", "word/document2.xml"), "word/document2.xml");
        assert_eq!(resolve("word", "/word/media/a.png"), "word/media/a.png");
    }
}
