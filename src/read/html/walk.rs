//! The walk over the DOM: an explicit stack of enter/exit steps instead of recursion,
//! so no input depth can overflow the call stack (the parse cap keeps the tree shallow
//! anyway, see `parse.rs`). Entering an element decides what it is (`elements.rs`),
//! applies its inline style (`css.rs`) and pushes the exit steps that undo it; the
//! children are taken out of the DOM as they are visited, so the tree is freed while
//! the model grows.

use std::collections::BTreeMap;

use markup5ever_rcdom::{Handle, NodeData};

use super::builder::{Builder, Kind, Role as Container, Wrap};
use super::css::{self, InlineStyle};
use super::dom::{self, Ns, attrs, collapse, element_name, get};
use super::elements::{Format, Role, role};
use super::props::Props;
use super::table::TableBuild;
use super::word;
use crate::model::{Block, Properties, RevisionKind, TextStyle, Warning};

/// Quotes and tables nest at most this deep in the model; deeper ones are flattened
/// into their container (content kept) so that consumers of the model, which recurse,
/// stay shallow.
pub(super) const MAX_NESTED_CONTAINERS: usize = 32;

/// The result of a walk.
pub(super) struct Walked {
    pub body: Vec<Block>,
    pub properties: Properties,
    pub warnings: Vec<Warning>,
}

enum Step {
    Enter(Handle),
    Exit(Exit),
}

enum Exit {
    Flush(bool),
    PopStyle,
    PopPreserve,
    PopKind,
    CloseWrap,
    PageBreak,
    EndList,
    EndQuote,
    EndTable,
    EndGroup,
    EndRow,
    EndCell {
        colspan: Option<String>,
        rowspan: Option<String>,
        th: bool,
    },
    EndCaption,
    Literal(&'static str),
}

struct List {
    ordered: bool,
    next: i64,
    step: i64,
}

struct Table {
    build: TableBuild,
    /// A cell of this table is open (so a stray `<td>` below it is not its cell).
    in_cell: bool,
}

struct Walker {
    b: Builder,
    props: Props,
    lists: Vec<List>,
    tables: Vec<Table>,
    /// Embedded content skipped, by element name.
    embedded: BTreeMap<String, usize>,
    flattened_containers: usize,
}

/// Walks the document tree into blocks and properties.
pub(super) fn walk(document: &Handle) -> Walked {
    let mut w = Walker {
        b: Builder::new(),
        props: Props::default(),
        lists: Vec::new(),
        tables: Vec::new(),
        embedded: BTreeMap::new(),
        flattened_containers: 0,
    };
    let mut stack = vec![Step::Enter(document.clone())];
    while let Some(step) = stack.pop() {
        match step {
            Step::Enter(h) => w.enter(&h, &mut stack),
            Step::Exit(x) => w.exit(x),
        }
    }
    let mut warnings = Vec::new();
    for (name, n) in &w.embedded {
        let what = if n == &1 {
            format!("an <{name}> element")
        } else {
            format!("{n} <{name}> elements")
        };
        warnings.push(Warning::new(
            "embedded-content",
            format!("{what} embed other documents or media, which are not read"),
        ));
    }
    if w.flattened_containers > 0 {
        warnings.push(Warning::new(
            "too-deep",
            format!(
                "{} block quotes or tables nest more than {MAX_NESTED_CONTAINERS} deep; their content was kept without the nesting",
                w.flattened_containers
            ),
        ));
    }
    Walked {
        body: w.b.finish(),
        properties: w.props.finish(),
        warnings,
    }
}

/// Takes the children out of `h` (freeing the DOM as the walk goes) and pushes them
/// in reverse, so the first child is entered next.
fn push_children(h: &Handle, stack: &mut Vec<Step>) {
    let children = match h.children.try_borrow_mut() {
        Ok(mut c) => std::mem::take(&mut *c),
        Err(_) => match h.children.try_borrow() {
            Ok(c) => c.clone(),
            Err(_) => return,
        },
    };
    stack.extend(children.into_iter().rev().map(Step::Enter));
}

/// `hidden`, `aria-hidden="true"` or a hiding inline style; never for the root
/// elements (pages that hide the body until a script runs still have content).
fn hidden(name: &str, attrs: &[(String, String)], style: &InlineStyle) -> bool {
    if matches!(name, "html" | "body") {
        return false;
    }
    style.hidden
        || get(attrs, "hidden").is_some()
        || get(attrs, "aria-hidden").is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        || (name == "input"
            && get(attrs, "type").is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden")))
}

/// Elements whose content is not text: skipped when collecting the text of a `<pre>`.
fn skip_in_text(h: &Handle) -> bool {
    let Some((ns, name)) = element_name(h) else {
        return false;
    };
    if ns != Ns::Html {
        return ns == Ns::Svg;
    }
    let a = attrs(h);
    let style = get(&a, "style").map(css::parse).unwrap_or_default();
    matches!(role(name), Role::Skip | Role::Embedded) || hidden(name, &a, &style)
}

impl Walker {
    fn enter(&mut self, h: &Handle, stack: &mut Vec<Step>) {
        match &h.data {
            NodeData::Document => push_children(h, stack),
            NodeData::Text { contents } => {
                if let Ok(t) = contents.try_borrow() {
                    self.b.text(&t);
                }
            }
            NodeData::Comment { contents } => self.props.word_comment(contents),
            NodeData::Element { .. } => self.element(h, stack),
            _ => {}
        }
    }

    fn element(&mut self, h: &Handle, stack: &mut Vec<Step>) {
        let Some((ns, name)) = element_name(h) else {
            return;
        };
        match ns {
            Ns::Html => {}
            Ns::Svg => {
                if name == "svg" {
                    self.svg(h);
                }
                return;
            }
            Ns::MathMl => {
                if name == "math" {
                    self.math(h);
                }
                return;
            }
            Ns::Other => {
                push_children(h, stack);
                return;
            }
        }
        let a = attrs(h);
        let style = get(&a, "style").map(css::parse).unwrap_or_default();
        if hidden(name, &a, &style) || style.mso_list == Some(0) {
            return;
        }
        let role = role(name);
        let block_like = !matches!(
            role,
            Role::Inline
                | Role::Format(_)
                | Role::Link
                | Role::Revision(_)
                | Role::Image
                | Role::Input
                | Role::Select
                | Role::TextArea
                | Role::Quotation
                | Role::Break
        );
        let mut exits: Vec<Exit> = Vec::new();
        if style.break_before && role != Role::Break {
            if block_like {
                self.b.flush(false);
            }
            self.b.page_break();
        }
        if style.break_after {
            exits.push(Exit::PageBreak);
        }
        let descend = self.role_enter(h, name, role, &a, &style, &mut exits);
        // Character formatting from the element and its inline style.
        let current = self.b.style();
        let mut s = current;
        if let Role::Format(f) = role {
            match f {
                Format::Bold => s.bold = true,
                Format::Italic => s.italic = true,
                Format::Underline => s.underline = true,
                Format::Strike => s.strike = true,
                Format::Sub => s.subscript = true,
                Format::Sup => s.superscript = true,
                Format::Code => s.code = true,
            }
        }
        if role == Role::Term {
            s.bold = true;
        }
        apply_css(&mut s, &style);
        if s != current {
            self.b.push_style(s);
            exits.push(Exit::PopStyle);
        }
        if let Some(p) = style.preserve.filter(|_| role != Role::Pre) {
            self.b.push_preserve(p);
            exits.push(Exit::PopPreserve);
        }
        stack.extend(exits.into_iter().map(Step::Exit));
        if descend {
            push_children(h, stack);
        }
    }

    /// Element-specific entry; pushes exits; returns whether to visit the children.
    fn role_enter(
        &mut self,
        h: &Handle,
        name: &str,
        role: Role,
        a: &[(String, String)],
        style: &InlineStyle,
        exits: &mut Vec<Exit>,
    ) -> bool {
        match role {
            Role::Skip => false,
            Role::Embedded => {
                *self.embedded.entry(name.to_string()).or_insert(0) += 1;
                false
            }
            Role::Object => {
                *self.embedded.entry(name.to_string()).or_insert(0) += 1;
                true
            }
            Role::Title => {
                self.props.title(&dom::text_content(h, &|_| false));
                false
            }
            Role::Meta => {
                self.props.meta(a);
                false
            }
            Role::Block => {
                if (name == "p" || name == "div")
                    && let Some(kind) = word::paragraph_kind(h, a, style)
                {
                    self.b.flush(true);
                    self.b.push_kind(kind);
                    exits.push(Exit::PopKind);
                    exits.push(Exit::Flush(true));
                    return true;
                }
                self.b.flush(false);
                exits.push(Exit::Flush(false));
                true
            }
            Role::Term => {
                self.b.flush(false);
                exits.push(Exit::Flush(false));
                true
            }
            Role::Heading(n) => {
                self.b.flush(true);
                self.b.push_kind(Kind::Heading(n));
                exits.push(Exit::PopKind);
                exits.push(Exit::Flush(true));
                true
            }
            Role::List { ordered } => {
                self.b.flush(true);
                let reversed = get(a, "reversed").is_some();
                let start = get(a, "start").and_then(parse_int);
                let next = match (start, reversed) {
                    (Some(s), _) => s,
                    (None, false) => 1,
                    (None, true) => count_items(h),
                };
                self.lists.push(List {
                    ordered,
                    next,
                    step: if reversed { -1 } else { 1 },
                });
                exits.push(Exit::EndList);
                exits.push(Exit::Flush(true));
                true
            }
            Role::Item => {
                self.b.flush(true);
                let level = self.lists.len().saturating_sub(1).min(usize::from(u8::MAX)) as u8;
                let (ordered, number) = match self.lists.last_mut() {
                    Some(l) => {
                        let n = get(a, "value").and_then(parse_int).unwrap_or(l.next);
                        l.next = n.saturating_add(l.step);
                        (l.ordered, n.clamp(0, i64::from(u32::MAX)) as u32)
                    }
                    None => (false, 1),
                };
                self.b.push_kind(Kind::Item {
                    ordered,
                    level,
                    number,
                    emitted: false,
                });
                exits.push(Exit::PopKind);
                exits.push(Exit::Flush(true));
                true
            }
            Role::Quote => {
                if self.b.nesting() >= MAX_NESTED_CONTAINERS {
                    self.flattened_containers += 1;
                    self.b.flush(true);
                    exits.push(Exit::Flush(true));
                } else {
                    self.b.open_container(Container::Quote);
                    exits.push(Exit::EndQuote);
                }
                true
            }
            Role::Pre => {
                let text = dom::text_content(h, &skip_in_text);
                let text = text.trim_end_matches(['\n', '\r', ' ', '\t']);
                if !text.trim().is_empty() {
                    let language = code_language(a).or_else(|| first_code_language(h));
                    self.b.block(Block::Code {
                        language,
                        text: text.replace("\r\n", "\n"),
                    });
                }
                false
            }
            Role::Rule => {
                self.b.block(Block::Rule);
                false
            }
            Role::Break => {
                if style.break_before || style.break_after {
                    self.b.page_break();
                } else {
                    self.b.line_break();
                }
                false
            }
            Role::Table => {
                if self.b.nesting() >= MAX_NESTED_CONTAINERS {
                    self.flattened_containers += 1;
                    self.b.flush(true);
                    exits.push(Exit::Flush(true));
                } else {
                    self.b.flush(true);
                    let mut build = TableBuild::new();
                    build.presentation = get(a, "role").is_some_and(|r| {
                        r.split_whitespace().next().is_some_and(|r| {
                            r.eq_ignore_ascii_case("presentation") || r.eq_ignore_ascii_case("none")
                        })
                    });
                    self.tables.push(Table {
                        build,
                        in_cell: false,
                    });
                    exits.push(Exit::EndTable);
                }
                true
            }
            Role::Caption => {
                if self.tables.last().is_some_and(|t| !t.in_cell) {
                    self.b.open_container(Container::Cell);
                    if let Some(t) = self.tables.last_mut() {
                        t.in_cell = true;
                    }
                    exits.push(Exit::EndCaption);
                } else {
                    self.b.flush(false);
                    exits.push(Exit::Flush(false));
                }
                true
            }
            Role::Group(g) => {
                if let Some(t) = self.tables.last_mut().filter(|t| !t.in_cell) {
                    t.build.open_group(g);
                    exits.push(Exit::EndGroup);
                }
                true
            }
            Role::Row => {
                if let Some(t) = self.tables.last_mut().filter(|t| !t.in_cell) {
                    t.build.open_row();
                    exits.push(Exit::EndRow);
                } else {
                    self.b.flush(false);
                    exits.push(Exit::Flush(false));
                }
                true
            }
            Role::Cell(th) => {
                if self.tables.last().is_some_and(|t| !t.in_cell) {
                    self.b.open_container(Container::Cell);
                    if let Some(t) = self.tables.last_mut() {
                        t.in_cell = true;
                    }
                    exits.push(Exit::EndCell {
                        colspan: get(a, "colspan").map(str::to_string),
                        rowspan: get(a, "rowspan").map(str::to_string),
                        th,
                    });
                } else {
                    self.b.flush(false);
                    exits.push(Exit::Flush(false));
                }
                true
            }
            Role::Link => {
                let href = get(a, "href").map(str::trim).unwrap_or("");
                let scripted = href
                    .get(..11)
                    .is_some_and(|s| s.eq_ignore_ascii_case("javascript:"));
                if !href.is_empty() && !scripted {
                    self.b.open_wrap(Wrap::Link(href.to_string()));
                    exits.push(Exit::CloseWrap);
                }
                true
            }
            Role::Revision(kind) => {
                self.b.open_wrap(revision(kind, a));
                exits.push(Exit::CloseWrap);
                true
            }
            Role::Image => {
                self.img(a);
                false
            }
            Role::Input => {
                self.input(a);
                false
            }
            Role::Select => {
                self.select(h);
                false
            }
            Role::TextArea => {
                self.b.push_preserve(true);
                exits.push(Exit::PopPreserve);
                true
            }
            Role::Quotation => {
                self.b.literal("\u{201C}");
                exits.push(Exit::Literal("\u{201D}"));
                true
            }
            Role::Format(_) | Role::Inline => true,
        }
    }

    fn exit(&mut self, x: Exit) {
        match x {
            Exit::Flush(hard) => self.b.flush(hard),
            Exit::PopStyle => self.b.pop_style(),
            Exit::PopPreserve => self.b.pop_preserve(),
            Exit::PopKind => self.b.pop_kind(),
            Exit::CloseWrap => self.b.close_wrap(),
            Exit::PageBreak => self.b.page_break(),
            Exit::Literal(s) => self.b.literal(s),
            Exit::EndList => {
                self.b.flush(true);
                self.lists.pop();
            }
            Exit::EndQuote => {
                let blocks = self.b.close_container();
                if !blocks.is_empty() {
                    self.b.block(Block::Quote(blocks));
                }
            }
            Exit::EndTable => {
                if let Some(t) = self.tables.pop() {
                    let blocks = t.build.finish();
                    self.b.blocks(blocks);
                }
            }
            Exit::EndGroup => {
                if let Some(t) = self.tables.last_mut() {
                    t.build.close_group();
                }
            }
            Exit::EndRow => {
                if let Some(t) = self.tables.last_mut() {
                    t.build.close_row();
                }
            }
            Exit::EndCell {
                colspan,
                rowspan,
                th,
            } => {
                let blocks = self.b.close_container();
                if let Some(t) = self.tables.last_mut() {
                    t.in_cell = false;
                    t.build
                        .cell(blocks, colspan.as_deref(), rowspan.as_deref(), th);
                }
            }
            Exit::EndCaption => {
                let blocks = self.b.close_container();
                if let Some(t) = self.tables.last_mut() {
                    t.in_cell = false;
                    t.build.header_markup |= !blocks.is_empty();
                    t.build.caption.extend(blocks);
                }
            }
        }
    }

    /// `<img>`: the alt text. `alt=""` marks a decorative image (HTML Standard
    /// 4.8.4.4.6) and tiny images are tracking pixels: both are left out.
    fn img(&mut self, a: &[(String, String)]) {
        let alt = get(a, "alt");
        if alt.is_some_and(|s| s.trim().is_empty()) {
            return;
        }
        let tiny = |k: &str| get(a, k).and_then(parse_int).is_some_and(|n| n <= 2);
        if tiny("width") || tiny("height") {
            return;
        }
        let alt = alt
            .or_else(|| get(a, "title"))
            .map(collapse)
            .unwrap_or_default();
        self.b.image(alt);
    }

    /// `<input>`: the value of text fields and buttons, a box for check boxes and
    /// radio buttons (as the DOCX reader shows form check boxes).
    fn input(&mut self, a: &[(String, String)]) {
        let ty = get(a, "type").unwrap_or("text").trim().to_ascii_lowercase();
        match ty.as_str() {
            "checkbox" | "radio" => {
                let mark = if get(a, "checked").is_some() {
                    "\u{2612} "
                } else {
                    "\u{2610} "
                };
                self.b.literal(mark);
            }
            "image" => {
                if let Some(alt) = get(a, "alt").map(collapse).filter(|s| !s.is_empty()) {
                    self.b.image(alt);
                }
            }
            "password" | "file" | "hidden" | "range" | "color" => {}
            _ => {
                if let Some(v) = get(a, "value").map(collapse).filter(|s| !s.is_empty()) {
                    self.b.literal(&format!(" {v} "));
                }
            }
        }
    }

    /// `<select>`: the text of the selected option (the first one when none is).
    fn select(&mut self, h: &Handle) {
        let mut first: Option<Handle> = None;
        let mut chosen: Option<Handle> = None;
        let mut stack = vec![h.clone()];
        while let Some(n) = stack.pop() {
            if let Some((Ns::Html, "option")) = element_name(&n) {
                if first.is_none() {
                    first = Some(n.clone());
                }
                if get(&attrs(&n), "selected").is_some() {
                    chosen = Some(n.clone());
                    break;
                }
                continue;
            }
            stack.extend(n.children.borrow().iter().rev().cloned());
        }
        if let Some(o) = chosen.or(first) {
            let t = collapse(&dom::text_content(&o, &|_| false));
            if !t.is_empty() {
                self.b.literal(&format!(" {t} "));
            }
        }
    }

    /// `<svg>`: an image described by its `aria-label` or `<title>`; the drawing's
    /// internals (including `<text>` elements) are not read.
    fn svg(&mut self, h: &Handle) {
        let a = attrs(h);
        if get(&a, "aria-hidden").is_some_and(|v| v.trim() == "true") {
            return;
        }
        let label = get(&a, "aria-label")
            .map(collapse)
            .filter(|s| !s.is_empty());
        let title = || {
            h.children
                .borrow()
                .iter()
                .find(|c| matches!(element_name(c), Some((Ns::Svg, "title"))))
                .map(|t| collapse(&dom::text_content(t, &|_| false)))
                .filter(|s| !s.is_empty())
        };
        if let Some(alt) = label.or_else(title) {
            self.b.image(alt);
        }
    }

    /// `<math>`: its `alttext`, else the text of its token elements in order (so
    /// `x² + 1` reads as "x2 + 1"); `<annotation>` content (TeX source) is skipped
    /// unless it is all there is.
    fn math(&mut self, h: &Handle) {
        let a = attrs(h);
        let alt = get(&a, "alttext").map(collapse).filter(|s| !s.is_empty());
        let text = alt.unwrap_or_else(|| {
            let skip = |n: &Handle| {
                matches!(
                    element_name(n),
                    Some((Ns::MathMl, "annotation" | "annotation-xml"))
                )
            };
            let t = collapse(&dom::text_content(h, &skip));
            if t.is_empty() {
                collapse(&dom::text_content(h, &|_| false))
            } else {
                t
            }
        });
        if !text.is_empty() {
            self.b.literal(&text);
        }
    }
}

/// `<ins>`/`<del>` attributes: `datetime` (HTML Standard 4.7.3) as the date; the
/// author from `data-author`, `data-username`, `data-user`, `data-name`, else a short
/// `title` (editors such as CKEditor's track-changes plugin and ICE write these).
fn revision(kind: RevisionKind, a: &[(String, String)]) -> Wrap {
    let nonempty = |k: &str| get(a, k).map(collapse).filter(|s| !s.is_empty());
    let author = [
        "data-author",
        "data-username",
        "data-user",
        "data-name",
        "data-user-name",
    ]
    .iter()
    .find_map(|k| nonempty(k))
    .or_else(|| nonempty("title").filter(|t| t.chars().count() <= 80));
    Wrap::Revision {
        kind,
        author,
        date: nonempty("datetime"),
    }
}

fn apply_css(s: &mut TextStyle, c: &InlineStyle) {
    if let Some(b) = c.bold {
        s.bold = b;
    }
    if let Some(i) = c.italic {
        s.italic = i;
    }
    s.underline |= c.underline;
    s.strike |= c.strike;
    s.superscript |= c.superscript;
    s.subscript |= c.subscript;
}

/// HTML's "rules for parsing integers": optional sign, digits, rest ignored.
fn parse_int(v: &str) -> Option<i64> {
    let v = v.trim_start();
    let (neg, digits) = match v.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    let d: String = digits
        .chars()
        .take_while(char::is_ascii_digit)
        .take(12)
        .collect();
    let n: i64 = d.parse().ok()?;
    Some(if neg { -n } else { n })
}

/// The number of `<li>` children (the first number of a reversed list).
fn count_items(h: &Handle) -> i64 {
    h.children
        .borrow()
        .iter()
        .filter(|c| matches!(element_name(c), Some((Ns::Html, "li"))))
        .count() as i64
}

/// `language-xxx` / `lang-xxx` in a `class` attribute (the convention CommonMark
/// renderers and highlight.js use).
fn code_language(a: &[(String, String)]) -> Option<String> {
    get(a, "class")?.split_whitespace().find_map(|c| {
        c.strip_prefix("language-")
            .or_else(|| c.strip_prefix("lang-"))
            .filter(|l| !l.is_empty())
            .map(str::to_string)
    })
}

/// The language of a `<code>` that is the first element child of a `<pre>`.
fn first_code_language(h: &Handle) -> Option<String> {
    let children = h.children.borrow();
    let code = children
        .iter()
        .find(|c| matches!(c.data, NodeData::Element { .. }))?;
    if !matches!(element_name(code), Some((Ns::Html, "code"))) {
        return None;
    }
    code_language(&attrs(code))
}
