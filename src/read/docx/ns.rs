//! Namespace names (Strict folded onto Transitional) and the start-tag type element
//! readers match on; plus the UTF-16 to UTF-8 step for parts saved as UTF-16.

use std::borrow::Cow;

/// The namespaces element readers distinguish. Strict and Transitional names map to
/// the same variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ns {
    /// WordprocessingML main (`w:`).
    W,
    /// Office document relationships (`r:`), used in attributes such as `r:id`.
    R,
    /// DrawingML WordprocessingML drawing (`wp:`).
    Wp,
    /// DrawingML main (`a:`).
    A,
    /// Office Math (`m:`).
    M,
    /// Markup compatibility (`mc:`).
    Mc,
    /// VML (`v:`).
    V,
    /// VML Office extensions (`o:`).
    O,
    /// Microsoft Word extension namespaces (`w14:`, `w15:`, `wps:`, `wpg:`, ...).
    MsWord,
    /// OPC package relationships.
    PkgRels,
    /// OPC content types.
    ContentTypes,
    /// OPC core properties (`cp:`).
    Cp,
    /// Dublin Core elements (`dc:`).
    Dc,
    /// Dublin Core terms (`dcterms:`).
    DcTerms,
    /// No namespace.
    None,
    /// Any other namespace.
    Other,
}

impl Ns {
    /// Maps a namespace name to its variant (Strict names fold onto Transitional ones).
    pub(crate) fn from_uri(uri: &str) -> Ns {
        match uri {
            "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
            | "http://purl.oclc.org/ooxml/wordprocessingml/main" => Ns::W,
            "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
            | "http://purl.oclc.org/ooxml/officeDocument/relationships" => Ns::R,
            "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
            | "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing" => Ns::Wp,
            "http://schemas.openxmlformats.org/drawingml/2006/main"
            | "http://purl.oclc.org/ooxml/drawingml/main" => Ns::A,
            "http://schemas.openxmlformats.org/officeDocument/2006/math"
            | "http://purl.oclc.org/ooxml/officeDocument/math" => Ns::M,
            "http://schemas.openxmlformats.org/markup-compatibility/2006" => Ns::Mc,
            "urn:schemas-microsoft-com:vml" => Ns::V,
            "urn:schemas-microsoft-com:office:office" => Ns::O,
            "http://schemas.openxmlformats.org/package/2006/relationships" => Ns::PkgRels,
            "http://schemas.openxmlformats.org/package/2006/content-types" => Ns::ContentTypes,
            "http://schemas.openxmlformats.org/package/2006/metadata/core-properties" => Ns::Cp,
            "http://purl.org/dc/elements/1.1/" => Ns::Dc,
            "http://purl.org/dc/terms/" => Ns::DcTerms,
            u if u.starts_with("http://schemas.microsoft.com/office/word/") => Ns::MsWord,
            _ => Ns::Other,
        }
    }

    /// Namespaces whose `mc:Choice` content this reader can use.
    pub(crate) fn understood(uri: &str) -> bool {
        matches!(
            Ns::from_uri(uri),
            Ns::W | Ns::MsWord | Ns::M | Ns::Wp | Ns::V | Ns::O
        )
    }
}

/// One attribute, namespace-resolved and unescaped.
#[derive(Debug)]
pub(crate) struct Attr<'a> {
    pub ns: Ns,
    pub local: &'a str,
    pub value: Cow<'a, str>,
}

/// A start tag: namespace, local name and attributes.
#[derive(Debug)]
pub(crate) struct Start<'a> {
    /// Namespace of the element.
    pub ns: Ns,
    /// Local name (no prefix).
    pub local: &'a str,
    /// Qualified name as written, for warnings.
    pub qname: &'a str,
    pub(crate) attrs: Vec<Attr<'a>>,
}

impl<'a> Start<'a> {
    /// True when the element is `(ns, local)`.
    pub(crate) fn is(&self, ns: Ns, local: &str) -> bool {
        self.ns == ns && self.local == local
    }

    /// The value of attribute `ns:local`.
    pub(crate) fn attr_ns(&self, ns: Ns, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| a.ns == ns && a.local == local)
            .map(|a| a.value.as_ref())
    }

    /// The value of the `w:`-namespaced attribute `local` (falling back to an
    /// unprefixed one, which some producers write).
    pub(crate) fn w(&self, local: &str) -> Option<&str> {
        self.attr_ns(Ns::W, local)
            .or_else(|| self.attr_ns(Ns::None, local))
    }

    /// The value of attribute `local` in any namespace.
    pub(crate) fn attr_any(&self, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| a.local == local)
            .map(|a| a.value.as_ref())
    }

    /// `w:val` read as an ST_OnOff toggle (17.17.4): absent means on.
    pub(crate) fn on_off(&self) -> bool {
        !matches!(self.w("val"), Some("0" | "false" | "off" | "none"))
    }
}

/// A part's bytes as UTF-8: parts saved as UTF-16 (with a byte order mark, as the
/// XML spec requires for UTF-16) are transcoded; anything else is left as it is.
pub(crate) fn utf8_part(bytes: Vec<u8>) -> Vec<u8> {
    let be = match bytes.get(..2) {
        Some([0xFF, 0xFE]) => false,
        Some([0xFE, 0xFF]) => true,
        _ => return bytes,
    };
    let units: Vec<u16> = bytes
        .get(2..)
        .unwrap_or(&[])
        .chunks_exact(2)
        .map(|c| match c {
            [a, b] if be => u16::from_be_bytes([*a, *b]),
            [a, b] => u16::from_le_bytes([*a, *b]),
            _ => 0,
        })
        .collect();
    let text = String::from_utf16_lossy(&units);
    // The declaration may still say encoding="UTF-16"; quick-xml ignores it here.
    text.into_bytes()
}
