// A scriptable OpenAI- and Ollama-compatible stub server on 127.0.0.1, for tests.
//
//   import { startStub, stubVector } from './stub-server.mjs';
//   const stub = await startStub({ dim: 8 });      // port 0: the OS picks one
//   stub.url;                                      // "http://127.0.0.1:PORT"
//   stub.script([{ status: 429, headers: { 'retry-after': '1' } }, { delayMs: 3000 }]);
//   ... point a provider at stub.url ...
//   stub.requests;   // [{ method, path, headers, body, at }] in arrival order
//   stub.reset();    // clears requests and the fault script
//   await stub.close();
//
// CORS: every reply allows any origin and OPTIONS preflights get 204 (not logged),
// so browser pages on another 127.0.0.1 port can call it.
// Routes: POST /v1/embeddings, /v1/chat/completions (OpenAI; SSE when stream: true),
// POST /api/embed, /api/chat (Ollama; NDJSON unless stream: false).
//
// Embeddings are deterministic: `stubVector(text, dim)` (components in [-1, 1] from
// SHA-256 of the text), with `dim` = the request's `dimensions`, else the stub's.
// Chat replies are `options.reply` (default REPLY), streamed in `options.pieces`
// writes cut at byte offsets, so a piece may end inside a UTF-8 character or a line.
//
// Faults: `script([...])` queues faults; each request takes the first queued fault
// whose `route` (a path such as '/v1/embeddings'; omitted = any) matches. A fault is:
//   { status, headers?, body? }   reply with that status (default body: the API's error JSON)
//   { delayMs }                   wait, then reply normally (a slow provider)
//   { malformed: true }           200 with a truncated JSON body
//   { dim: n }                    a normal reply with n-dimensional vectors
//   { drop: true }                destroy the socket without replying
//   { dropAfterPieces: n }        stream n pieces of a chat reply, then destroy the socket
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';

/** The scripted chat reply: ASCII, accents, CJK and an emoji (multi-byte UTF-8). */
export const REPLY = 'Revenue grew 12% in Europe [1]; coûts réduits, 日本の売上 ✓ 🚀 done.';

/** The stub's deterministic vector for `text`: `dim` components in [-1, 1]. */
export function stubVector(text, dim) {
  const out = new Float32Array(dim);
  let block = Buffer.alloc(0);
  for (let i = 0; i < dim; i++) {
    if (i % 16 === 0) block = createHash('sha256').update(`${i / 16}\u0000${text}`).digest();
    out[i] = block.readUInt16BE((i % 16) * 2) / 32767.5 - 1;
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Splits `buf` into `n` parts at byte offsets (not character boundaries). */
function cut(buf, n) {
  const parts = [];
  const size = Math.max(1, Math.ceil(buf.length / n));
  for (let i = 0; i < buf.length; i += size) parts.push(buf.subarray(i, i + size));
  return parts;
}

function textPieces(text, n) {
  const chars = [...text];
  const size = Math.max(1, Math.ceil(chars.length / n));
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/**
 * Starts the stub. Options: `dim` (default 8), `reply` (chat text), `pieces` (stream
 * writes, default 6), `pieceDelayMs` (between writes, default 5).
 */
export async function startStub(options = {}) {
  const dim = options.dim ?? 8;
  const reply = options.reply ?? REPLY;
  const pieces = options.pieces ?? 6;
  const pieceDelayMs = options.pieceDelayMs ?? 5;
  const requests = [];
  let faults = [];
  const sockets = new Set();

  function takeFault(path) {
    const i = faults.findIndex((f) => f.route === undefined || f.route === path);
    return i < 0 ? null : faults.splice(i, 1)[0];
  }

  function json(res, status, value, headers = {}) {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof value === 'string' ? value : JSON.stringify(value));
  }

  async function stream(res, contentType, body, fault) {
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
    const parts = cut(Buffer.from(body, 'utf8'), pieces);
    for (let i = 0; i < parts.length; i++) {
      if (fault?.dropAfterPieces !== undefined && i >= fault.dropAfterPieces) {
        res.socket.destroy();
        return;
      }
      res.write(parts[i]);
      await sleep(pieceDelayMs);
    }
    res.end();
  }

  async function handle(req, res, raw) {
    const path = new URL(req.url, 'http://x').pathname;
    // Pages on another 127.0.0.1 port call the stub cross-origin (browser tests):
    // allow it, and answer preflights without logging them as provider requests.
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', 'retry-after');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'POST, GET, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    let body = raw;
    try {
      body = JSON.parse(raw);
    } catch {}
    requests.push({ method: req.method, path, headers: { ...req.headers }, body, at: Date.now() });
    const fault = takeFault(path);
    const openai = path.startsWith('/v1/');
    if (fault?.drop) {
      req.socket.destroy();
      return;
    }
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (res.destroyed || req.socket.destroyed) return;
    if (fault?.status) {
      const err = openai
        ? { error: { message: `stub fault ${fault.status}`, type: 'stub', code: null } }
        : { error: `stub fault ${fault.status}` };
      return json(res, fault.status, fault.body ?? err, fault.headers);
    }
    if (fault?.malformed) return json(res, 200, openai ? '{"object":"list","data":[{"embedding":[0.1,' : '{"embeddings":[[0.1,');
    const texts = Array.isArray(body?.input) ? body.input : [body?.input ?? ''];
    const d = fault?.dim ?? body?.dimensions ?? dim;
    switch (path) {
      case '/v1/embeddings':
        return json(res, 200, {
          object: 'list',
          // Reversed on purpose: clients must order by `index`.
          data: texts.map((t, index) => ({ object: 'embedding', index, embedding: [...stubVector(t, d)] })).reverse(),
          model: body?.model,
          usage: { prompt_tokens: 1, total_tokens: 1 },
        });
      case '/api/embed':
        return json(res, 200, { model: body?.model, embeddings: texts.map((t) => [...stubVector(t, d)]) });
      case '/v1/chat/completions': {
        if (!body?.stream) {
          return json(res, 200, {
            id: 'chatcmpl-stub', object: 'chat.completion', model: body?.model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          });
        }
        let sse = ': stub keep-alive\n\n';
        sse += `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] })}\r\n\r\n`;
        for (const p of textPieces(reply, pieces)) {
          sse += `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: p } }] })}\n\n`;
        }
        sse += `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
        return stream(res, 'text/event-stream', sse, fault);
      }
      case '/api/chat': {
        const line = (content, done) => JSON.stringify({ model: body?.model, message: { role: 'assistant', content }, done }) + '\n';
        if (body?.stream === false) return json(res, 200, line(reply, true));
        const nd = textPieces(reply, pieces).map((p) => line(p, false)).join('') + line('', true);
        return stream(res, 'application/x-ndjson', nd, fault);
      }
      default:
        return json(res, 404, openai ? { error: { message: `no route ${path}` } } : { error: `no route ${path}` });
    }
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((e) => {
        if (!res.headersSent) json(res, 500, { error: String(e) });
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Queues faults (see the file header); returns the stub for chaining. */
    script(list) {
      faults.push(...list);
      return this;
    },
    /** Forgets recorded requests and queued faults. */
    reset() {
      requests.length = 0;
      faults = [];
    },
    /** Stops the server, closing open connections. */
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
