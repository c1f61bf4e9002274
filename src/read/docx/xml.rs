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
//! * Speed: well-formed markup is read by [`Lexer`], which gives quick-xml's events
//!   without its per-event costs; quick-xml takes over a part at the first construct
//!   the lexer leaves to it (errors, DOCTYPE), so what malformed parts report is
//!   unchanged.
//! * Entities: quick-xml never fetches or expands DTD entities. The five predefined
//!   entities and character references are resolved; any other reference (for example
//!   the XXE probe `&testent;` of a hostile file) is dropped with one warning.

use std::borrow::Cow;

use quick_xml::events::{BytesRef, BytesText, Event};
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
    /// Whether [`Lexer`] still reads the part (quick-xml takes over for good at the
    /// first construct the lexer leaves to it).
    fast: bool,
    lexer: Lexer<'a>,
}

/// A token of [`Lexer`]: the events quick-xml would give, with the same boundaries.
enum Tok<'a> {
    /// A start tag's content between `<` and `>` (or `/>`), and its name's length.
    Start(&'a str, usize),
    End,
    /// Character data before end-of-line normalisation.
    Text(&'a str),
    CData(&'a str),
    /// The name of a reference `&name;`.
    Ref(&'a str),
    Eof,
    /// A construct left to quick-xml: a syntax error, a mismatched end tag, a DOCTYPE.
    Unsure,
}

/// A pull tokenizer over a whole part held as `&str`, for the well-formed constructs
/// that make up real parts.
///
/// quick-xml validates every event's bytes as UTF-8 again (the part already was),
/// keeps open names in a string it copies each empty element's name out of, and costs
/// a third of a DOCX conversion in wasm. This lexer gives the same tokens at the same
/// offsets for start and end tags, text, references, CDATA, comments and processing
/// instructions; for anything else it answers [`Tok::Unsure`] without consuming it,
/// and [`Xml`] replays quick-xml up to that offset, so errors, their positions and
/// the rarer constructs stay exactly quick-xml's.
struct Lexer<'a> {
    input: &'a str,
    /// Offset of the next token (quick-xml's `buffer_position` after the same events).
    pos: usize,
    /// Names of the open elements, innermost last (end tags must match them).
    names: Vec<&'a str>,
    /// The last `Start` was an empty element `<a/>`: its `End` comes next.
    empty_end: bool,
}

impl<'a> Xml<'a> {
    /// `(bytes read, bytes in all)` of the part, for progress reports.
    pub(crate) fn progress(&self) -> (u64, u64) {
        (self.position(), self.input.len() as u64)
    }

    /// Whether the part's text holds `needle` anywhere (markup included).
    pub(crate) fn contains(&self, needle: &str) -> bool {
        self.input.contains(needle)
    }

    /// The offset after the last event read.
    fn position(&self) -> u64 {
        if self.fast {
            self.lexer.pos as u64
        } else {
            self.reader.buffer_position()
        }
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
            // quick-xml drops a byte order mark without counting it in its offsets.
            fast: !input.starts_with('\u{feff}'),
            lexer: Lexer {
                input,
                pos: 0,
                names: Vec::new(),
                empty_end: false,
            },
        }
    }

    fn malformed(&self, detail: String) -> ConvertError {
        ConvertError::MalformedXml {
            part: self.part.clone(),
            position: if self.fast {
                self.lexer.pos as u64
            } else {
                self.reader
                    .error_position()
                    .max(self.reader.buffer_position())
            },
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
            match self.raw()? {
                Raw::Start(tag, name_len) => {
                    let declares = declares_namespace(tag.as_bytes());
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
                        self.declare(tag, name_len, depth);
                    }
                    if let Some(wanted) = wanted {
                        let qname = tag.get(..name_len).unwrap_or("");
                        let (prefix, local) = split_qname(qname);
                        let ns = self.ns_of(prefix, false);
                        if ns != Ns::Mc && !wanted.iter().any(|&(n, l)| n == ns && l == local) {
                            self.skip_raw()?;
                            continue;
                        }
                    }
                    let start = self.start(tag, name_len);
                    let flag = if declares { 2 } else { 0 };
                    if !self.keep_alternate(&start, flag)? {
                        continue;
                    }
                    self.open.push(flag | 1);
                    return Ok(Ev::Start(start));
                }
                Raw::End => match self.pop() {
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
                Raw::Text(t) => return Ok(Ev::Text(t)),
                Raw::Ref(name) => {
                    if let Ok(Some(c)) = BytesRef::new(name.as_ref()).resolve_char_ref() {
                        return Ok(Ev::Text(Cow::Owned(c.to_string())));
                    }
                    if let Some(text) = predefined(&name) {
                        return Ok(Ev::Text(Cow::Borrowed(text)));
                    }
                    self.undefined_entity(&name);
                }
                Raw::Eof => {
                    if self.open.is_empty() && self.bad_utf8.is_none() {
                        return Ok(Ev::Eof);
                    }
                    return Err(self.early_end());
                }
                Raw::Other => {}
            }
        }
    }

    /// The next event of the lexer, or of quick-xml once it has taken over.
    fn raw(&mut self) -> Result<Raw<'a>, ConvertError> {
        if self.fast {
            match self.lexer.next() {
                Tok::Start(tag, name_len) => return Ok(Raw::Start(tag, name_len)),
                Tok::End => return Ok(Raw::End),
                Tok::Text(t) => return Ok(Raw::Text(BytesText::from_escaped(t).xml10_content())),
                Tok::CData(t) => return Ok(Raw::Text(Cow::Borrowed(t))),
                Tok::Ref(name) => return Ok(Raw::Ref(Cow::Borrowed(name))),
                Tok::Eof => return Ok(Raw::Eof),
                Tok::Unsure => self.replay(),
            }
        }
        let event = match self.reader.read_event() {
            Ok(ev) => ev,
            Err(e) => return Err(self.malformed(e.to_string())),
        };
        Ok(match event {
            Event::Start(s) => {
                let name_len = s.name().0.len();
                // The slice reader borrows tag content from the input; re-borrow it
                // with the input's lifetime so names and values need no copies.
                Raw::Start(self.reborrow(&s).unwrap_or(""), name_len)
            }
            Event::End(_) => Raw::End,
            Event::Text(t) => Raw::Text(t.xml10_content()),
            Event::CData(t) => Raw::Text(t.into_inner()),
            Event::GeneralRef(r) => Raw::Ref(r.into_inner()),
            Event::Eof => Raw::Eof,
            Event::Empty(_)
            | Event::Comment(_)
            | Event::Decl(_)
            | Event::PI(_)
            | Event::DocType(_) => Raw::Other,
        })
    }

    /// Hands the part over to quick-xml at the lexer's offset, for good: quick-xml
    /// reads the events the lexer already gave (all well-formed, so its state ends up
    /// as if it had read them for the caller) and goes on from there.
    fn replay(&mut self) {
        self.fast = false;
        let target = self.lexer.pos as u64;
        let bytes = self.input.as_bytes();
        let mut empty = false;
        loop {
            if !empty && self.reader.buffer_position() >= target {
                return;
            }
            match self.reader.read_event() {
                Ok(Event::Start(_)) => {
                    // Expanded `<a/>`: its End comes next, at the same offset.
                    let at = self.reader.buffer_position() as usize;
                    empty = at
                        .checked_sub(2)
                        .and_then(|i| bytes.get(i))
                        .is_some_and(|&b| b == b'/');
                }
                // Not reached for events the lexer gave; stops a runaway replay.
                Ok(Event::Eof) | Err(_) => return,
                Ok(_) => empty = false,
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
    fn start(&mut self, raw: &'a str, name_len: usize) -> Start<'a> {
        let qname = raw.get(..name_len).unwrap_or("");
        let (prefix, local) = split_qname(qname);
        let ns = self.ns_of(prefix, false);
        let mut attrs = Vec::new();
        for (key, value) in attributes(raw, name_len) {
            if key == "xmlns" || key.starts_with("xmlns:") {
                continue;
            }
            let (prefix, local) = split_qname(key);
            // Without a colon the prefix is "", which ns_of maps to no namespace.
            let ans = self.ns_of(prefix, true);
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
    fn declare(&mut self, raw: &'a str, name_len: usize, depth: usize) {
        self.prefixes.clear();
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
        if self.fast && self.consume_fast()? {
            return Ok(());
        }
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

    /// [`Xml::consume`] on the lexer: false, with nothing consumed, when the element
    /// holds something the lexer leaves to quick-xml or nests past the depth limit
    /// (quick-xml then consumes it and reports exactly as before).
    fn consume_fast(&mut self) -> Result<bool, ConvertError> {
        let saved = (self.lexer.pos, self.lexer.names.len(), self.lexer.empty_end);
        let base = self.open.len();
        let (mut depth, mut deepest, mut starts) = (0usize, 0usize, 0u64);
        let mut undefined = None;
        loop {
            match self.lexer.next() {
                Tok::Start(..) => {
                    depth += 1;
                    deepest = deepest.max(depth);
                    starts += 1;
                }
                Tok::End if depth == 0 => break,
                Tok::End => depth -= 1,
                Tok::Ref(name) => {
                    if undefined.is_none()
                        && !matches!(BytesRef::new(name).resolve_char_ref(), Ok(Some(_)))
                        && predefined(name).is_none()
                    {
                        undefined = Some(name);
                    }
                }
                Tok::Text(_) | Tok::CData(_) => {}
                Tok::Eof | Tok::Unsure => {
                    self.lexer.rewind(saved);
                    self.replay();
                    return Ok(false);
                }
            }
        }
        if base + deepest > self.max_depth {
            self.lexer.rewind(saved);
            self.replay();
            return Ok(false);
        }
        if starts > 0 {
            crate::read::budget::take(starts)?;
        }
        if let Some(name) = undefined {
            self.undefined_entity(name);
        }
        Ok(true)
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

/// One event of either reader, before namespaces and `mc:` are resolved.
enum Raw<'a> {
    /// A start tag's content and its name's length.
    Start(&'a str, usize),
    End,
    Text(Cow<'a, str>),
    /// The name of a reference `&name;`.
    Ref(Cow<'a, str>),
    Eof,
    /// A comment, processing instruction, declaration or DOCTYPE.
    Other,
}

impl<'a> Lexer<'a> {
    /// The next token. Comments and processing instructions are passed over.
    fn next(&mut self) -> Tok<'a> {
        if self.empty_end {
            self.empty_end = false;
            self.names.pop();
            return Tok::End;
        }
        let input = self.input;
        let bytes = input.as_bytes();
        loop {
            let pos = self.pos;
            let Some(rest) = bytes.get(pos..) else {
                return Tok::Eof;
            };
            match rest.first() {
                None => return Tok::Eof,
                Some(b'<') => match self.markup(pos) {
                    Some(Some(tok)) => return tok,
                    Some(None) => continue,
                    None => return Tok::Unsure,
                },
                Some(b'&') => {
                    // quick-xml's reference reading with `allow_dangling_amp`: an `&`
                    // that no `;` closes before the next `&` or `<` is text.
                    let after = rest.get(1..).unwrap_or(&[]);
                    return match memchr::memchr3(b';', b'&', b'<', after) {
                        Some(j) if after.get(j) == Some(&b';') => {
                            self.pos = pos + j + 2;
                            Tok::Ref(input.get(pos + 1..pos + 1 + j).unwrap_or(""))
                        }
                        Some(j) => {
                            self.pos = pos + 1 + j;
                            Tok::Text(input.get(pos..pos + 1 + j).unwrap_or(""))
                        }
                        None => {
                            self.pos = bytes.len();
                            Tok::Text(input.get(pos..).unwrap_or(""))
                        }
                    };
                }
                Some(_) => {
                    let end = memchr::memchr2(b'<', b'&', rest).map_or(bytes.len(), |i| pos + i);
                    self.pos = end;
                    return Tok::Text(input.get(pos..end).unwrap_or(""));
                }
            }
        }
    }

    /// The markup at `pos` (a `<`): `Some(Some(token))`, `Some(None)` for a comment
    /// or processing instruction passed over, `None` for what quick-xml must read.
    fn markup(&mut self, pos: usize) -> Option<Option<Tok<'a>>> {
        let input = self.input;
        let bytes = input.as_bytes();
        let rest = bytes.get(pos..)?;
        match rest.get(1)? {
            b'!' => {
                if rest.starts_with(b"<!--") {
                    // `<!---->` is the shortest comment.
                    self.pos = pos + closed_by(rest, 4, b"--")? + 1;
                    Some(None)
                } else if rest.starts_with(b"<![CDATA[") {
                    let gt = closed_by(rest, 9, b"]]")?;
                    self.pos = pos + gt + 1;
                    Some(Some(Tok::CData(input.get(pos + 9..pos + gt - 2)?)))
                } else {
                    None
                }
            }
            b'?' => {
                let gt = closed_by(rest, 1, b"?")?;
                // `<?>` is an error to quick-xml.
                if gt < 3 {
                    return None;
                }
                self.pos = pos + gt + 1;
                Some(None)
            }
            b'/' => {
                // Names hold no quote (see below), so `</name>` ends at that `>`.
                if let Some(&open) = self.names.last() {
                    let n = open.len();
                    if rest.get(2..2 + n) == Some(open.as_bytes()) && rest.get(2 + n) == Some(&b'>')
                    {
                        self.names.pop();
                        self.pos = pos + n + 3;
                        return Some(Some(Tok::End));
                    }
                }
                let gt = tag_end(rest, 0)?;
                let content = input.get(pos + 2..pos + gt)?;
                // quick-xml compares an all-blank name untrimmed.
                let name = match content.bytes().rposition(|b| !is_xml_space(b)) {
                    Some(last) => content.get(..=last)?,
                    None => content,
                };
                if self.names.last() != Some(&name) {
                    return None;
                }
                self.names.pop();
                self.pos = pos + gt + 1;
                Some(Some(Tok::End))
            }
            _ => {
                // One pass over the name finds its length and, for a tag without
                // attributes, its end. A quote in a name is left to quick-xml.
                let mut i = 1;
                let (gt, name_end) = loop {
                    match *rest.get(i)? {
                        b' ' | b'\t' | b'\r' | b'\n' => break (tag_end(rest, i)?, i),
                        b'>' => break (i, i),
                        b'"' | b'\'' => return None,
                        _ => i += 1,
                    }
                };
                let empty = gt >= 2 && rest.get(gt - 1) == Some(&b'/');
                let tag = input.get(pos + 1..pos + gt - usize::from(empty))?;
                let name_len = (name_end - 1).min(tag.len());
                self.names.push(tag.get(..name_len)?);
                self.empty_end = empty;
                self.pos = pos + gt + 1;
                Some(Some(Tok::Start(tag, name_len)))
            }
        }
    }

    /// Goes back to a state saved as `(pos, open names, empty_end)`; names opened
    /// since are dropped (none below the saved ones was closed).
    fn rewind(&mut self, (pos, names, empty_end): (usize, usize, bool)) {
        self.pos = pos;
        self.names.truncate(names);
        self.empty_end = empty_end;
    }
}

/// The offset of the first `>` in `markup` that `tail` precedes, with `tail` starting
/// at `from` or later.
fn closed_by(markup: &[u8], from: usize, tail: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        let i = at + memchr::memchr(b'>', markup.get(at..)?)?;
        if i >= from + tail.len() && markup.get(i - tail.len()..i) == Some(tail) {
            return Some(i);
        }
        at = i + 1;
    }
}

/// The offset of the `>` that closes the tag `tag` starts (at its `<`), searched from
/// `from` (outside quotes); a `>` inside a quoted attribute value does not close it
/// (quick-xml's `ElementParser`).
fn tag_end(tag: &[u8], from: usize) -> Option<usize> {
    let mut quote = 0u8;
    for i in memchr::memchr3_iter(b'>', b'\'', b'"', tag.get(from..)?) {
        let i = from + i;
        let b = tag.get(i).copied().unwrap_or(0);
        if quote == 0 {
            if b == b'>' {
                return Some(i);
            }
            quote = b;
        } else if b == quote {
            quote = 0;
        }
    }
    None
}

/// `(prefix, local name)` of a qualified name split at its first colon, `("", name)`
/// without one. Names are a few bytes: a plain scan costs less than `split_once`'s
/// searcher.
fn split_qname(name: &str) -> (&str, &str) {
    match name.bytes().position(|b| b == b':') {
        Some(i) => (name.get(..i).unwrap_or(""), name.get(i + 1..).unwrap_or("")),
        None => ("", name),
    }
}

/// XML's white space as quick-xml splits names on it.
fn is_xml_space(b: u8) -> bool {
    matches!(b, b' ' | b'\r' | b'\n' | b'\t')
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

    /// What a reader does with `xml`, driven the same way whichever reads it: each
    /// event, error and offset, then the warnings. Every third element is skipped,
    /// every fifth read with `next_among`.
    fn transcript(xml: &str, fast: bool) -> String {
        let mut x = Xml::new(xml.as_bytes(), "t.xml", 16);
        x.fast &= fast;
        let wanted = [(Ns::W, "p"), (Ns::W, "r"), (Ns::None, "a")];
        let mut out = String::new();
        for n in 0..10_000 {
            let ev = if n % 5 == 4 {
                x.next_among(&wanted)
            } else {
                x.next()
            };
            match ev {
                Ok(Ev::Start(s)) => {
                    out.push_str(&format!("<{:?}:{}", s.ns, s.qname));
                    for a in &s.attrs {
                        out.push_str(&format!(" {:?}:{}={:?}", a.ns, a.local, a.value));
                    }
                    if n % 3 == 2 {
                        out.push_str(&format!(" skip:{:?}", x.skip().err()));
                    }
                }
                Ok(Ev::End) => out.push_str("</"),
                Ok(Ev::Text(t)) => out.push_str(&format!("{t:?}")),
                Ok(Ev::Eof) => {
                    out.push_str("EOF");
                    break;
                }
                Err(e) => {
                    out.push_str(&format!("ERR {e}"));
                    break;
                }
            }
            out.push_str(&format!("@{:?}\n", x.progress()));
        }
        for w in &x.warnings {
            out.push_str(&format!("\nwarning {}", w.message));
        }
        out
    }

    #[test]
    fn the_lexer_reads_as_quick_xml_does_well_formed_or_not() {
        // Pieces of well-formed and malformed markup, joined in many orders and cut at
        // every length: each prefix must read the same, to the error and its offset.
        let pieces = [
            format!(r#"<w:d xmlns:w="{W}" xmlns:mc="{MC}">"#),
            "<w:p>".into(),
            "<w:r a='x>y' b=\"1&amp;2\">".into(),
            "text &lt; &#x41;&#66; &bogus; & && &;".into(),
            "<w:t xml:space=\"preserve\"> a\r\nb\rc </w:t >".into(),
            "<w:b/>".into(),
            "<w:b w:val='0'  />".into(),
            "</w:r>".into(),
            "</w:p>".into(),
            "<!-- c -- > --><!---->".into(),
            "<![CDATA[x<y]]>".into(),
            "<?pi x?><?xml version='1.0'?>".into(),
            "<mc:AlternateContent><mc:Choice Requires=\"w\"><w:p/></mc:Choice><mc:Fallback><w:r/></mc:Fallback></mc:AlternateContent>".into(),
            "<a><a><a><a><a><a><a><a><a><a><a><a><a><a><a><a><a></a></a></a></a></a></a></a></a></a></a></a></a></a></a></a></a>".into(),
            "<x><y></x></y>".into(),
            "</w:q>".into(),
            "<!DOCTYPE d [<!ENTITY e 'v'>]>".into(),
            "<!-x->".into(),
            "<![CDAT[ ]]>".into(),
            "<?>".into(),
            "<??>".into(),
            "< a>".into(),
            "</ a>".into(),
            "<>".into(),
            "</>".into(),
            "</  >".into(),
            "<w:p\t/>".into(),
            "<q\"x>".into(),
            "</q\"x>".into(),
            "<w:p/ >".into(),
            "</w:p\n>".into(),
            "&".into(),
            "<w:p a=\"unclosed>".into(),
            "\u{feff}".into(),
            "</w:d>".into(),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut cases = vec![pieces.concat()];
        for _ in 0..2000 {
            let mut doc = pieces[0].clone();
            for _ in 0..rand(12) {
                doc.push_str(&pieces[rand(pieces.len())]);
            }
            doc.push_str("</w:d>");
            cases.push(doc);
        }
        for doc in cases {
            let cuts: Vec<usize> = (0..=doc.len())
                .filter(|&i| doc.is_char_boundary(i))
                .collect();
            for cut in cuts {
                let part = &doc[..cut];
                assert_eq!(transcript(part, true), transcript(part, false), "{part:?}");
            }
        }
    }

    #[test]
    fn attributes_are_split_and_normalised_as_quick_xml_does() {
        // Every string of up to 6 of these bytes after a name, then longer random ones.
        let alphabet = [
            " ", "=", "\"", "'", "a", "b:c", "\t", "&amp;", "&#10;", "&x;", "&", "\r\n", "\u{85}",
        ];
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
