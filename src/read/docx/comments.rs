//! Comments (ECMA-376 Part 1, 17.13.4: `comments.xml`, `w:comment`) and their reply
//! threads (`commentsExtended.xml`, [MS-DOCX] 2.5.x `w15:commentEx`).
//!
//! A comment's text is its paragraphs' plain text joined by "\n". A reply's
//! `w15:commentEx/@w15:paraIdParent` names the `w14:paraId` of the last paragraph of
//! the comment it answers; that paragraph id is mapped back to the comment's id.
//! An empty `w:author` is treated as absent.

use std::collections::HashMap;

use crate::error::ConvertError;
use crate::model::{Block, Comment};

use super::body::read_blocks;
use super::ctx::Ctx;
use super::xml::{Ev, Ns, Xml};

/// Reads `comments.xml`; returns the comments and, per comment id, the paraId of its
/// last paragraph.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_comments(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
) -> Result<(Vec<Comment>, HashMap<String, String>), ConvertError> {
    let mut out = Vec::new();
    let mut para_ids = HashMap::new();
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "comment") => {
                let mut c = Comment {
                    id: s.w("id").unwrap_or("").to_string(),
                    author: s
                        .w("author")
                        .filter(|a| !a.trim().is_empty())
                        .map(str::to_string),
                    initials: s
                        .w("initials")
                        .filter(|a| !a.trim().is_empty())
                        .map(str::to_string),
                    date: s
                        .w("date")
                        .filter(|a| !a.trim().is_empty())
                        .map(str::to_string),
                    ..Comment::default()
                };
                cx.last_para_id = None;
                cx.fields.clear();
                let blocks = read_blocks(x, cx)?;
                c.text = blocks_text(&blocks);
                if let Some(p) = cx.last_para_id.take() {
                    para_ids.insert(c.id.clone(), p);
                }
                out.push(c);
            }
            Ev::Start(s) if s.is(Ns::W, "comments") => {}
            Ev::Start(s) => {
                cx.unknown(&s);
                x.skip()?;
            }
            Ev::End | Ev::Text(_) => {}
            Ev::Eof => return Ok((out, para_ids)),
        }
    }
}

/// Plain text of blocks, paragraphs joined by "\n", trimmed at the end.
pub(crate) fn blocks_text(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        b.plain_text(&mut s);
    }
    s.trim_end_matches('\n').to_string()
}

/// Reads `commentsExtended.xml` into paraId -> parent paraId.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_comments_ex(x: &mut Xml<'_>) -> Result<HashMap<String, String>, ConvertError> {
    let mut parents = HashMap::new();
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.ns == Ns::MsWord && s.local == "commentEx" {
                    if let (Some(p), Some(parent)) =
                        (s.attr_any("paraId"), s.attr_any("paraIdParent"))
                    {
                        parents.insert(p.to_string(), parent.to_string());
                    }
                }
            }
            Ev::End | Ev::Text(_) => {}
            Ev::Eof => return Ok(parents),
        }
    }
}

/// Sets [`Comment::parent`] from the paraId links.
pub(crate) fn link_replies(
    comments: &mut [Comment],
    para_ids: &HashMap<String, String>,
    parents: &HashMap<String, String>,
) {
    let by_para: HashMap<&str, &str> = para_ids
        .iter()
        .map(|(c, p)| (p.as_str(), c.as_str()))
        .collect();
    let links: Vec<Option<String>> = comments
        .iter()
        .map(|c| {
            let pid = para_ids.get(&c.id)?;
            let parent_pid = parents.get(pid)?;
            by_para.get(parent_pid.as_str()).map(|s| s.to_string())
        })
        .collect();
    for (c, parent) in comments.iter_mut().zip(links) {
        if parent.as_deref() != Some(c.id.as_str()) {
            c.parent = parent;
        }
    }
}
