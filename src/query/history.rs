//! History reduction: fit the chat history into a token budget by evicting the oldest
//! turns, never a pinned message.
//!
//! A turn is a user message with the assistant messages that answer it. Turns are
//! evicted whole, oldest first, until the history fits. Pinned messages (the injected
//! context message, see [`super::payload::context_message`]) and system messages are
//! never evicted, so grounding is never traded for history; when they alone are over
//! the budget the result says so instead of dropping them. Assistant messages before
//! the first user message form a turn of their own.
//!
//! Tokens are o200k_base tokens of the message contents; message framing is not
//! counted.

use super::payload::{Message, Role};

/// The result of [`reduce`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduced {
    /// The kept messages, in their original order.
    pub messages: Vec<Message>,
    /// How many messages were evicted.
    pub evicted: usize,
    /// Tokens of the kept messages.
    pub tokens: usize,
    /// Whether the kept messages are still over the budget (only pinned and system
    /// messages are left to evict).
    pub over_budget: bool,
}

fn keeps(m: &Message) -> bool {
    m.pinned || m.role == Role::System
}

/// Evicts the oldest user/assistant turns of `history` until its tokens are at most
/// `budget_tokens`.
pub fn reduce(history: &[Message], budget_tokens: usize) -> Reduced {
    let tokens: Vec<usize> = history.iter().map(Message::tokens).collect();
    let mut total: usize = tokens.iter().sum();
    let mut alive = vec![true; history.len()];
    let mut evicted = 0usize;
    let mut i = 0usize;
    while total > budget_tokens && i < history.len() {
        // Find the next turn: from the first evictable message at or after i, through
        // the messages up to (not including) the next user message.
        while i < history.len() && keeps(&history[i]) {
            i += 1;
        }
        if i >= history.len() {
            break;
        }
        let mut j = i + 1;
        while j < history.len() && history[j].role != Role::User {
            j += 1;
        }
        for k in i..j {
            if !keeps(&history[k]) {
                alive[k] = false;
                total -= tokens[k];
                evicted += 1;
            }
        }
        i = j;
    }
    let messages: Vec<Message> = history
        .iter()
        .zip(&alive)
        .filter(|(_, a)| **a)
        .map(|(m, _)| m.clone())
        .collect();
    Reduced {
        messages,
        evicted,
        tokens: total,
        over_budget: total > budget_tokens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::payload::context_message;

    fn turn(q: &str, a: &str) -> [Message; 2] {
        [Message::user(q), Message::assistant(a)]
    }

    #[test]
    fn fits_untouched() {
        let h: Vec<Message> = turn("hello world", "hello world").into();
        let r = reduce(&h, 100);
        assert_eq!(r.messages, h);
        assert_eq!(r.evicted, 0);
        assert_eq!(r.tokens, 4);
    }

    #[test]
    fn evicts_oldest_pairs_first() {
        let mut h = Vec::new();
        h.extend(turn("one one one", "uno"));
        h.extend(turn("two", "dos"));
        h.extend(turn("three", "tres"));
        let full: usize = h.iter().map(Message::tokens).sum();
        let last_two: usize = h[2..].iter().map(Message::tokens).sum();
        let r = reduce(&h, last_two);
        assert_eq!(r.evicted, 2);
        assert_eq!(r.messages, h[2..].to_vec());
        assert!(r.tokens < full);
        assert!(!r.over_budget);
    }

    #[test]
    fn never_evicts_the_pinned_context() {
        let ctx = context_message("Rules", ["a long chunk of document text here"]);
        let mut h = vec![Message::user("old question"), ctx.clone()];
        h.extend(turn("q", "a"));
        let r = reduce(&h, 0);
        assert_eq!(r.messages, vec![ctx]);
        assert!(r.over_budget);
        assert_eq!(r.evicted, 3);
    }

    #[test]
    fn user_then_user_and_leading_assistant() {
        let h = vec![
            Message::assistant("greeting text"),
            Message::user("u1"),
            Message::user("u2"),
            Message::assistant("a2"),
        ];
        let keep: usize = h[2..].iter().map(Message::tokens).sum();
        let r = reduce(&h, keep);
        assert_eq!(r.messages, h[2..].to_vec());
        let r = reduce(&[], 0);
        assert!(r.messages.is_empty() && !r.over_budget);
    }
}
