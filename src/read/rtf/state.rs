//! Group state (RTF 1.9.1, "Conventions of an RTF Reader"): every `{` saves the
//! character and paragraph formatting, the destination and `\ucN`, every `}` restores
//! them. The reader keeps these on an explicit stack, never on the call stack.

use encoding_rs::Encoding;

use crate::model::TextStyle;

use super::layout::{DEFAULT_FONT_SIZE, ParaLayout};

/// Where text in the current group goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dest {
    /// Document content of the current story.
    Body,
    /// Text dropped, control words still obeyed (`\colortbl`, `\nesttableprops`, ...).
    Discard,
    /// `\fonttbl`: `\fN`, `\fcharsetN`, `\cpgN` are read.
    FontTable,
    /// `\stylesheet` (entries are its child groups).
    StyleSheet,
    /// One style of the stylesheet; its text is the style name.
    StyleEntry,
    /// `\listtable`, `\list`, `\listlevel`.
    ListTable,
    /// `\listoverridetable`, `\listoverride`.
    OverrideTable,
    /// `\*\revtbl`: author names separated by `;`.
    RevTbl,
    /// `\info`.
    Info,
    /// Text kept as a string: an `\info` item, a field instruction, a list label, an
    /// annotation attribute.
    Capture(Slot),
    /// `\creatim` / `\revtim`: `\yr \mo \dy \hr \min`.
    InfoTime,
    /// `\*\pn`: legacy paragraph numbering properties.
    Pn,
    /// `\*\nesttableprops`: the row definition of a nested table; text dropped.
    NestProps,
}

/// What a captured string is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Title,
    Subject,
    Author,
    Keywords,
    Doccomm,
    FieldInst,
    ListLabel,
    AtnId,
    AtnAuthor,
    AtnDate,
    AtnRef,
    AtnParent,
    AtrfStart,
    AtrfEnd,
}

/// Tracked-change character properties (`\revised`, `\deleted`, `\revauthN`,
/// `\revauthdelN`, `\revdttmN`, `\revdttmdelN`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RevProps {
    pub inserted: bool,
    pub deleted: bool,
    pub author: Option<i32>,
    pub author_del: Option<i32>,
    pub date: Option<i32>,
    pub date_del: Option<i32>,
}

/// Character formatting.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CharProps {
    /// What Markdown can show.
    pub style: TextStyle,
    /// `\v`: hidden text is not content.
    pub hidden: bool,
    /// `\fN`: the font, whose charset picks the code page of `\'hh`.
    pub font: i32,
    /// The code page of `\'hh` and 8-bit text under this font.
    pub enc: &'static Encoding,
    /// Tracked change.
    pub rev: RevProps,
    /// `\fsN`: font size, half-points.
    pub size: u16,
}

/// Paragraph formatting (reset by `\pard`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ParaProps {
    /// `\sN`: paragraph style.
    pub style: i32,
    /// `\outlinelevelN` given directly.
    pub outline: Option<u8>,
    /// `\lsN`: list override number (0 = none).
    pub ls: i32,
    /// `\ilvlN`: list level.
    pub ilvl: u8,
    /// `\intbl`.
    pub intbl: bool,
    /// `\itapN`: table nesting depth.
    pub itap: u16,
    /// Legacy `\pn` numbering: (numbered, level).
    pub pn: Option<(bool, u8)>,
    /// Spacing, indents and keep flags (the page estimate).
    pub layout: ParaLayout,
}

/// What a group does when it closes (only the group that opened a destination acts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OnClose {
    Nothing,
    /// Finish the captured string that starts at this byte of the capture buffer.
    Capture(usize),
    /// Finish the story on top of the story stack.
    Story,
    /// End a `\field`.
    Field,
    /// End a `\fldrslt`.
    FieldResult,
    /// End a stylesheet entry whose name starts at this byte of the capture buffer.
    StyleEntry(usize),
    /// End a `\list`.
    List,
    /// End a `\listlevel`.
    ListLevel,
    /// End a `\listoverride`.
    Override,
    /// End `\creatim` (true) or `\revtim` (false).
    InfoTime(bool),
    /// Apply `\pn` properties to the enclosing group.
    Pn,
}

/// The state saved by `{`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Group {
    pub dest: Dest,
    pub chr: CharProps,
    pub para: ParaProps,
    /// `\ucN`: bytes of fallback after each `\uN`.
    pub uc: u8,
    pub on_close: OnClose,
}

impl Group {
    /// The state outside any group.
    pub(crate) fn root(enc: &'static Encoding) -> Self {
        Group {
            dest: Dest::Body,
            chr: CharProps {
                style: TextStyle::default(),
                hidden: false,
                font: 0,
                enc,
                rev: RevProps::default(),
                size: DEFAULT_FONT_SIZE,
            },
            para: ParaProps::default(),
            uc: 1,
            on_close: OnClose::Nothing,
        }
    }

    /// A child group: same state, nothing to do on close.
    pub(crate) fn child(&self) -> Self {
        Group {
            on_close: OnClose::Nothing,
            ..*self
        }
    }
}
