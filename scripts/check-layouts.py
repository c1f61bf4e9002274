#!/usr/bin/env python3
"""Manual check: do LangChain and LlamaIndex read what `docrag load` writes?

NOT part of `make test`; run it by hand after changing src/bin/docrag/pg/layout.rs.

It checks, against a real PostgreSQL + pgvector and the embeddings stub:
  * --layout langchain: langchain-postgres's PGVector(collection_name=T, use_jsonb=True)
    opens the loaded tables with no glue; similarity_search_with_score returns
    Documents whose id is T:<chunk id>, page_content the chunk text and metadata has
    ssDocId/ssSeq; the order and distances match `docrag search --layout langchain
    --exact`; a metadata filter works; the retriever works; PGVector.delete(ids) of a
    document's chunks is undone by the next `docrag load` (count differs -> reload).
  * --layout llamaindex: llama-index-vector-stores-postgres's
    PGVectorStore.from_params(table_name=T, embed_dim=N) + vector_store.query() and
    VectorStoreIndex.from_vector_store(...).as_retriever() return nodes with the
    chunk text, node id = chunk id, ref_doc_id = document id, in the order of
    `docrag search --layout llamaindex --exact`; a metadata filter works;
    vector_store.delete(ref_doc_id) removes the document and `docrag load` restores it.
  The query vector is the stub's, computed in Python (a port of stubVector in
  tests/node/stub-server.mjs), and checked once against the stub over HTTP.

How to run (from the repository root; no cargo build needed if target/release/docrag
exists):
  python3 -m venv /tmp/lc && /tmp/lc/bin/pip install langchain-postgres==0.0.19 \
      langchain-core==1.8.3 llama-index-core==0.14.25 \
      llama-index-vector-stores-postgres==0.9.0 'psycopg[binary]==3.3.9'
  node scripts/pg-server.mjs start &          # prints postgres://postgres@127.0.0.1:PORT/postgres
  node -e "import('./tests/node/stub-server.mjs').then(async m => \
      console.log((await m.startStub({ dim: 16 })).url))" &      # prints http://127.0.0.1:PORT
  target/release/docrag export FILES... --jsonl /tmp/x.jsonl --embed-url STUB --embed-model stub
  DOCRAG_PG_URL=postgres://... DOCRAG_STUB_URL=http://... \
      /tmp/lc/bin/python scripts/check-layouts.py --jsonl /tmp/x.jsonl --load
(--load runs `docrag load --create --table kb` in both layouts first; --pg/--stub
override the env vars; --table, --dim, --k, --docrag, --question as named.)
Exit status 0 when every check passes; each failure is printed as FAIL.

Known result (2026-12, the versions above): every check passes.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request
from typing import List

FAILS: List[str] = []


def check(ok: bool, what: str, detail: str = "") -> bool:
    print(("PASS " if ok else "FAIL ") + what + (f": {detail}" if detail and not ok else ""))
    if not ok:
        FAILS.append(what)
    return ok


def note(what: str) -> None:
    print("NOTE " + what)


def stub_vector(text: str, dim: int) -> List[float]:
    """tests/node/stub-server.mjs stubVector, rounded to float32 as the stub sends it."""
    import struct

    out = []
    block = b""
    for i in range(dim):
        if i % 16 == 0:
            block = hashlib.sha256(f"{i // 16}\0{text}".encode()).digest()
        v = int.from_bytes(block[(i % 16) * 2:(i % 16) * 2 + 2], "big") / 32767.5 - 1
        out.append(struct.unpack("f", struct.pack("f", v))[0])
    return out


def stub_http(stub: str, text: str) -> List[float]:
    req = urllib.request.Request(
        stub.rstrip("/") + "/v1/embeddings",
        data=json.dumps({"model": "stub", "input": [text]}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req) as r:
        return json.load(r)["data"][0]["embedding"]


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pg", default=os.environ.get("DOCRAG_PG_URL"))
    ap.add_argument("--stub", default=os.environ.get("DOCRAG_STUB_URL"))
    ap.add_argument("--jsonl", required=True, help="the docrag export that was (or is to be) loaded")
    ap.add_argument("--load", action="store_true", help="docrag load --create it in both layouts first")
    ap.add_argument("--docrag", default=os.path.join(root, "target/release/docrag"))
    ap.add_argument("--table", default="kb")
    ap.add_argument("--dim", type=int, default=16)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--question", action="append")
    a = ap.parse_args()
    if not a.pg or not a.stub:
        ap.error("--pg/DOCRAG_PG_URL and --stub/DOCRAG_STUB_URL are required")
    questions = a.question or ["Who left a comment?", "merged table cells", "smart quotes and dashes"]

    rows = [json.loads(l) for l in open(a.jsonl, encoding="utf-8") if l.strip()]
    by_id = {r["chunkId"]: r for r in rows}
    docs = sorted({r["documentId"] for r in rows})

    def docrag(*args: str) -> str:
        p = subprocess.run([a.docrag, *args], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"docrag {' '.join(args[:1])} exited {p.returncode}: {p.stderr.strip()}")
        return p.stdout + p.stderr

    def load(layout: str) -> str:
        return docrag("load", a.pg, a.jsonl, "--create", "--table", a.table, "--layout", layout).strip()

    def search(layout: str, q: str):
        out = docrag("search", a.pg, "--table", a.table, "--layout", layout, "--question", q,
                     "--k", str(a.k), "--exact", "--json", "--embed-url", a.stub, "--embed-model", "stub")
        return [json.loads(l) for l in out.splitlines() if l.startswith("{")]

    if a.load:
        for layout in ("langchain", "llamaindex"):
            print(load(layout))
    check(stub_http(a.stub, questions[0]) == stub_vector(questions[0], a.dim),
          "Python stub_vector equals the stub's /v1/embeddings vector")

    u = urllib.parse.urlparse(a.pg)
    import psycopg

    sql = psycopg.connect(a.pg, autocommit=True)

    # ---------------------------------------------------------------- LangChain
    from langchain_core.embeddings import Embeddings
    from langchain_postgres import PGVector

    class StubEmbeddings(Embeddings):
        def embed_documents(self, texts):
            return [stub_vector(t, a.dim) for t in texts]

        def embed_query(self, text):
            return stub_vector(text, a.dim)

    lc_url = "postgresql+psycopg://" + a.pg.split("://", 1)[1]
    try:
        store = PGVector(embeddings=StubEmbeddings(), collection_name=a.table,
                         connection=lc_url, use_jsonb=True)
        check(True, "LangChain: PGVector(collection_name=T) opens the loaded tables")
    except Exception as e:  # noqa: BLE001
        check(False, "LangChain: PGVector(collection_name=T) opens the loaded tables", repr(e))
        store = None
    def lc_id(chunk_id: str) -> str:
        # langchain_pg_embedding.id is unique across collections: docrag writes T:<chunkId>.
        return f"{a.table}:{chunk_id}"

    if store is not None:
        for q in questions:
            got = store.similarity_search_with_score(q, k=a.k)
            want = search("langchain", q)
            check([d.id for d, _ in got] == [lc_id(w["chunkId"]) for w in want],
                  f"LangChain: order equals docrag search --exact for {q!r}",
                  f"{[d.id for d, _ in got]} vs {[w['chunkId'] for w in want]}")
            check(all(abs((1 - s) - w["score"]) < 1e-5 for (_, s), w in zip(got, want)),
                  "LangChain: distance = 1 - docrag score")
            check(all(d.metadata.get("docrag_chunk_id") in by_id
                      and d.id == lc_id(d.metadata["docrag_chunk_id"])
                      and d.page_content == by_id[d.metadata["docrag_chunk_id"]]["text"] for d, _ in got),
                  "LangChain: Document.id = T:chunk id, page_content = chunk text")
            check(all(d.metadata.get("ssDocId") == by_id[d.metadata["docrag_chunk_id"]]["documentId"]
                      and d.metadata.get("ssSeq") == by_id[d.metadata["docrag_chunk_id"]]["seq"] for d, _ in got),
                  "LangChain: metadata has ssDocId and ssSeq")
        got = store.similarity_search(questions[0], k=a.k, filter={"ssDocId": {"$eq": docs[0]}})
        check(bool(got) and all(d.metadata["ssDocId"] == docs[0] for d in got),
              "LangChain: filter={'ssDocId': {'$eq': doc}}")
        got = store.as_retriever(search_kwargs={"k": a.k}).invoke(questions[0])
        check([d.id for d in got] == [lc_id(w["chunkId"]) for w in search("langchain", questions[0])],
              "LangChain: as_retriever().invoke() order")
        check(len(store.get_by_ids([lc_id(rows[0]["chunkId"])])) == 1, "LangChain: get_by_ids(T:chunk id)")
        ids = [lc_id(r["chunkId"]) for r in rows if r["documentId"] == docs[0]]
        store.delete(ids=ids)
        n = sql.execute("SELECT count(*) FROM langchain_pg_embedding WHERE cmetadata->>'ssDocId' = %s",
                        (docs[0],)).fetchone()[0]
        check(n == 0, "LangChain: PGVector.delete(ids=T:chunk ids) removes the document's rows")
        out = load("langchain")
        n = sql.execute("SELECT count(*) FROM langchain_pg_embedding WHERE cmetadata->>'ssDocId' = %s",
                        (docs[0],)).fetchone()[0]
        check(n == len(ids) and "loaded 1 documents" in out,
              "LangChain: the next docrag load restores it", out)
        gin = sql.execute("SELECT count(*) FROM pg_indexes WHERE indexname = 'ix_cmetadata_gin'").fetchone()[0]
        if not gin:
            note("langchain_pg_embedding has no ix_cmetadata_gin (GIN jsonb_path_ops on cmetadata) "
                 "that langchain-postgres creates with its tables: filters scan")

    # ---------------------------------------------------------------- LlamaIndex
    from llama_index.core import VectorStoreIndex
    from llama_index.core.base.embeddings.base import BaseEmbedding
    from llama_index.core.schema import MetadataMode
    from llama_index.core.vector_stores import (MetadataFilter, MetadataFilters,
                                                VectorStoreQuery)
    from llama_index.vector_stores.postgres import PGVectorStore

    class StubEmbedding(BaseEmbedding):
        def _get_query_embedding(self, query):
            return stub_vector(query, a.dim)

        def _get_text_embedding(self, text):
            return stub_vector(text, a.dim)

        async def _aget_query_embedding(self, query):
            return stub_vector(query, a.dim)

    try:
        vs = PGVectorStore.from_params(database=u.path.lstrip("/") or "postgres", host=u.hostname,
                                       port=str(u.port or 5432), user=u.username or "postgres",
                                       password=u.password or "", table_name=a.table, embed_dim=a.dim)
        vs.query(VectorStoreQuery(query_embedding=stub_vector("x", a.dim), similarity_top_k=1))
        check(True, "LlamaIndex: PGVectorStore.from_params(table_name=T) reads data_T")
    except Exception as e:  # noqa: BLE001
        check(False, "LlamaIndex: PGVectorStore.from_params(table_name=T) reads data_T", repr(e))
        vs = None
    if vs is not None:
        for q in questions:
            res = vs.query(VectorStoreQuery(query_embedding=stub_vector(q, a.dim), similarity_top_k=a.k))
            want = search("llamaindex", q)
            check(res.ids == [w["chunkId"] for w in want],
                  f"LlamaIndex: order equals docrag search --exact for {q!r}",
                  f"{res.ids} vs {[w['chunkId'] for w in want]}")
            check(all(abs(s - w["score"]) < 1e-5 for s, w in zip(res.similarities, want)),
                  "LlamaIndex: similarity = docrag score")
            check(all(n.node_id in by_id and n.get_content() == by_id[n.node_id]["text"] for n in res.nodes),
                  "LlamaIndex: node id = chunk id, get_content() = chunk text")
            check(all(n.metadata.get("ssDocId") == by_id[n.node_id]["documentId"] for n in res.nodes),
                  "LlamaIndex: node.metadata is the flat record (ssDocId = document id)")
            check(all(n.ref_doc_id == by_id[n.node_id]["documentId"] for n in res.nodes),
                  "LlamaIndex: node.ref_doc_id (SOURCE relationship) = document id",
                  f"got {[n.ref_doc_id for n in res.nodes]}")
        n0 = res.nodes[0]
        llm = n0.get_content(metadata_mode=MetadataMode.LLM)
        hidden = [k for k in ("docrag_document_hash", "docrag_chunk_id", "_node_content") if k in llm]
        check(not hidden, "LlamaIndex: bookkeeping keys are not in the text an LLM is shown",
              f"{hidden} shown; LLM text {len(llm)} chars for {len(n0.get_content())} of chunk text")
        index = VectorStoreIndex.from_vector_store(vs, embed_model=StubEmbedding())
        got = index.as_retriever(similarity_top_k=a.k).retrieve(questions[0])
        check([g.node.node_id for g in got] == [w["chunkId"] for w in search("llamaindex", questions[0])],
              "LlamaIndex: VectorStoreIndex.from_vector_store(...).as_retriever().retrieve() order")
        res = vs.query(VectorStoreQuery(query_embedding=stub_vector(questions[0], a.dim), similarity_top_k=a.k,
                                        filters=MetadataFilters(filters=[MetadataFilter(key="ssDocId", value=docs[0])])))
        check(bool(res.nodes) and all(n.metadata["ssDocId"] == docs[0] for n in res.nodes),
              "LlamaIndex: MetadataFilter(ssDocId = doc)")
        count = "SELECT count(*) FROM data_{} WHERE metadata_->>'ref_doc_id' = %s".format(a.table)
        before = sql.execute(count, (docs[0],)).fetchone()[0]
        vs.delete(docs[0])
        check(sql.execute(count, (docs[0],)).fetchone()[0] == 0 and before > 0,
              "LlamaIndex: vector_store.delete(ref_doc_id) removes the document's rows")
        out = load("llamaindex")
        check(sql.execute(count, (docs[0],)).fetchone()[0] == before and "loaded 1 documents" in out,
              "LlamaIndex: the next docrag load restores it", out)
        import asyncio

        asyncio.run(vs.close())

    print(f"{len(FAILS)} failed" if FAILS else "all checks passed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
