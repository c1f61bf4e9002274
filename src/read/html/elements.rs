//! What each HTML element is to the reader (HTML Standard section 4, by element).
//! Elements not listed are descended into as inline content without a warning: the
//! web has too many custom and obsolete elements to report them.

use super::table::Group;
use crate::model::RevisionKind;

/// The reader's view of an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// Dropped with its content (scripts, styles, templates, metadata, media).
    Skip,
    /// Embedded content the reader cannot open (`iframe`, `embed`, `frame`, `applet`):
    /// dropped and counted in a warning.
    Embedded,
    /// `<object>`: the object is counted in a warning, its fallback content is read.
    Object,
    /// `<title>`.
    Title,
    /// `<meta>`.
    Meta,
    /// A block that ends and starts paragraphs.
    Block,
    /// `<h1>`-`<h6>`.
    Heading(u8),
    /// `<ul>`, `<ol>`, `<menu>`, `<dir>`.
    List { ordered: bool },
    /// `<li>`.
    Item,
    /// `<dt>`: a term, shown bold.
    Term,
    /// `<blockquote>`.
    Quote,
    /// `<pre>`, `<listing>`, `<xmp>`, `<plaintext>`.
    Pre,
    /// `<hr>`.
    Rule,
    /// `<br>`.
    Break,
    /// `<table>`.
    Table,
    /// `<caption>`.
    Caption,
    /// `<thead>`, `<tbody>`, `<tfoot>`.
    Group(Group),
    /// `<tr>`.
    Row,
    /// `<td>` (false) or `<th>` (true).
    Cell(bool),
    /// `<a>`.
    Link,
    /// `<ins>` / `<del>`.
    Revision(RevisionKind),
    /// `<img>`.
    Image,
    /// `<input>`.
    Input,
    /// `<select>`.
    Select,
    /// `<textarea>`.
    TextArea,
    /// `<q>`: an inline quotation, shown in quotation marks.
    Quotation,
    /// Inline formatting.
    Format(Format),
    /// Anything else: inline, descended into.
    Inline,
}

/// Character formatting an element implies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Bold,
    Italic,
    Underline,
    Strike,
    Sub,
    Sup,
    Code,
}

/// The role of an HTML element by local name (html5ever lower-cases names).
pub(super) fn role(name: &str) -> Role {
    use Role::*;
    match name {
        "script" | "style" | "template" | "noscript" | "link" | "base" | "col" | "colgroup"
        | "datalist" | "option" | "optgroup" | "param" | "source" | "track" | "area" | "map"
        | "audio" | "video" | "noembed" | "noframes" | "slot" => Skip,
        "iframe" | "embed" | "frame" | "frameset" | "applet" => Embedded,
        "object" => Object,
        "title" => Title,
        "meta" => Meta,
        "html" | "body" | "head" | "p" | "div" | "section" | "article" | "main" | "nav"
        | "aside" | "header" | "footer" | "address" | "center" | "hgroup" | "details"
        | "summary" | "form" | "fieldset" | "legend" | "figure" | "figcaption" | "dl" | "dd"
        | "search" | "dialog" => Block,
        "h1" => Heading(1),
        "h2" => Heading(2),
        "h3" => Heading(3),
        "h4" => Heading(4),
        "h5" => Heading(5),
        "h6" => Heading(6),
        "ul" | "menu" | "dir" => List { ordered: false },
        "ol" => List { ordered: true },
        "li" => Item,
        "dt" => Term,
        "blockquote" => Quote,
        "pre" | "listing" | "xmp" | "plaintext" => Pre,
        "hr" => Rule,
        "br" => Break,
        "table" => Table,
        "caption" => Caption,
        "thead" => Group(super::table::Group::Head),
        "tbody" => Group(super::table::Group::Body),
        "tfoot" => Group(super::table::Group::Foot),
        "tr" => Row,
        "td" => Cell(false),
        "th" => Cell(true),
        "a" => Link,
        "ins" => Revision(RevisionKind::Insertion),
        "del" => Revision(RevisionKind::Deletion),
        "img" => Image,
        "input" => Input,
        "select" => Select,
        "textarea" => TextArea,
        "q" => Quotation,
        "b" | "strong" => Format(self::Format::Bold),
        "i" | "em" | "cite" | "dfn" | "var" => Format(self::Format::Italic),
        "u" => Format(self::Format::Underline),
        "s" | "strike" => Format(self::Format::Strike),
        "sub" => Format(self::Format::Sub),
        "sup" => Format(self::Format::Sup),
        "code" | "kbd" | "samp" | "tt" => Format(self::Format::Code),
        _ => Inline,
    }
}
