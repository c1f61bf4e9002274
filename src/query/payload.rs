//! The chat payload: messages in cache-friendly order, and the token accounting of
//! one question.
//!
//! Order: one system message holding the static instructions and the selected
//! document context (the *cached prefix*), then the chat history, then the question.
//! Providers cache prompts by exact prefix, so the first message is built only from
//! the instructions and the context, never from the question or the time: two
//! questions that select the same context produce byte-identical first messages and
//! hit the cache. The context message is *pinned*, so [`super::history`] never evicts
//! it.

use serde::Serialize;

use super::retriever::Retrieval;
use super::untrusted;
use crate::tokens;

/// Who a message is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions and context from the application.
    System,
    /// The person asking.
    User,
    /// The model's earlier answers.
    Assistant,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    /// Who it is from.
    pub role: Role,
    /// The text.
    pub content: String,
    /// Whether history reduction must keep it (the injected context message).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
}

impl Message {
    /// An unpinned message.
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
            pinned: false,
        }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Message::new(Role::User, content)
    }

    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Self {
        Message::new(Role::Assistant, content)
    }

    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Message::new(Role::System, content)
    }

    /// Tokens in the content (o200k_base; message framing is not counted).
    pub fn tokens(&self) -> usize {
        tokens::count(&self.content)
    }
}

/// A request to a chat model: what to send and the reply limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelRequest {
    /// The messages, in order.
    pub messages: Vec<Message>,
    /// The most tokens the reply may have.
    pub max_tokens: usize,
}

/// The line between the instructions and the document block in the context message.
pub const CONTEXT_HEADING: &str = "Use this document context to answer the user's question.";

/// The context message: `instructions`, [`CONTEXT_HEADING`], the data notice and
/// `parts` inside one untrusted-content block. Pinned. The same arguments always give
/// the same bytes.
pub fn context_message<'a>(
    instructions: &str,
    parts: impl IntoIterator<Item = &'a str>,
) -> Message {
    let mut content = String::with_capacity(instructions.len() + 256);
    content.push_str(instructions.trim_end());
    content.push_str("\n\n");
    content.push_str(CONTEXT_HEADING);
    content.push('\n');
    content.push_str(untrusted::DATA_NOTICE);
    content.push('\n');
    content.push_str(&untrusted::wrap(parts));
    Message {
        role: Role::System,
        content,
        pinned: true,
    }
}

/// The assembled messages of one question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Payload {
    /// Context message, history, question.
    pub messages: Vec<Message>,
}

impl Payload {
    /// `context`, then `history` (as given; reduce it first), then `question` as a
    /// user message.
    pub fn new(context: Message, history: &[Message], question: &str) -> Self {
        let mut messages = Vec::with_capacity(history.len() + 2);
        messages.push(context);
        messages.extend(history.iter().cloned());
        messages.push(Message::user(question));
        Payload { messages }
    }

    /// The cached prefix: the content of the first message (empty when there is none).
    pub fn cached_prefix(&self) -> &str {
        self.messages.first().map_or("", |m| m.content.as_str())
    }
}

/// Which way a question was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathTaken {
    /// The collection is below the send-everything threshold: every chunk was sent.
    Everything,
    /// Routing chose documents that fit the allowance: they were sent whole.
    RoutedWhole,
    /// Routing answered INDEX: the index document was sent.
    Index,
    /// A pointed question: one collection-wide top-k, then enrichment.
    Pointed,
    /// A broad question: distribution over documents, then enrichment.
    Broad,
    /// Entire-document mode (or adaptive below the cap): full text, no retrieval.
    Entire,
    /// Adaptive RAG: retrieved chunks first, then the full text.
    AdaptiveRag,
}

/// Tokens of one question by purpose (o200k_base), and the path taken with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Accounting {
    /// The path taken.
    pub path: PathTaken,
    /// Why that path, in one sentence.
    pub reason: String,
    /// Tokens of routing and classification requests (0 without a model).
    pub routing_tokens: usize,
    /// Tokens of retrieved chunks (or whole documents) in the context.
    pub retrieval_tokens: usize,
    /// Tokens of chunks enrichment added to the context.
    pub enrichment_tokens: usize,
    /// Tokens of the chat history sent.
    pub history_tokens: usize,
    /// Tokens of the question.
    pub question_tokens: usize,
    /// Tokens of the whole context message (instructions, notice, block).
    pub context_tokens: usize,
    /// Tokens of every message in the payload.
    pub total_tokens: usize,
    /// Whether the question was classified broad (None when not classified).
    pub broad: Option<bool>,
    /// Whether document text was truncated to fit.
    pub truncated: bool,
    /// Which retrieval ran; None (and left out of the JSON) when the question carried
    /// no query embedding, so BM25 ran as always, or when nothing was retrieved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retrieval: Option<Retrieval>,
}

impl Accounting {
    /// An accounting with all counts zero.
    pub fn new(path: PathTaken, reason: impl Into<String>) -> Self {
        Accounting {
            path,
            reason: reason.into(),
            routing_tokens: 0,
            retrieval_tokens: 0,
            enrichment_tokens: 0,
            history_tokens: 0,
            question_tokens: 0,
            context_tokens: 0,
            total_tokens: 0,
            broad: None,
            truncated: false,
            retrieval: None,
        }
    }

    /// Fills the message-derived counts (context, history, question, total) from
    /// `payload`, whose first message is the context and last is the question.
    pub fn count_payload(&mut self, payload: &Payload) {
        let counts: Vec<usize> = payload.messages.iter().map(Message::tokens).collect();
        let n = counts.len();
        self.context_tokens = counts.first().copied().unwrap_or(0);
        self.question_tokens = if n >= 2 { counts[n - 1] } else { 0 };
        self.history_tokens = if n > 2 {
            counts[1..n - 1].iter().sum()
        } else {
            0
        };
        self.total_tokens = counts.iter().sum();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_context_history_question() {
        let ctx = context_message("Rules.", ["chunk one", "chunk two"]);
        let hist = [Message::user("q0"), Message::assistant("a0")];
        let p = Payload::new(ctx, &hist, "q1");
        let roles: Vec<Role> = p.messages.iter().map(|m| m.role).collect();
        assert_eq!(
            roles,
            [Role::System, Role::User, Role::Assistant, Role::User]
        );
        assert!(p.messages[0].pinned);
        assert!(p.cached_prefix().starts_with("Rules.\n\n"));
        assert!(p.cached_prefix().ends_with(untrusted::BLOCK_CLOSE));
        assert_eq!(p.messages[3].content, "q1");
    }

    #[test]
    fn prefix_is_byte_identical_for_identical_context() {
        let a = Payload::new(context_message("R", ["x", "y"]), &[], "first?");
        let b = Payload::new(
            context_message("R", ["x", "y"]),
            &[Message::user("first?"), Message::assistant("ok")],
            "second?",
        );
        assert_eq!(a.cached_prefix().as_bytes(), b.cached_prefix().as_bytes());
    }

    #[test]
    fn accounting_splits_the_payload() {
        let p = Payload::new(
            context_message("R", ["x"]),
            &[Message::user("hello world")],
            "hello world",
        );
        let mut a = Accounting::new(PathTaken::Pointed, "test");
        a.count_payload(&p);
        assert_eq!(a.question_tokens, 2);
        assert_eq!(a.history_tokens, 2);
        assert_eq!(a.total_tokens, a.context_tokens + 4);
        let json = serde_json::to_value(&a).unwrap();
        assert_eq!(json["path"], "pointed");
    }
}
