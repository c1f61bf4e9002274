//! The enrichment engine: expansion of retrieved chunk sets from metadata records
//! alone, document information, and the index document (issue: enrichment engine).
