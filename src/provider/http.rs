//! The HTTP requests a driver sends for embeddings and chat.

use serde_json::{Value, json};

use super::config::{ChatModel, ProviderConfig, ProviderKind};
use super::error::ProviderError;
use crate::query::{Message, Role};

/// One HTTP request, ready for `fetch` (or any other client).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// `POST` for every request built here.
    pub method: String,
    /// The absolute URL.
    pub url: String,
    /// Header names and values, in order.
    pub headers: Vec<(String, String)>,
    /// The JSON body (UTF-8).
    pub body: String,
}

fn post(cfg: &ProviderConfig, path: &str, body: &Value) -> HttpRequest {
    let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    if let Some(key) = &cfg.api_key {
        headers.push(("Authorization".to_string(), format!("Bearer {key}")));
    }
    HttpRequest {
        method: "POST".into(),
        url: format!("{}{path}", cfg.base_url),
        headers,
        body: body.to_string(),
    }
}

/// The embeddings request for `texts`: OpenAI `POST {base}/v1/embeddings`
/// `{model, input, [dimensions], encoding_format: "float"}`, Ollama
/// `POST {base}/api/embed` `{model, input}`.
///
/// # Errors
/// [`ProviderError::NoEmbeddingModel`] when no embedding model is set.
pub fn embeddings_request(
    cfg: &ProviderConfig,
    texts: &[&str],
) -> Result<HttpRequest, ProviderError> {
    let model = cfg
        .embedding_model
        .as_deref()
        .ok_or(ProviderError::NoEmbeddingModel)?;
    Ok(match cfg.kind {
        ProviderKind::OpenAi => {
            let mut body = json!({ "model": model, "input": texts, "encoding_format": "float" });
            if let Some(d) = cfg.dimensions {
                body["dimensions"] = json!(d);
            }
            post(cfg, "/v1/embeddings", &body)
        }
        ProviderKind::Ollama => post(
            cfg,
            "/api/embed",
            &json!({ "model": model, "input": texts }),
        ),
    })
}

/// `[{role, content}]` as both APIs take them (the `pinned` flag is docrag's own).
pub fn messages_json(messages: &[Message]) -> Value {
    Value::Array(
        messages
            .iter()
            .map(|m| {
                let role = match m.role {
                    Role::System => "system",
                    Role::User => "user",
                    Role::Assistant => "assistant",
                };
                json!({ "role": role, "content": m.content })
            })
            .collect(),
    )
}

/// The chat request: OpenAI `POST {base}/v1/chat/completions`, Ollama
/// `POST {base}/api/chat`, both `{model, messages, stream}`.
///
/// # Errors
/// [`ProviderError::NoChatModel`] when neither the asked-for model nor the main
/// chat model is set.
pub fn chat_request(
    cfg: &ProviderConfig,
    messages: &[Message],
    which: ChatModel,
    stream: bool,
) -> Result<HttpRequest, ProviderError> {
    let model = cfg
        .chat_model_for(which)
        .ok_or(ProviderError::NoChatModel)?;
    let body = json!({ "model": model, "messages": messages_json(messages), "stream": stream });
    Ok(match cfg.kind {
        ProviderKind::OpenAi => post(cfg, "/v1/chat/completions", &body),
        ProviderKind::Ollama => post(cfg, "/api/chat", &body),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openai() -> ProviderConfig {
        let mut c = ProviderConfig::new(ProviderKind::OpenAi);
        c.base_url = "http://127.0.0.1:9/v1".into();
        c.embedding_model = Some("text-embedding-3-small".into());
        c.chat_model = Some("gpt-4o".into());
        c.small_model = Some("gpt-4o-mini".into());
        c.validated().unwrap()
    }

    fn header<'a>(r: &'a HttpRequest, name: &str) -> Option<&'a str> {
        r.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn openai_embeddings() {
        let mut c = openai();
        c.dimensions = Some(256);
        let r = embeddings_request(&c, &["a", "b"]).unwrap();
        assert_eq!(r.method, "POST");
        assert_eq!(r.url, "http://127.0.0.1:9/v1/embeddings");
        let body: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(
            body,
            json!({"model":"text-embedding-3-small","input":["a","b"],"dimensions":256,"encoding_format":"float"})
        );
        assert_eq!(header(&r, "Authorization"), None);
        c.api_key = Some("sk-test".into());
        let r = embeddings_request(&c, &["a"]).unwrap();
        assert_eq!(header(&r, "Authorization"), Some("Bearer sk-test"));
    }

    #[test]
    fn ollama_embeddings_and_chat() {
        let mut c = ProviderConfig::new(ProviderKind::Ollama);
        c.embedding_model = Some("nomic-embed-text".into());
        c.chat_model = Some("llama3.2".into());
        let c = c.validated().unwrap();
        let r = embeddings_request(&c, &["x"]).unwrap();
        assert_eq!(r.url, "http://127.0.0.1:11434/api/embed");
        assert_eq!(
            serde_json::from_str::<Value>(&r.body).unwrap(),
            json!({"model":"nomic-embed-text","input":["x"]})
        );
        let mut sys = Message::system("ctx");
        sys.pinned = true;
        let r = chat_request(&c, &[sys, Message::user("hi")], ChatModel::Small, true).unwrap();
        assert_eq!(r.url, "http://127.0.0.1:11434/api/chat");
        assert_eq!(
            serde_json::from_str::<Value>(&r.body).unwrap(),
            json!({"model":"llama3.2","messages":[{"role":"system","content":"ctx"},{"role":"user","content":"hi"}],"stream":true})
        );
    }

    #[test]
    fn openai_chat_small_model_and_missing_models() {
        let c = openai();
        let r = chat_request(&c, &[Message::user("q")], ChatModel::Small, false).unwrap();
        assert_eq!(r.url, "http://127.0.0.1:9/v1/chat/completions");
        let body: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(body["model"], "gpt-4o-mini");
        assert_eq!(body["stream"], false);
        let bare = ProviderConfig::new(ProviderKind::OpenAi);
        assert_eq!(
            embeddings_request(&bare, &["a"]).unwrap_err().code(),
            "no-embedding-model"
        );
        assert_eq!(
            chat_request(&bare, &[], ChatModel::Main, true)
                .unwrap_err()
                .code(),
            "no-chat-model"
        );
    }
}
