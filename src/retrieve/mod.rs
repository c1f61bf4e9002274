//! Retrieval: a flat cosine vector index, a BM25 lexical index, and rank fusion.
