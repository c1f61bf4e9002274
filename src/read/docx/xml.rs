//! The XML layer every part reader stands on: a streaming pull reader over one inflated
//! part that resolves namespaces, folds ISO/IEC 29500 Strict namespaces onto their
//! Transitional equivalents, resolves `mc:AlternateContent`, bounds nesting depth and
//! never expands entities.
//!
//! Element readers match `(Ns, local name)`, never prefix text, so `w:p`, `x:p` and a
//! Strict `w:p` are the same element to them.
//!
//! * Strict (ECMA-376 Part 1, 4th ed. / ISO/IEC 29500-1 Strict) uses
//!   `http://purl.oclc.org/ooxml/...` namespace names; [`Ns::from_uri`] maps both.
//! * `mc:AlternateContent` (ECMA-376 Part 3, 10.2): the first `mc:Choice` whose
//!   `Requires` prefixes all name namespaces this reader understands is taken, else the
//!   `mc:Fallback`; never both (a text box is otherwise read twice).
//! * Entities: quick-xml never fetches or expands DTD entities. The five predefined
//!   entities and character references are resolved; any other reference (for example
//!   the XXE probe `&testent;` of a hostile file) is dropped with one warning.

use std::borrow::Cow;

use quick_xml::events::Event;
use quick_xml::reader::Reader;
use rustc_hash::FxHashMap;

use crate::error::ConvertError;
use crate::model::Warning;

pub(crate) use super::ns::{Attr, Ns, Start, utf8_part};

/// One event of the normalised stream.
#[derive(Debug)]
pub(crate) enum Ev<'a> {
    /// An element starts (empty elements yield `Start` then `End`).
    Start(Start<'a>),
    /// The most recently opened element ends.
    End,
    /// Character data (text, CDATA, resolved character/predefined references).
    Text(Cow<'a, str>),
    /// The part ended.
    Eof,
}

/// One namespace declaration in scope.
struct Binding<'a> {
    /// Depth of the element that declares it.
    depth: usize,
    /// `""` for the default namespace.
    prefix: &'a str,
    uri: Cow<'a, str>,
    /// The declaration of the same prefix this one hides, restored when it ends.
    shadows: Option<usize>,
}

/// The streaming reader of one part.
pub(crate) struct Xml<'a> {
    input: &'a str,
    /// Byte offset where the part stops being valid UTF-8 (reported at the end).
    bad_utf8: Option<usize>,
    reader: Reader<&'a [u8]>,
    /// The namespace declarations in scope, innermost last. Kept here rather
    /// than by quick-xml's `NsReader`, which parses every start tag's attributes for
    /// declarations (a tenth of a large part's reading time); a tag is only searched
    /// for them when its bytes hold `xmlns`.
    bindings: Vec<Binding<'a>>,
    /// Prefix -> index in `bindings` of its innermost declaration, so a lookup costs
    /// the same with ten declarations in scope or a hundred thousand.
    innermost: FxHashMap<&'a str, usize>,
    /// Prefix -> namespace for the bindings in scope (cleared when they change).
    prefixes: Vec<(&'a str, Ns)>,
    part: String,
    max_depth: usize,
    /// One entry per open element: whether its `End` is passed on (false for the
    /// `mc:` wrappers that are resolved here).
    open: Vec<u8>,
    /// Open `mc:AlternateContent` elements: (depth of its children, branch taken).
    alternate: Vec<(usize, bool)>,
    /// Warnings raised while reading (undefined entities).
    pub warnings: Vec<Warning>,
    warned_entity: bool,
}

impl<'a> Xml<'a> {
    /// `(bytes read, bytes in all)` of the part, for progress reports.
    pub(crate) fn progress(&self) -> (u64, u64) {
        (self.reader.buffer_position(), self.input.len() as u64)
    }

    /// A reader over the inflated bytes of `part`.
    pub(crate) fn new(bytes: &'a [u8], part: &str, max_depth: usize) -> Self {
        let (input, bad_utf8) = match simdutf8::compat::from_utf8(bytes) {
            Ok(s) => (s, None),
            Err(e) => {
                let valid = bytes.get(..e.valid_up_to()).unwrap_or(&[]);
                (
                    std::str::from_utf8(valid).unwrap_or(""),
                    Some(e.valid_up_to()),
                )
            }
        };
        let mut reader = Reader::from_reader(input.as_bytes());
        let cfg = reader.config_mut();
        cfg.expand_empty_elements = true;
        cfg.check_end_names = true;
        cfg.allow_dangling_amp = true;
        Xml {
            input,
            bad_utf8,
            reader,
            bindings: Vec::new(),
            innermost: FxHashMap::default(),
            prefixes: Vec::new(),
            part: part.to_string(),
            max_depth,
            open: Vec::new(),
            alternate: Vec::new(),
            warnings: Vec::new(),
            warned_entity: false,
        }
    }

    fn malformed(&self, detail: String) -> ConvertError {
        ConvertError::MalformedXml {
            part: self.part.clone(),
            position: self
                .reader
                .error_position()
                .max(self.reader.buffer_position()),
            detail,
        }
    }

    /// The next event. Comments, processing instructions, the XML declaration and
    /// DOCTYPE are skipped.
    ///
    /// # Errors
    /// [`ConvertError::MalformedXml`] for ill-formed XML or a part that ends inside an
    /// element; [`ConvertError::TooDeep`] past `max_depth`.
    pub(crate) fn next(&mut self) -> Result<Ev<'a>, ConvertError> {
        self.next_filtered(None)
    }

    /// As [`Xml::next`], but an element that is not one of `wanted` (nor an `mc:`
    /// wrapper, whose content may be) is consumed whole, its attributes never built:
    /// a property list such as `w:rPr` holds many elements a reader ignores.
    ///
    /// # Errors
    /// As [`Xml::next`].
    pub(crate) fn next_among(&mut self, wanted: &[(Ns, &str)]) -> Result<Ev<'a>, ConvertError> {
        self.next_filtered(Some(wanted))
    }

    fn next_filtered(&mut self, wanted: Option<&[(Ns, &str)]>) -> Result<Ev<'a>, ConvertError> {
        loop {
            let event = match self.reader.read_event() {
                Ok(ev) => ev,
                Err(e) => return Err(self.malformed(e.to_string())),
            };
            match event {
                Event::Start(s) => {
                    let declares = declares_namespace(s[..].as_bytes());
                    let depth = self.open.len() + 1;
                    if depth > self.max_depth {
                        return Err(ConvertError::TooDeep {
                            part: self.part.clone(),
                            depth,
                            limit: self.max_depth,
                        });
                    }
                    crate::read::budget::take(1)?;
                    if declares {
                        self.declare(&s, depth);
                    }
                    if let Some(wanted) = wanted {
                        let qname = self
                            .reborrow(&s)
                            .and_then(|raw| raw.get(..s.name().0.len()));
                        let (prefix, local) = qname
                            .unwrap_or("")
                            .split_once(':')
                            .unwrap_or(("", qname.unwrap_or("")));
                        let ns = self.ns_of(prefix, false);
                        if ns != Ns::Mc && !wanted.iter().any(|&(n, l)| n == ns && l == local) {
                            self.skip_raw()?;
                            continue;
                        }
                    }
                    let start = self.start(s);
                    let flag = if declares { 2 } else { 0 };
                    if !self.keep_alternate(&start, flag)? {
                        continue;
                    }
                    self.open.push(flag | 1);
                    return Ok(Ev::Start(start));
                }
                Event::End(_) => match self.pop() {
                    Some(true) => return Ok(Ev::End),
                    Some(false) => {
                        if self
                            .alternate
                            .last()
                            .is_some_and(|a| a.0 == self.open.len() + 2)
                        {
                            self.alternate.pop();
                        }
                        continue;
                    }
                    None => return Err(self.malformed("unmatched end tag".into())),
                },
                Event::Text(t) => return Ok(Ev::Text(t.xml10_content())),
                Event::CData(t) => return Ok(Ev::Text(t.into_inner())),
                Event::GeneralRef(r) => {
                    if let Ok(Some(c)) = r.resolve_char_ref() {
                        return Ok(Ev::Text(Cow::Owned(c.to_string())));
                    }
                    let name = r.into_inner();
                    if let Some(text) = predefined(&name) {
                        return Ok(Ev::Text(Cow::Borrowed(text)));
                    }
                    self.undefined_entity(&name);
                }
                Event::Eof => {
                    if self.open.is_empty() && self.bad_utf8.is_none() {
                        return Ok(Ev::Eof);
                    }
                    return Err(self.early_end());
                }
                Event::Empty(_)
                | Event::Comment(_)
                | Event::Decl(_)
                | Event::PI(_)
                | Event::DocType(_) => {}
            }
        }
    }

    /// The error for a part that ends early: not valid UTF-8 from some offset (the
    /// reader stopped there), or inside an element.
    fn early_end(&self) -> ConvertError {
        match self.bad_utf8 {
            Some(at) => ConvertError::MalformedXml {
                part: self.part.clone(),
                position: at as u64,
                detail: "the part is not valid UTF-8".into(),
            },
            None => self.malformed("the part ends inside an element".into()),
        }
    }

    /// Warns (once a part) that `name` is an entity this reader never expands.
    fn undefined_entity(&mut self, name: &str) {
        if !self.warned_entity {
            self.warned_entity = true;
            self.warnings.push(Warning::new(
                "undefined-entity",
                format!(
                    "{} refers to the undefined entity &{name}; it was dropped (entities are never expanded or fetched)",
                    self.part
                ),
            ));
        }
    }

    /// Builds a [`Start`] with resolved attributes.
    fn start(&mut self, s: quick_xml::events::BytesStart<'a>) -> Start<'a> {
        let name_len = s.name().0.len();
        // The slice reader borrows tag content from the input; re-borrow it with the
        // input's lifetime so names and values need no copies.
        let raw = self.reborrow(&s).unwrap_or("");
        let qname = raw.get(..name_len).unwrap_or("");
        let (prefix, local) = qname.split_once(':').unwrap_or(("", qname));
        let ns = self.ns_of(prefix, false);
        let mut attrs = Vec::new();
        for (key, value) in attributes(raw, name_len) {
            if key == "xmlns" || key.starts_with("xmlns:") {
                continue;
            }
            let (ans, local) = match key.split_once(':') {
                Some((prefix, local)) => (self.ns_of(prefix, true), local),
                None => (Ns::None, key),
            };
            let value = normalized(key, value);
            attrs.push(Attr {
                ns: ans,
                local,
                value,
            });
        }
        Start {
            ns,
            local,
            qname,
            attrs,
        }
    }

    /// `piece` (a slice of the input held by quick-xml) with the input's lifetime.
    fn reborrow(&self, piece: &str) -> Option<&'a str> {
        let offset = (piece.as_ptr() as usize).checked_sub(self.input.as_ptr() as usize)?;
        self.input.get(offset..offset.checked_add(piece.len())?)
    }

    /// Brings the namespace declarations (`xmlns`, `xmlns:p`) of a start tag at
    /// `depth` into scope (Namespaces in XML 1.0, section 3).
    fn declare(&mut self, s: &quick_xml::events::BytesStart<'a>, depth: usize) {
        self.prefixes.clear();
        let name_len = s.name().0.len();
        let raw = self.reborrow(s).unwrap_or("");
        for (key, value) in attributes(raw, name_len) {
            let prefix = match key.strip_prefix("xmlns") {
                Some("") => "",
                Some(rest) => match rest.strip_prefix(':') {
                    Some(p) => p,
                    None => continue,
                },
                None => continue,
            };
            let uri = normalized(key, value);
            if let Some(&i) = self.innermost.get(prefix) {
                if let Some(b) = self.bindings.get_mut(i).filter(|b| b.depth == depth) {
                    // The same prefix twice on one tag (not well-formed): the last
                    // counts, and the scope does not grow with the repeats.
                    b.uri = uri;
                    continue;
                }
            }
            let shadows = self.innermost.insert(prefix, self.bindings.len());
            self.bindings.push(Binding {
                depth,
                prefix,
                uri,
                shadows,
            });
        }
    }

    /// Drops the declarations of elements deeper than `depth`.
    fn undeclare(&mut self, depth: usize) {
        if self.bindings.last().is_some_and(|b| b.depth > depth) {
            while let Some(b) = self.bindings.pop_if(|b| b.depth > depth) {
                match b.shadows {
                    Some(i) => self.innermost.insert(b.prefix, i),
                    None => self.innermost.remove(b.prefix),
                };
            }
            self.prefixes.clear();
        }
    }

    /// The namespace name bound to `prefix` in scope (`None` when unbound).
    fn lookup(&self, prefix: &str) -> Option<&str> {
        let &i = self.innermost.get(prefix)?;
        self.bindings.get(i).map(|b| b.uri.as_ref())
    }

    /// The namespace of `prefix` (`""` = the default namespace, which attributes do
    /// not use), memoized while the bindings in scope stay the same. An unbound
    /// prefix is [`Ns::Other`]; the `xml` prefix is bound by definition.
    fn ns_of(&mut self, prefix: &'a str, attribute: bool) -> Ns {
        if attribute && prefix.is_empty() {
            // Not memoized: the memo is by prefix, and `""` on an element is the
            // default namespace (an attribute written `:x` must not shadow it).
            return Ns::None;
        }
        if let Some((_, ns)) = self.prefixes.iter().find(|(p, _)| *p == prefix) {
            return *ns;
        }
        let ns = match prefix {
            "xml" => Ns::Other,
            "" => match self.lookup("") {
                None | Some("") => Ns::None,
                Some(uri) => Ns::from_uri(uri),
            },
            p => self.lookup(p).map_or(Ns::Other, Ns::from_uri),
        };
        if self.prefixes.len() < 64 {
            self.prefixes.push((prefix, ns));
        }
        ns
    }

    /// Pops an open element; bindings it declared go out of scope.
    fn pop(&mut self) -> Option<bool> {
        let (visible, declares) = self.open.pop().map(|f| (f & 1 != 0, f & 2 != 0))?;
        if declares {
            self.undeclare(self.open.len());
        }
        Some(visible)
    }

    /// Handles `mc:AlternateContent`, `mc:Choice`, `mc:Fallback`: returns whether the
    /// element is passed on. A skipped branch is consumed here.
    fn keep_alternate(&mut self, start: &Start<'a>, flag: u8) -> Result<bool, ConvertError> {
        let depth = self.open.len() + 1;
        let in_alternate_child = self.alternate.last().is_some_and(|a| a.0 == depth);
        if start.is(Ns::Mc, "AlternateContent") {
            self.open.push(flag);
            self.alternate.push((depth + 1, false));
            return Ok(false);
        }
        if !in_alternate_child {
            return Ok(true);
        }
        let taken = self.alternate.last().is_some_and(|a| a.1);
        let take = !taken
            && if start.is(Ns::Mc, "Choice") {
                self.requires_understood(start.attr_any("Requires").unwrap_or(""))
            } else {
                start.is(Ns::Mc, "Fallback")
            };
        if take {
            if let Some(a) = self.alternate.last_mut() {
                a.1 = true;
            }
            self.open.push(flag);
            return Ok(false);
        }
        self.skip_raw()?;
        Ok(false)
    }

    fn requires_understood(&self, requires: &str) -> bool {
        let mut any = false;
        for prefix in requires.split_whitespace() {
            any = true;
            match self.lookup(prefix) {
                Some(uri) if Ns::understood(uri) => {}
                _ => return false,
            }
        }
        any
    }

    /// Consumes the element whose start tag was just read by quick-xml but not pushed.
    fn skip_raw(&mut self) -> Result<(), ConvertError> {
        self.consume()?;
        // Its declarations were brought into scope before it was known to be skipped.
        self.undeclare(self.open.len());
        Ok(())
    }

    /// Skips the rest of the element whose `Start` was returned last.
    ///
    /// Reads quick-xml's raw events: nothing inside is resolved or built (a third of a
    /// large document's reading time went to attributes nobody read), while the depth
    /// limit, the element budget and the entity warning apply as in [`Xml::next`].
    ///
    /// # Errors
    /// As [`Xml::next`].
    pub(crate) fn skip(&mut self) -> Result<(), ConvertError> {
        self.consume()?;
        self.pop();
        Ok(())
    }

    /// Reads raw events up to and including the end tag that closes the element open
    /// at quick-xml's level now.
    fn consume(&mut self) -> Result<(), ConvertError> {
        let base = self.open.len();
        let mut depth = 0usize;
        loop {
            match self.reader.read_event() {
                Ok(Event::Start(_)) => {
                    depth += 1;
                    if base + depth > self.max_depth {
                        return Err(ConvertError::TooDeep {
                            part: self.part.clone(),
                            depth: base + depth,
                            limit: self.max_depth,
                        });
                    }
                    crate::read::budget::take(1)?;
                }
                Ok(Event::End(_)) if depth == 0 => return Ok(()),
                Ok(Event::End(_)) => depth -= 1,
                Ok(Event::GeneralRef(r)) => {
                    if !matches!(r.resolve_char_ref(), Ok(Some(_))) {
                        let name = r.into_inner();
                        if predefined(&name).is_none() {
                            self.undefined_entity(&name);
                        }
                    }
                }
                Ok(Event::Eof) => return Err(self.early_end()),
                Ok(_) => {}
                Err(e) => return Err(self.malformed(e.to_string())),
            }
        }
    }

    /// Collects the character data of the element whose `Start` was returned last,
    /// including that of descendants, and consumes its end.
    ///
    /// # Errors
    /// As [`Xml::next`].
    pub(crate) fn text(&mut self) -> Result<String, ConvertError> {
        let mut out = String::new();
        let mut depth = 1usize;
        loop {
            match self.next()? {
                Ev::Start(_) => depth += 1,
                Ev::End => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(out);
                    }
                }
                Ev::Text(t) => out.push_str(&t),
                Ev::Eof => return Ok(out),
            }
        }
    }
}

/// The attributes of a start tag's content `tag` after its name ends at `from`, as
/// `(key, raw value)`: what quick-xml's `Attributes` with checks off yields, malformed
/// attributes dropped the same way (a tag holds many; quick-xml's iterator is larger
/// code for the same result).
fn attributes(tag: &str, from: usize) -> impl Iterator<Item = (&str, &str)> {
    let b = tag.as_bytes();
    let len = b.len();
    let space = move |i: usize| b.get(i).copied().is_some_and(is_xml_space);
    let not_space = move |mut i: usize| {
        while space(i) {
            i += 1;
        }
        i
    };
    let mut next = Some(from);
    std::iter::from_fn(move || {
        loop {
            let at = next.filter(|&i| i <= len)?;
            let key_start = not_space(at);
            if key_start >= len {
                next = None;
                return None;
            }
            // The key's first byte is taken whatever it is (even `=`).
            let mut i = key_start + 1;
            while i < len && !space(i) && b.get(i) != Some(&b'=') {
                i += 1;
            }
            let key_end = i;
            i = not_space(i);
            match b.get(i) {
                Some(b'=') => {}
                // A key without `=`: the next key starts here.
                Some(_) => {
                    next = Some(i);
                    continue;
                }
                None => {
                    next = None;
                    return None;
                }
            }
            i = not_space(i + 1);
            let quote = match b.get(i) {
                Some(&q @ (b'"' | b'\'')) => q,
                // An unquoted value: skipped to the next white space.
                Some(_) => {
                    next = (i..len).find(|&j| space(j));
                    continue;
                }
                None => {
                    next = None;
                    return None;
                }
            };
            let Some(end) = memchr::memchr(quote, b.get(i + 1..)?).map(|e| i + 1 + e) else {
                next = None;
                return None;
            };
            next = Some(end + 1);
            return Some((tag.get(key_start..key_end)?, tag.get(i + 1..end)?));
        }
    })
}

/// An attribute value normalised as quick-xml does (XML 1.0, 3.3.3: white space to
/// spaces, references resolved), the raw value when a reference cannot be.
fn normalized<'a>(key: &'a str, value: &'a str) -> Cow<'a, str> {
    if !value
        .bytes()
        .any(|b| matches!(b, b'\t' | b'\r' | b'\n' | 0xC2 | 0xE2 | b'&'))
    {
        return Cow::Borrowed(value);
    }
    let a = quick_xml::events::attributes::Attribute {
        key: quick_xml::name::QName(key),
        value: Cow::Borrowed(value),
    };
    match a.normalized_value(quick_xml::XmlVersion::Implicit1_0) {
        Ok(v) => v,
        Err(_) => a.value,
    }
}

/// XML's white space as quick-xml splits names on it.
fn is_xml_space(b: u8) -> bool {
    matches!(b, b' ' | b'\r' | b'\n' | b'\t')
}

/// Whether a start tag's bytes hold `xmlns` (a namespace declaration, or text that
/// looks like one: the attributes are then read to tell). Most tags are a few bytes
/// without an `x`; a substring searcher's set-up per tag cost more than this scan.
fn declares_namespace(tag: &[u8]) -> bool {
    memchr::memchr_iter(b'x', tag).any(|i| tag[i..].starts_with(b"xmlns"))
}

/// The text of one of XML's five predefined entities (XML 1.0, 4.6).
fn predefined(name: &str) -> Option<&'static str> {
    Some(match name {
        "lt" => "<",
        "gt" => ">",
        "amp" => "&",
        "apos" => "'",
        "quot" => "\"",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
    const MC: &str = "http://schemas.openxmlformats.org/markup-compatibility/2006";

    /// `(namespace, local name, attributes as (namespace, local, value))` of every
    /// element `next` passes on, in order.
    fn starts(xml: &str) -> Vec<(Ns, String, Vec<(Ns, String, String)>)> {
        let mut x = Xml::new(xml.as_bytes(), "test.xml", 64);
        let mut out = Vec::new();
        loop {
            match x.next().expect("well-formed") {
                Ev::Start(s) => out.push((
                    s.ns,
                    s.local.to_string(),
                    s.attrs
                        .iter()
                        .map(|a| (a.ns, a.local.to_string(), a.value.to_string()))
                        .collect(),
                )),
                Ev::Eof => return out,
                _ => {}
            }
        }
    }

    #[test]
    fn attributes_are_split_and_normalised_as_quick_xml_does() {
        // Every string of up to 6 of these bytes after a name, then longer random ones.
        let alphabet = [" ", "=", "\"", "'", "a", "b:c", "\t", "&amp;", "&#10;", "&x;", "&", "\r\n", "\u{85}"];
        let mut cases = vec![String::from("n a=b c='d'"), String::from("n a=b")];
        let mut stack = vec![String::from("n")];
        while let Some(tag) = stack.pop() {
            if tag.len() < 9 {
                for a in alphabet {
                    stack.push(format!("{tag}{a}"));
                }
            }
            cases.push(tag);
        }
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            let mut tag = String::from("w:x");
            for _ in 0..(seed % 24) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                tag.push_str(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            cases.push(tag);
        }
        for tag in cases {
            let name_len = tag.bytes().position(is_xml_space).unwrap_or(tag.len());
            let ours: Vec<(&str, Cow<'_, str>)> = attributes(&tag, name_len)
                .map(|(k, v)| (k, normalized(k, v)))
                .collect();
            let mut iter = quick_xml::events::attributes::Attributes::new(&tag, name_len);
            iter.with_checks(false);
            let theirs: Vec<(&str, Cow<'_, str>)> = iter
                .flatten()
                .map(|a| {
                    let v = match a.normalized_value(quick_xml::XmlVersion::Implicit1_0) {
                        Ok(v) => v,
                        Err(_) => a.value.clone(),
                    };
                    (a.key.0, v)
                })
                .collect();
            assert_eq!(ours, theirs, "{tag:?}");
        }
    }

    #[test]
    fn prefixes_resolve_in_scope_and_go_out_of_scope_with_their_element() {
        let xml = format!(
            r#"<a:doc xmlns:a="{W}"><a:p xmlns:a="urn:other" a:x="1"/><a:p a:x="2"/><b:p/></a:doc>"#
        );
        let s = starts(&xml);
        assert_eq!(s[0].0, Ns::W);
        // Redeclared on the element itself: its name and attribute use the new binding.
        assert_eq!(s[1].0, Ns::Other);
        assert_eq!(s[1].2, vec![(Ns::Other, "x".into(), "1".into())]);
        // The redeclaration ended with that element.
        assert_eq!(s[2].0, Ns::W);
        assert_eq!(s[2].2, vec![(Ns::W, "x".into(), "2".into())]);
        // An undeclared prefix is another namespace, never W.
        assert_eq!(s[3].0, Ns::Other);
    }

    #[test]
    fn the_default_namespace_applies_to_elements_not_attributes() {
        let xml = format!(r#"<document xmlns="{W}"><p val="x"><q xmlns=""/></p></document>"#);
        let s = starts(&xml);
        assert_eq!((s[0].0, s[1].0), (Ns::W, Ns::W));
        assert_eq!(s[1].2, vec![(Ns::None, "val".into(), "x".into())]);
        // xmlns="" takes the default namespace away.
        assert_eq!(s[2].0, Ns::None);
    }

    #[test]
    fn a_skipped_alternate_branch_takes_its_declarations_with_it() {
        // The Choice requires an unknown namespace and declares `w` itself as another
        // URI; once it is skipped, `w:p` in the Fallback and after must be W again.
        let xml = format!(
            r#"<w:d xmlns:w="{W}" xmlns:mc="{MC}"><mc:AlternateContent><mc:Choice xmlns:x="urn:x" xmlns:w="urn:not-w" Requires="x"><w:p/></mc:Choice><mc:Fallback><w:p/></mc:Fallback></mc:AlternateContent><w:p/></w:d>"#
        );
        let s = starts(&xml);
        let names: Vec<(Ns, &str)> = s.iter().map(|e| (e.0, e.1.as_str())).collect();
        assert_eq!(names, vec![(Ns::W, "d"), (Ns::W, "p"), (Ns::W, "p")]);
    }

    #[test]
    fn a_choice_is_taken_when_its_required_prefix_is_understood() {
        let w14 = "http://schemas.microsoft.com/office/word/2010/wordml";
        let xml = format!(
            r#"<w:d xmlns:w="{W}" xmlns:mc="{MC}"><mc:AlternateContent xmlns:w14="{w14}"><mc:Choice Requires="w14"><w:p/></mc:Choice><mc:Fallback><w:r/></mc:Fallback></mc:AlternateContent></w:d>"#
        );
        let names: Vec<String> = starts(&xml).into_iter().map(|e| e.1).collect();
        assert_eq!(names, vec!["d", "p"]);
    }

    #[test]
    fn next_among_skips_unwanted_elements_whole_but_not_mc_wrappers() {
        let xml = format!(
            r#"<w:rPr xmlns:w="{W}" xmlns:mc="{MC}"><w:sz w:val="20"><w:b/></w:sz><w:b/><mc:AlternateContent><mc:Choice Requires="w"><w:i/><w:lang/></mc:Choice></mc:AlternateContent></w:rPr>"#
        );
        let mut x = Xml::new(xml.as_bytes(), "test.xml", 64);
        assert!(matches!(x.next(), Ok(Ev::Start(s)) if s.local == "rPr"));
        let wanted = [(Ns::W, "b"), (Ns::W, "i")];
        let mut seen = Vec::new();
        loop {
            match x.next_among(&wanted).expect("well-formed") {
                Ev::Start(s) => seen.push(s.local.to_string()),
                Ev::Eof => break,
                _ => {}
            }
        }
        // w:sz goes with the w:b inside it; the Choice's w:i comes through.
        assert_eq!(seen, ["b", "i"]);
    }

    #[test]
    fn an_attribute_without_a_prefix_before_its_colon_does_not_hide_the_default_namespace() {
        // `:x` is not namespace-well-formed; found by a hostile-input pass, it once
        // made every later unprefixed element namespace-less until the element ended.
        let xml = format!(
            r#"<document xmlns="{W}" xmlns:w="{W}"><body><w:p :x="1" xmlns:foo="bar"><r/></w:p><p/></body></document>"#
        );
        let names: Vec<(Ns, String)> = starts(&xml).into_iter().map(|e| (e.0, e.1)).collect();
        assert!(names.iter().all(|(ns, _)| *ns == Ns::W), "{names:?}");
    }

    #[test]
    fn repeated_and_shadowed_declarations_restore_in_order() {
        // The same prefix three times on one tag (the last counts), then 2,000 nested
        // redeclarations of `a` that must unwind back to W.
        let mut xml =
            format!(r#"<a:doc xmlns:a="urn:x" xmlns:a="urn:y" xmlns:a="{W}" xmlns:mc="{MC}">"#);
        for i in 0..2000 {
            xml.push_str(&format!(r#"<a:p xmlns:a="urn:{i}">"#));
        }
        for _ in 0..2000 {
            xml.push_str("</a:p>");
        }
        xml.push_str("<a:p/></a:doc>");
        let mut x = Xml::new(xml.as_bytes(), "test.xml", 4096);
        let mut last = None;
        loop {
            match x.next().expect("well-formed") {
                Ev::Start(s) => last = Some(s.ns),
                Ev::Eof => break,
                _ => {}
            }
        }
        assert_eq!(last, Some(Ns::W));
        // The root ended: nothing is left in scope.
        assert!(x.bindings.is_empty() && x.innermost.is_empty());
    }
}
