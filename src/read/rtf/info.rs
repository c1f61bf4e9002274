//! Document information (RTF 1.9.1, "Information Group"): `\title`, `\subject`,
//! `\author`, `\keywords`, `\doccomm` (description) and the times `\creatim` /
//! `\revtim` written as `\yrN\moN\dyN\hrN\minN`. `\upr` holds an ANSI and a Unicode
//! (`\*\ud`) version of the same items; the later (Unicode) one wins.

use crate::model::Properties;

use super::state::Slot;

/// A time being read from `\yr \mo \dy \hr \min`.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Time {
    pub yr: i32,
    pub mo: i32,
    pub dy: i32,
    pub hr: i32,
    pub min: i32,
}

impl Time {
    /// ISO 8601 (`YYYY-MM-DDTHH:MM`), or `None` for an unset or impossible time.
    pub(crate) fn iso(&self) -> Option<String> {
        let ok = (1..=9999).contains(&self.yr)
            && (1..=12).contains(&self.mo)
            && (1..=31).contains(&self.dy)
            && (0..=23).contains(&self.hr)
            && (0..=59).contains(&self.min);
        ok.then(|| {
            format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}",
                self.yr, self.mo, self.dy, self.hr, self.min
            )
        })
    }
}

/// Stores a captured `\info` item.
pub(crate) fn set(props: &mut Properties, slot: Slot, text: &str) {
    let field = match slot {
        Slot::Title => &mut props.title,
        Slot::Subject => &mut props.subject,
        Slot::Author => &mut props.author,
        Slot::Keywords => &mut props.keywords,
        Slot::Doccomm => &mut props.description,
        _ => return,
    };
    let text = text.trim();
    if !text.is_empty() {
        *field = Some(text.to_string());
    }
}

/// Stores a finished `\creatim` (`created`) or `\revtim` time.
pub(crate) fn set_time(props: &mut Properties, created: bool, t: &Time) {
    if let Some(iso) = t.iso() {
        if created {
            props.created = Some(iso);
        } else {
            props.modified = Some(iso);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_format_and_reject_zero() {
        let t = Time {
            yr: 2004,
            mo: 10,
            dy: 28,
            hr: 10,
            min: 19,
        };
        assert_eq!(t.iso().as_deref(), Some("2004-10-28T10:19"));
        assert_eq!(Time::default().iso(), None);
    }
}
