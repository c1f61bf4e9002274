//! The `Enricher` and `Expansion` JS classes: thin wrappers over [`crate::enrich`].
//! Records come in as the plain metadata objects `convert` returns (or the same
//! objects read back from a store); results go out as plain arrays of numbers and
//! token counts; errors as `DocragError`s with the [`EnrichError::code`].

use std::rc::Rc;

use js_sys::{Array, Object, Reflect, Uint32Array};
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::ConvertOptions;
use crate::chunk::Labels;
use crate::enrich::{
    DEFAULT_INDEX_PERCENT, EnrichError, Enricher, Expansion, INDEX_ANSWER_PROMPT, ROUTING_PROMPT,
    RelatedOptions,
};
use crate::metadata::{MetaValue, Metadata};

use super::errors::{INTERNAL, INVALID_INPUT, from_convert, js_error};

/// The JS error for an enrichment error.
fn from_enrich(err: &EnrichError) -> JsValue {
    js_error(err.code(), &err.to_string())
}

/// One JS value as a metadata value: strings stay strings, whole numbers become
/// integers, other numbers become text (so validation names them), booleans become
/// "yes"/"no"; `null`/`undefined` count as absent.
fn meta_value(v: &JsValue) -> Option<MetaValue> {
    if let Some(s) = v.as_string() {
        return Some(MetaValue::Str(s));
    }
    if let Some(n) = v.as_f64() {
        let whole = n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15;
        return Some(if whole {
            MetaValue::Int(n as i64)
        } else {
            MetaValue::Str(n.to_string())
        });
    }
    if let Some(b) = v.as_bool() {
        return Some(MetaValue::flag(b));
    }
    if v.is_null() || v.is_undefined() {
        return None;
    }
    Some(MetaValue::Str(String::from("[object]")))
}

/// A flat JS object as a metadata record (numbers -> integers, booleans -> yes/no,
/// other objects -> `[object]`, null/undefined fields skipped).
pub(crate) fn metadata_from_object(obj: &Object) -> Metadata {
    let mut m = Metadata::new();
    // A record whose entries cannot be read (a throwing Proxy) reads as empty; the
    // caller's validation then names its missing fields.
    let entries = super::objects::entries(obj).unwrap_or_default();
    for entry in entries.iter() {
        let pair = Array::from(&entry);
        let (Some(key), value) = (pair.get(0).as_string(), pair.get(1)) else {
            continue;
        };
        if let Some(v) = meta_value(&value) {
            m.set(&key, v);
        }
    }
    m
}

fn records(value: &JsValue) -> Result<Vec<Metadata>, JsValue> {
    if !Array::is_array(value) {
        return Err(js_error(
            INVALID_INPUT,
            "new Enricher() takes an array of metadata records (the `metadata` array of convert's result)",
        ));
    }
    let array = Array::from(value);
    let mut out = Vec::with_capacity(array.length() as usize);
    for (i, item) in array.iter().enumerate() {
        let Some(obj) = item.dyn_ref::<Object>().filter(|_| item.is_object()) else {
            return Err(js_error(
                INVALID_INPUT,
                &format!("metadata record #{i} is not an object"),
            ));
        };
        out.push(metadata_from_object(obj));
    }
    Ok(out)
}

/// `undefined` -> default labels; an object of `default -> renamed` strings ->
/// validated renames (the same rules as `convert`'s `labels` option).
fn labels(value: &JsValue) -> Result<Labels, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Labels::default());
    }
    let Some(obj) = value.dyn_ref::<Object>().filter(|_| value.is_object()) else {
        return Err(js_error(
            INVALID_INPUT,
            "labels must be an object of label renames",
        ));
    };
    let mut options = ConvertOptions::new();
    let entries = super::objects::entries(obj).map_err(|e| {
        js_error(
            INVALID_INPUT,
            &format!("labels could not be read: {}", super::objects::describe(&e)),
        )
    })?;
    for entry in entries.iter() {
        let pair = Array::from(&entry);
        let (Some(from), Some(to)) = (pair.get(0).as_string(), pair.get(1).as_string()) else {
            return Err(js_error(
                INVALID_INPUT,
                "every label rename must be a string",
            ));
        };
        options = options.with_label(from, to);
    }
    Labels::from_options(&options).map_err(|e| from_convert(&e))
}

/// A JS token budget: a whole number >= 0, or `Infinity` for none.
fn budget(value: f64, what: &str) -> Result<u64, JsValue> {
    if value == f64::INFINITY {
        return Ok(u64::MAX);
    }
    if value.is_nan() || value < 0.0 || value.fract() != 0.0 {
        return Err(js_error(
            INVALID_INPUT,
            &format!("{what} must be a whole number of tokens >= 0 (or Infinity), got {value}"),
        ));
    }
    Ok(value as u64)
}

/// A plain JS array of numbers, built by one `Array.from` over a typed-array copy
/// (element-by-element construction costs ~60 ns per number; this is ~1 ns).
fn numbers(values: impl IntoIterator<Item = u32>) -> Array {
    let v: Vec<u32> = values.into_iter().collect();
    Array::from(&Uint32Array::from(&v[..]).into())
}

/// One document's enrichment engine (`Enricher` in JS).
#[wasm_bindgen(js_name = Enricher)]
pub struct JsEnricher {
    inner: Rc<Enricher>,
}

/// The JS index-entry shape (`IndexEntry` in the d.ts).
#[derive(Serialize)]
struct JsIndexEntry<'a> {
    text: String,
    parts: &'a [String],
    tokens: usize,
}

#[wasm_bindgen(js_class = Enricher)]
impl JsEnricher {
    /// Validates and indexes one document's metadata records (any order).
    #[wasm_bindgen(constructor)]
    pub fn new(records_value: JsValue, labels_value: JsValue) -> Result<JsEnricher, JsValue> {
        super::install_panic_hook();
        let recs = records(&records_value)?;
        let labels = labels(&labels_value)?;
        let inner = Enricher::with_labels(&recs, &labels).map_err(|e| from_enrich(&e))?;
        Ok(JsEnricher {
            inner: Rc::new(inner),
        })
    }

    /// Number of chunks.
    #[wasm_bindgen(getter, js_name = chunkCount)]
    pub fn chunk_count(&self) -> u32 {
        u32::try_from(self.inner.chunk_count()).unwrap_or(u32::MAX)
    }

    /// The document id.
    #[wasm_bindgen(getter, js_name = docId)]
    pub fn doc_id(&self) -> String {
        self.inner.doc_id().to_string()
    }

    /// The document's tokens.
    #[wasm_bindgen(js_name = tokenCount)]
    pub fn token_count(&self) -> f64 {
        self.inner.token_count() as f64
    }

    /// One chunk's tokens (0 when out of range).
    #[wasm_bindgen(js_name = chunkTokenCount)]
    pub fn chunk_token_count(&self, seq: f64) -> u32 {
        if seq < 0.0 || seq.fract() != 0.0 || seq > f64::from(u32::MAX) {
            return 0;
        }
        self.inner.chunk_token_count(seq as u32)
    }

    /// Whether any chunk holds a table.
    #[wasm_bindgen(js_name = hasTables)]
    pub fn has_tables(&self) -> bool {
        self.inner.has_tables()
    }

    /// Whether any chunk holds tracked revisions.
    #[wasm_bindgen(js_name = hasRevisions)]
    pub fn has_revisions(&self) -> bool {
        self.inner.has_revisions()
    }

    /// Whether any chunk holds comments.
    #[wasm_bindgen(js_name = hasComments)]
    pub fn has_comments(&self) -> bool {
        self.inner.has_comments()
    }

    /// Revision authors, each once.
    #[wasm_bindgen(js_name = revisionAuthors)]
    pub fn revision_authors(&self) -> Array {
        self.inner
            .revision_authors()
            .iter()
            .map(|s| JsValue::from_str(s))
            .collect()
    }

    /// Comment authors, each once.
    #[wasm_bindgen(js_name = commentAuthors)]
    pub fn comment_authors(&self) -> Array {
        self.inner
            .comment_authors()
            .iter()
            .map(|s| JsValue::from_str(s))
            .collect()
    }

    /// `sectionIndex` of each body section, in document order.
    #[wasm_bindgen(js_name = sectionIndexes)]
    pub fn section_indexes(&self) -> Array {
        numbers(self.inner.sections().iter().map(|s| s.index))
    }

    /// Pages of each body section, aligned with `sectionIndexes()`.
    #[wasm_bindgen(js_name = sectionPages)]
    pub fn section_pages(&self) -> Array {
        numbers(self.inner.sections().iter().map(|s| s.pages))
    }

    /// Chunks of each body section, aligned with `sectionIndexes()`.
    #[wasm_bindgen(js_name = sectionChunks)]
    pub fn section_chunks(&self) -> Array {
        numbers(self.inner.sections().iter().map(|s| s.chunks))
    }

    /// Starts an expansion from the retrieved sequence numbers.
    pub fn expand(&self, anchors: &[f64]) -> Result<JsExpansion, JsValue> {
        let mut list = Vec::with_capacity(anchors.len());
        for &a in anchors {
            if a.is_nan() || a.fract() != 0.0 || a.abs() > 9.0e15 {
                return Err(js_error(
                    INVALID_INPUT,
                    &format!("anchors must be whole sequence numbers, got {a}"),
                ));
            }
            list.push(a as i64);
        }
        let inner = Expansion::new(Rc::clone(&self.inner), &list).map_err(|e| from_enrich(&e))?;
        Ok(JsExpansion { inner })
    }

    /// The index-document entry at `percent` of the document's tokens.
    #[wasm_bindgen(js_name = indexDocument)]
    pub fn index_document(&self, percent: Option<f64>) -> Result<JsValue, JsValue> {
        let entry = self
            .inner
            .index_document(percent.unwrap_or(DEFAULT_INDEX_PERCENT))
            .map_err(|e| from_enrich(&e))?;
        let shape = JsIndexEntry {
            text: entry.text(),
            parts: &entry.parts,
            tokens: entry.tokens,
        };
        serde_wasm_bindgen::to_value(&shape).map_err(|e| js_error(INTERNAL, &e.to_string()))
    }

    /// The routing system prompt.
    #[wasm_bindgen(js_name = routingPrompt)]
    pub fn routing_prompt() -> String {
        ROUTING_PROMPT.to_string()
    }

    /// The answer-from-index system prompt.
    #[wasm_bindgen(js_name = indexAnswerPrompt)]
    pub fn index_answer_prompt() -> String {
        INDEX_ANSWER_PROMPT.to_string()
    }
}

/// One query's expansion (`Expansion` in JS); made by `Enricher.expand`.
#[wasm_bindgen(js_name = Expansion)]
pub struct JsExpansion {
    inner: Expansion<Rc<Enricher>>,
}

fn flag(options: &JsValue, key: &str, default: bool) -> Result<bool, JsValue> {
    let v = Reflect::get(options, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    if v.is_undefined() {
        return Ok(default);
    }
    v.as_bool()
        .ok_or_else(|| js_error(INVALID_INPUT, &format!("{key} must be a boolean")))
}

#[wasm_bindgen(js_class = Expansion)]
impl JsExpansion {
    /// Completes the anchors' tables; returns the enrichment tokens.
    #[wasm_bindgen(js_name = completeTables)]
    pub fn complete_tables(&mut self) -> f64 {
        self.inner.complete_tables() as f64
    }

    /// Completes every table met in the expanded set; returns the enrichment tokens.
    #[wasm_bindgen(js_name = completeExpandedTables)]
    pub fn complete_expanded_tables(&mut self) -> f64 {
        self.inner.complete_expanded_tables() as f64
    }

    /// Completes the anchors' revision runs; returns the enrichment tokens.
    #[wasm_bindgen(js_name = completeRevisions)]
    pub fn complete_revisions(&mut self) -> f64 {
        self.inner.complete_revisions() as f64
    }

    /// Completes the anchors' comment runs; returns the enrichment tokens.
    #[wasm_bindgen(js_name = completeComments)]
    pub fn complete_comments(&mut self) -> f64 {
        self.inner.complete_comments() as f64
    }

    /// Adds page context in stages within `budget` tokens.
    #[wasm_bindgen(js_name = addPageChunks)]
    pub fn add_page_chunks(
        &mut self,
        rest_of_page: bool,
        around: u32,
        budget_tokens: f64,
    ) -> Result<f64, JsValue> {
        let b = budget(budget_tokens, "budget")?;
        Ok(self.inner.add_page_chunks(rest_of_page, around, b) as f64)
    }

    /// Adds pages within each anchor's section, within `budget` tokens.
    #[wasm_bindgen(js_name = addSectionPages)]
    pub fn add_section_pages(&mut self, pages: f64, budget_tokens: f64) -> Result<f64, JsValue> {
        let b = budget(budget_tokens, "budget")?;
        let pages = if pages >= f64::from(u32::MAX) {
            u32::MAX
        } else {
            budget(pages, "pages")? as u32
        };
        Ok(self.inner.add_section_pages(pages, b) as f64)
    }

    /// Adds revision chunks (of one author when given), within `budget` tokens.
    #[wasm_bindgen(js_name = addRevisionChunks)]
    pub fn add_revision_chunks(
        &mut self,
        budget_tokens: f64,
        author: Option<String>,
    ) -> Result<f64, JsValue> {
        let b = budget(budget_tokens, "budget")?;
        Ok(self.inner.add_revision_chunks(author.as_deref(), b) as f64)
    }

    /// Adds comment chunks (of one author when given), within `budget` tokens.
    #[wasm_bindgen(js_name = addCommentChunks)]
    pub fn add_comment_chunks(
        &mut self,
        budget_tokens: f64,
        author: Option<String>,
    ) -> Result<f64, JsValue> {
        let b = budget(budget_tokens, "budget")?;
        Ok(self.inner.add_comment_chunks(author.as_deref(), b) as f64)
    }

    /// The combined call; `options` as `RelatedOptions` in the d.ts.
    #[wasm_bindgen(js_name = addRelatedChunks)]
    pub fn add_related_chunks(&mut self, options: JsValue) -> Result<f64, JsValue> {
        let mut o = RelatedOptions::new(u64::MAX);
        if !(options.is_undefined() || options.is_null()) {
            if !options.is_object() {
                return Err(js_error(
                    INVALID_INPUT,
                    "addRelatedChunks options must be an object",
                ));
            }
            let b =
                Reflect::get(&options, &JsValue::from_str("budget")).unwrap_or(JsValue::UNDEFINED);
            if !b.is_undefined() {
                let n = b
                    .as_f64()
                    .ok_or_else(|| js_error(INVALID_INPUT, "budget must be a number"))?;
                o.budget = budget(n, "budget")?;
            }
            o.revisions = flag(&options, "revisions", o.revisions)?;
            o.comments = flag(&options, "comments", o.comments)?;
            o.all_tables = flag(&options, "allTables", o.all_tables)?;
            o.adjacent_tables = flag(&options, "adjacentTables", o.adjacent_tables)?;
        }
        Ok(self.inner.add_related_chunks(&o) as f64)
    }

    /// Makes the expanded set the anchor set.
    #[wasm_bindgen(js_name = anchorExpanded)]
    pub fn anchor_expanded(&mut self) {
        self.inner.anchor_expanded();
    }

    /// The expanded set, ascending sequence numbers.
    pub fn expanded(&self) -> Array {
        numbers(self.inner.expanded())
    }

    /// The current anchors, ascending.
    pub fn anchors(&self) -> Array {
        numbers(self.inner.anchors().iter().copied())
    }

    /// Tokens of the expanded set.
    #[wasm_bindgen(js_name = tokenCount)]
    pub fn token_count(&self) -> f64 {
        self.inner.token_count() as f64
    }

    /// Tokens of the retrieved chunks.
    #[wasm_bindgen(js_name = retrievedTokens)]
    pub fn retrieved_tokens(&self) -> f64 {
        self.inner.retrieved_tokens() as f64
    }

    /// Tokens added to the retrieved chunks.
    #[wasm_bindgen(js_name = enrichmentTokens)]
    pub fn enrichment_tokens(&self) -> f64 {
        self.inner.enrichment_tokens() as f64
    }
}
