//! Destinations (RTF 1.9.1, "Destinations"): the control word that opens a group and
//! says where its text goes, and what happens when that group ends. Known ones are
//! read (header tables, `\info`, stories, fields, list labels, annotation attributes,
//! nested table properties); pictures, objects and the other non-content destinations
//! in `keywords.rs` are skipped without tokenizing their text; an unknown destination
//! after `\*` is skipped as the spec requires.

use crate::model::{AnchorMark, Comment, Inline, Note, NoteKind, Part, PartKind, PartVariant};

use super::blocks::{Story, StoryKind};
use super::fields::{FieldFrame, container};
use super::info;
use super::keywords::Kw;
use super::notes;
use super::parser::Parser;
use super::revisions::dttm;
use super::state::{Dest, Group, OnClose, ParaProps, Slot};

impl Parser<'_> {
    /// Handles `kw` if it opens a destination; returns whether it did.
    pub(super) fn destination(&mut self, kw: Kw, star: bool) -> bool {
        if kw == Kw::SkipDest || kw == Kw::Nonesttables {
            self.skip_group();
            return true;
        }
        if self.groups.len() <= 1 {
            return false;
        }
        let g = *self.top();
        if g.on_close != OnClose::Nothing {
            // This group already is a destination; a second destination word in it is
            // only obeyed for a transparent one.
            return matches!(kw, Kw::Upr | Kw::Ud | Kw::Shp | Kw::Shpinst) && star;
        }
        let in_instr = g.dest == Dest::Capture(Slot::FieldInst);
        match (g.dest, kw) {
            (_, Kw::Fonttbl) => self.set_dest(Dest::FontTable, OnClose::Nothing),
            (_, Kw::Colortbl) => self.set_dest(Dest::Discard, OnClose::Nothing),
            (_, Kw::Stylesheet) => self.set_dest(Dest::StyleSheet, OnClose::Nothing),
            (_, Kw::Listtable) => self.set_dest(Dest::ListTable, OnClose::Nothing),
            (_, Kw::Listoverridetable) => self.set_dest(Dest::OverrideTable, OnClose::Nothing),
            (Dest::ListTable, Kw::List) => {
                self.lists.begin_list();
                self.set_dest(Dest::ListTable, OnClose::List);
            }
            (Dest::ListTable, Kw::Listlevel) => {
                self.lists.begin_level();
                self.set_dest(Dest::ListTable, OnClose::ListLevel);
            }
            (Dest::OverrideTable, Kw::Listoverride) => {
                self.set_dest(Dest::OverrideTable, OnClose::Override);
            }
            (_, Kw::Revtbl) => self.capture_into(Dest::RevTbl),
            (_, Kw::Info) => self.set_dest(Dest::Info, OnClose::Nothing),
            (Dest::Info, Kw::Upr | Kw::Ud) => {}
            (Dest::Info, Kw::Title) => self.capture_into(Dest::Capture(Slot::Title)),
            (Dest::Info, Kw::Subject) => self.capture_into(Dest::Capture(Slot::Subject)),
            (Dest::Info, Kw::Author) => self.capture_into(Dest::Capture(Slot::Author)),
            (Dest::Info, Kw::Keywords) => self.capture_into(Dest::Capture(Slot::Keywords)),
            (Dest::Info, Kw::Doccomm) => self.capture_into(Dest::Capture(Slot::Doccomm)),
            (Dest::Info, Kw::Creatim | Kw::Revtim) => {
                self.time = info::Time::default();
                self.set_dest(Dest::InfoTime, OnClose::InfoTime(kw == Kw::Creatim));
            }
            (Dest::Body, Kw::Footnote) => self.begin_story(StoryKind::Note(NoteKind::Footnote)),
            (Dest::Body, Kw::Header) => self.begin_part(PartKind::Header, PartVariant::Default),
            (Dest::Body, Kw::Headerr) => self.begin_part(PartKind::Header, PartVariant::Default),
            (Dest::Body, Kw::Headerl) => self.begin_part(PartKind::Header, PartVariant::Even),
            (Dest::Body, Kw::Headerf) => self.begin_part(PartKind::Header, PartVariant::First),
            (Dest::Body, Kw::Footer) => self.begin_part(PartKind::Footer, PartVariant::Default),
            (Dest::Body, Kw::Footerr) => self.begin_part(PartKind::Footer, PartVariant::Default),
            (Dest::Body, Kw::Footerl) => self.begin_part(PartKind::Footer, PartVariant::Even),
            (Dest::Body, Kw::Footerf) => self.begin_part(PartKind::Footer, PartVariant::First),
            (Dest::Body, Kw::Annotation) => self.begin_story(StoryKind::Comment),
            (_, Kw::Atnid) => self.capture_into(Dest::Capture(Slot::AtnId)),
            (_, Kw::Atnauthor) => self.capture_into(Dest::Capture(Slot::AtnAuthor)),
            (_, Kw::Atndate) => self.capture_into(Dest::Capture(Slot::AtnDate)),
            (_, Kw::Atnref) => self.capture_into(Dest::Capture(Slot::AtnRef)),
            (_, Kw::Atnparent) => self.capture_into(Dest::Capture(Slot::AtnParent)),
            (Dest::Body, Kw::Atrfstart) => self.capture_into(Dest::Capture(Slot::AtrfStart)),
            (Dest::Body, Kw::Atrfend) => self.capture_into(Dest::Capture(Slot::AtrfEnd)),
            (_, Kw::Field) if !in_instr => {
                self.fields.push(FieldFrame::default());
                self.set_dest(g.dest, OnClose::Field);
            }
            (_, Kw::Fldinst) if !in_instr => self.capture_into(Dest::Capture(Slot::FieldInst)),
            (Dest::Body, Kw::Fldrslt) => {
                let c = container(self.fields.last().map_or("", |f| f.instr.as_str()));
                self.story().inl.open(c);
                self.set_dest(Dest::Body, OnClose::FieldResult);
            }
            (_, Kw::Listtext | Kw::Pntext) => self.capture_into(Dest::Capture(Slot::ListLabel)),
            (_, Kw::Pn) => {
                self.pn = None;
                self.set_dest(Dest::Pn, OnClose::Pn);
            }
            (_, Kw::Nesttableprops) => self.set_dest(Dest::NestProps, OnClose::Nothing),
            (_, Kw::Shp | Kw::Shpinst) => {}
            (_, Kw::Shptxt) => self.set_dest(Dest::Body, OnClose::Nothing),
            _ => return false,
        }
        true
    }

    fn set_dest(&mut self, dest: Dest, on_close: OnClose) {
        let g = self.top_mut();
        g.dest = dest;
        g.on_close = on_close;
    }

    fn capture_into(&mut self, dest: Dest) {
        let start = self.capture.len();
        self.set_dest(dest, OnClose::Capture(start));
    }

    /// A group inside `\stylesheet` opens: one style.
    pub(super) fn begin_style_entry(&mut self) {
        self.styles.begin();
        let start = self.capture.len();
        self.set_dest(Dest::StyleEntry, OnClose::StyleEntry(start));
    }

    fn begin_story(&mut self, kind: StoryKind) {
        self.stories.push(Story::new(kind));
        self.set_dest(Dest::Body, OnClose::Story);
    }

    fn begin_part(&mut self, kind: PartKind, variant: PartVariant) {
        self.begin_story(StoryKind::Part(kind, variant));
    }

    /// Finishes what the closed group `g` opened.
    pub(super) fn on_close(&mut self, g: Group) {
        match g.on_close {
            OnClose::Nothing => {}
            OnClose::Capture(start) => {
                let text = self.capture.get(start..).unwrap_or("").to_string();
                self.capture.truncate(start);
                self.captured(g.dest, text);
            }
            OnClose::StyleEntry(start) => {
                let text = self.capture.get(start..).unwrap_or("").to_string();
                self.capture.truncate(start);
                self.styles.end(&text);
            }
            OnClose::Story => {
                if self.stories.len() > 1 {
                    self.end_story(g.para);
                }
            }
            OnClose::Field => {
                self.fields.pop();
            }
            OnClose::FieldResult => self.story().inl.close(),
            OnClose::List => self.lists.end_list(),
            OnClose::ListLevel => {}
            OnClose::Override => self.lists.end_override(),
            OnClose::InfoTime(created) => {
                let t = self.time;
                info::set_time(&mut self.doc.properties, created, &t);
            }
            OnClose::Pn => {
                let pn = self.pn.take();
                self.top_mut().para.pn = pn;
            }
        }
    }

    /// A captured string is complete.
    fn captured(&mut self, dest: Dest, text: String) {
        let slot = match dest {
            Dest::RevTbl => {
                self.revs.set(&text);
                return;
            }
            Dest::Capture(slot) => slot,
            _ => return,
        };
        let trimmed = text.trim();
        let value = (!trimmed.is_empty()).then(|| trimmed.to_string());
        match slot {
            Slot::Title | Slot::Subject | Slot::Author | Slot::Keywords | Slot::Doccomm => {
                info::set(&mut self.doc.properties, slot, &text);
            }
            Slot::FieldInst => {
                if let Some(f) = self.fields.last_mut() {
                    f.instr.push_str(&text);
                }
            }
            Slot::ListLabel => self.story().label = Some(text),
            Slot::AtnId => self.atn.initials = value,
            Slot::AtnAuthor => self.atn.author = value,
            Slot::AtnDate => {
                self.atn.date = trimmed.parse::<i64>().ok().and_then(|v| dttm(v as i32));
            }
            Slot::AtnRef => self.atn.id = value,
            Slot::AtnParent => self.atn.parent = value,
            Slot::AtrfStart | Slot::AtrfEnd => {
                if let Some(id) = value {
                    let mark = if slot == Slot::AtrfStart {
                        AnchorMark::Start
                    } else {
                        AnchorMark::End
                    };
                    self.story()
                        .inl
                        .push(Inline::CommentAnchor { id, mark }, None);
                }
            }
        }
    }

    /// Ends the story on top of the story stack (its last paragraph has props `p`).
    pub(super) fn end_story(&mut self, p: ParaProps) {
        self.end_para(p, None);
        let Some(story) = self.stories.pop() else {
            return;
        };
        let kind = story.kind;
        let blocks = story.finish(&self.rowdef);
        match kind {
            StoryKind::Body => {}
            StoryKind::Note(kind) => {
                let id = (self.doc.notes.len() + 1).to_string();
                self.doc.notes.push(Note {
                    kind,
                    id: id.clone(),
                    blocks,
                });
                self.story().inl.push(Inline::NoteRef { kind, id }, None);
            }
            StoryKind::Part(kind, variant) => {
                if !blocks.is_empty() {
                    self.doc.parts.push(Part {
                        kind,
                        variant,
                        section: self.section,
                        blocks,
                    });
                }
            }
            StoryKind::Comment => {
                self.comments_seen += 1;
                let atn = std::mem::take(&mut self.atn);
                let id = atn
                    .id
                    .unwrap_or_else(|| format!("rtf-comment-{}", self.comments_seen));
                self.doc.comments.push(Comment {
                    id: id.clone(),
                    author: atn.author,
                    initials: atn.initials,
                    date: atn.date,
                    parent: atn.parent,
                    text: notes::comment_text(&blocks),
                });
                let mark = AnchorMark::Reference;
                self.story()
                    .inl
                    .push(Inline::CommentAnchor { id, mark }, None);
            }
        }
    }
}
