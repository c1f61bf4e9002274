//! Parsing with html5ever (the HTML Standard's tokenizer and tree builder) under a
//! nesting cap.
//!
//! html5ever itself builds a tree as deep as the markup asks, and several steps of the
//! tree-construction algorithm ("has an element in scope", closing a `p`, opening an
//! `li`) walk the whole stack of open elements, so 100,000 nested `<div>`s take
//! minutes (quadratic time). The [`Guard`] sits between the tokenizer and the tree
//! builder: when the tree builder's stack of open elements (plus its list of active
//! formatting elements) would grow past the cap, a start tag is not passed on, and
//! neither is the matching end tag. The element is then simply not created: its
//! content lands in the deepest element allowed, so the text survives and the tree
//! stays at most about `cap` deep. Browsers do the same kind of thing (Blink caps
//! the tree at 512 levels).
//!
//! The stack size is read through the tree builder's public `trace_handles` hook, at
//! a cost proportional to the depth; the guard keeps a conservative estimate (every
//! start tag may push up to [`PUSH_BOUND`] elements, e.g. `<td>` in a bare table makes
//! `tbody`, `tr` and `td`) and only recounts when the estimate crosses the cap.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use html5ever::interface::Tracer;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{LocalName, TokenizerResult};
use markup5ever_rcdom::Handle;

use super::sink::Sink;
use crate::error::ConvertError;

/// Elements one start tag can push onto the stack of open elements, at most (html5ever
/// inserts implied `html`/`body`, `tbody`/`tr`, `colgroup` and reconstructs active
/// formatting elements; the last is bounded by the formatting list, which the count
/// includes).
const PUSH_BOUND: usize = 4;

/// A parsed document.
pub(super) struct Parsed {
    /// The document node.
    pub document: Handle,
    /// Start tags that were not created because of the cap.
    pub flattened: usize,
    /// The element budget's error when the document had more start tags than its
    /// budget (`crate::read::budget`); later start tags were dropped.
    pub over_budget: Option<ConvertError>,
}

/// Parses `text` as an HTML document, keeping the tree at most about `cap` deep.
pub(super) fn parse(text: &str, cap: usize) -> Parsed {
    let opts = TreeBuilderOpts {
        // Scripting on: `<noscript>` content is raw text, which the reader drops.
        scripting_enabled: true,
        ..TreeBuilderOpts::default()
    };
    let builder = TreeBuilder::new(Sink::default(), opts);
    let guard = Guard {
        inner: builder,
        cap: cap.max(8),
        estimate: Cell::new(0),
        dropped: RefCell::new(HashMap::new()),
        flattened: Cell::new(0),
        over_budget: RefCell::new(None),
    };
    let tokenizer = Tokenizer::new(guard, TokenizerOpts::default());
    let input = BufferQueue::default();
    // A tendril holds at most u32::MAX bytes; the input limit keeps far below, but
    // feed in pieces anyway (split at char boundaries).
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = rest.len().min(1 << 30);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (head, tail) = rest.split_at(cut);
        input.push_back(StrTendril::from_slice(head));
        rest = tail;
    }
    // `Script` results only pause the tokenizer at `</script>` (nothing is executed),
    // and a `<meta charset>` met while parsing is only reported: the encoding was
    // settled before parsing (`encoding.rs`), so both just continue.
    while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
    tokenizer.end();
    let guard = tokenizer.sink;
    let flattened = guard.flattened.get();
    let over_budget = guard.over_budget.take();
    let sink = guard.inner.sink;
    Parsed {
        document: sink.dom.document.clone(),
        flattened,
        over_budget,
    }
}

/// The token filter between tokenizer and tree builder (see the module docs).
struct Guard {
    inner: TreeBuilder<Handle, Sink>,
    cap: usize,
    /// An upper bound of the tree builder's handle count.
    estimate: Cell<usize>,
    /// Start tags dropped per name, whose end tags are dropped too.
    dropped: RefCell<HashMap<LocalName, usize>>,
    flattened: Cell<usize>,
    over_budget: RefCell<Option<ConvertError>>,
}

impl Guard {
    /// The exact number of handles the tree builder holds (open elements, active
    /// formatting elements, head/form pointers, the document).
    fn count(&self) -> usize {
        let counter = Counter(Cell::new(0));
        self.inner.trace_handles(&counter);
        counter.0.get()
    }

    /// Whether this start tag may be passed to the tree builder.
    fn admit(&self, tag: &Tag) -> bool {
        if never_dropped(&tag.name) {
            return true;
        }
        let mut est = self.estimate.get();
        if est + PUSH_BOUND > self.cap {
            est = self.count();
            if est + PUSH_BOUND > self.cap {
                self.estimate.set(est);
                return false;
            }
        }
        self.estimate.set(est + PUSH_BOUND);
        true
    }
}

impl TokenSink for Guard {
    type Handle = Handle;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<Handle> {
        if let Token::TagToken(tag) = &token {
            match tag.kind {
                TagKind::StartTag => {
                    if self.over_budget.borrow().is_some() {
                        return TokenSinkResult::Continue;
                    }
                    if !self.admit(tag) {
                        *self
                            .dropped
                            .borrow_mut()
                            .entry(tag.name.clone())
                            .or_insert(0) += 1;
                        self.flattened.set(self.flattened.get() + 1);
                        return TokenSinkResult::Continue;
                    }
                    // Only tags that become nodes count (flattened ones cost nothing).
                    if let Err(e) = crate::read::budget::take(1) {
                        *self.over_budget.borrow_mut() = Some(e);
                        return TokenSinkResult::Continue;
                    }
                }
                TagKind::EndTag => {
                    let mut dropped = self.dropped.borrow_mut();
                    if let Some(n) = dropped.get_mut(&tag.name).filter(|n| **n > 0) {
                        *n -= 1;
                        return TokenSinkResult::Continue;
                    }
                }
            }
        }
        self.inner.process_token(token, line_number)
    }

    fn end(&self) {
        self.inner.end()
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.inner
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// Void elements never stay open, and raw-text elements must reach the tree builder
/// or their content (script code, style sheets) would be parsed as markup and text.
fn never_dropped(name: &LocalName) -> bool {
    matches!(
        &**name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
            | "script"
            | "style"
            | "xmp"
            | "iframe"
            | "noembed"
            | "noframes"
            | "noscript"
            | "textarea"
            | "title"
            | "plaintext"
            | "html"
            | "head"
            | "body"
    )
}

struct Counter(Cell<usize>);

impl Tracer for Counter {
    type Handle = Handle;
    fn trace_handle(&self, _node: &Handle) {
        self.0.set(self.0.get() + 1);
    }
}
