// The PostgreSQL + pgvector of scripts/pg-server.mjs (issue 18): a real server that the
// test starts itself on 127.0.0.1, reached with node-postgres (devDependency `pg`),
// with pgvector's cosine order and version, and nothing left behind once stopped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';

import pg from 'pg';

import { acceptsConnections, startPostgres } from '../../scripts/pg-server.mjs';

let server;
let client;

before(async () => {
  server = await startPostgres();
  client = new pg.Client({ connectionString: server.url });
  await client.connect();
});

after(async () => {
  await client?.end();
  if (!server) return;
  await server.stop();
  assert.equal(existsSync(server.dataDir), false, 'stop() removes the data dir');
  assert.equal(await acceptsConnections(server.port), false, 'nothing listens on the port after stop()');
  // stop() twice is harmless.
  await server.stop();
});

test('the server listens on 127.0.0.1 only, with a fresh data dir under the temp dir', async () => {
  assert.match(server.url, /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
  assert.equal(server.url, `postgres://postgres@127.0.0.1:${server.port}/postgres`);
  assert.equal(dirname(server.dataDir), tmpdir());
  assert.ok(existsSync(server.dataDir));
  const { rows } = await client.query("SELECT current_setting('listen_addresses') AS addr, current_setting('port')::int AS port, current_setting('server_version_num')::int AS v");
  assert.deepEqual(rows[0], { addr: '127.0.0.1', port: server.port, v: rows[0].v });
  assert.ok(rows[0].v >= 180000 && rows[0].v < 190000, `PostgreSQL 18, got ${rows[0].v}`);
});

test('pgvector 0.8: a vector(3) column ordered by cosine distance', async () => {
  await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  const ext = await client.query("SELECT extversion FROM pg_extension WHERE extname = 'vector'");
  assert.equal(ext.rows.length, 1);
  assert.match(ext.rows[0].extversion, /^0\.8\.\d+$/);

  await client.query('CREATE TABLE items (id int PRIMARY KEY, embedding vector(3) NOT NULL)');
  const rows = [
    [1, '[0,1,0]'], // orthogonal to [1,0,0]: distance 1
    [2, '[1,0.1,0]'], // nearly along it
    [3, '[-1,0,0]'], // opposite: distance 2
    [4, '[2,0,0]'], // same direction, longer: distance 0
    [5, '[1,1,0]'], // 45 degrees
  ];
  for (const [id, v] of rows) await client.query('INSERT INTO items VALUES ($1, $2)', [id, v]);
  const near = await client.query("SELECT id, embedding <=> '[1,0,0]' AS d FROM items ORDER BY embedding <=> '[1,0,0]' LIMIT 2");
  assert.deepEqual(near.rows.map((r) => r.id), [4, 2]);
  assert.ok(Math.abs(near.rows[0].d) < 1e-9);
  assert.ok(Math.abs(near.rows[1].d - (1 - 1 / Math.sqrt(1.01))) < 1e-6, String(near.rows[1].d));
  const all = await client.query("SELECT id FROM items ORDER BY embedding <=> '[1,0,0]'");
  assert.deepEqual(all.rows.map((r) => r.id), [4, 2, 5, 1, 3]);
  // The vector comes back as pgvector's text form, and a wrong dimension is refused.
  const back = await client.query('SELECT embedding::text AS t FROM items WHERE id = 5');
  assert.equal(back.rows[0].t, '[1,1,0]');
  await assert.rejects(client.query("INSERT INTO items VALUES (6, '[1,2]')"), /expected 3 dimensions, not 2/);
});
