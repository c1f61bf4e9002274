//! Core document properties (ECMA-376 Part 2, 11: `docProps/core.xml`, Dublin Core).

use crate::error::ConvertError;
use crate::model::Properties;

use super::xml::{Ev, Ns, Xml};

/// Reads the core properties part.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_core(x: &mut Xml<'_>) -> Result<Properties, ConvertError> {
    let mut p = Properties::default();
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::Cp, "coreProperties") => {}
            Ev::Start(s) => {
                let slot = match (s.ns, s.local) {
                    (Ns::Dc, "title") => Some(&mut p.title),
                    (Ns::Dc, "subject") => Some(&mut p.subject),
                    (Ns::Dc, "creator") => Some(&mut p.author),
                    (Ns::Dc, "description") => Some(&mut p.description),
                    (Ns::Cp, "keywords") | (Ns::Dc, "keywords") => Some(&mut p.keywords),
                    (Ns::DcTerms, "created") => Some(&mut p.created),
                    (Ns::DcTerms, "modified") => Some(&mut p.modified),
                    _ => None,
                };
                let text = x.text()?;
                let text = text.trim();
                if let Some(slot) = slot {
                    if !text.is_empty() {
                        *slot = Some(text.to_string());
                    }
                }
            }
            Ev::End | Ev::Text(_) => {}
            Ev::Eof => return Ok(p),
        }
    }
}
