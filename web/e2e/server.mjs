// Starts the real portal server for one test file: its own data directory, a free port,
// the users the tests sign in with, and the built web app (web/dist).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = path.resolve(WEB_DIR, '..');
export const PORTAL_BIN =
  process.env.PORTAL_BIN || path.join(REPO_DIR, 'target', 'debug', 'portal');

export const USERS = {
  admin: {
    account: 'admin@example.com',
    password: 'Admin12345',
    role: 'internal-admin',
    nickname: 'Admin',
  },
  owner: {
    account: 'owner@example.com',
    password: 'Owner12345',
    role: 'owner',
    nickname: 'Olivia',
  },
  viewer: {
    account: 'viewer@example.com',
    password: 'Viewer12345',
    role: 'owner',
    nickname: 'Victor',
    readOnly: true,
  },
};

function listenOn(port) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      const { port: bound } = srv.address();
      srv.close(() => resolve(bound));
    });
  });
}

const taken = new Set();

/**
 * A free port: any, or on a machine shared with others the next free one of E2E_PORTS
 * ("18320-18329"), the range assigned to this checkout.
 */
export async function freePort() {
  const range = /^(\d+)-(\d+)$/.exec(process.env.E2E_PORTS ?? '');
  if (!range) return listenOn(0);
  for (let port = Number(range[1]); port <= Number(range[2]); port++) {
    if (taken.has(port)) continue;
    try {
      await listenOn(port);
      taken.add(port);
      return port;
    } catch {
      // in use: the next one
    }
  }
  throw new Error(`no free port in E2E_PORTS=${process.env.E2E_PORTS}`);
}

async function waitUntilUp(url, child, log) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`portal exited early (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(`${url}/anonymous/config`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`portal did not answer within 30 s:\n${log()}`);
}

/** Starts `portal serve`; resolves to { url, brandedUrl, port, stop }. */
export async function startServer({ accessTokenTtl, users = [] } = {}) {
  if (!existsSync(PORTAL_BIN)) {
    throw new Error(
      `portal binary not found at ${PORTAL_BIN}: run 'cargo build -p portal' or set PORTAL_BIN`,
    );
  }
  if (!existsSync(path.join(WEB_DIR, 'dist', 'index.html'))) {
    throw new Error("web/dist is missing: run 'npm run build' first");
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const port = await freePort();
  const env = { ...process.env };
  delete env.PORTAL_DATABASE_URL;
  Object.assign(env, {
    PORTAL_HTTP_ADDR: `127.0.0.1:${port}`,
    PORTAL_DATA_DIR: dataDir,
    PORTAL_ADMIN_USER: USERS.admin.account,
    PORTAL_ADMIN_PASSWORD: USERS.admin.password,
    PORTAL_WEB_DIR: path.join(WEB_DIR, 'dist'),
    // metrics on a port of their own, whichever is free (several servers may run at once)
    PORTAL_METRICS_ADDR: `127.0.0.1:${process.env.E2E_PORTS ? await freePort() : 0}`,
    PORTAL_BRANDED_HOSTS: 'localhost',
  });
  if (accessTokenTtl) env.PORTAL_ACCESS_TOKEN_TTL_SECS = String(accessTokenTtl);

  for (const user of [...Object.values(USERS), ...users]) {
    const args = [
      'admin',
      'create-user',
      '--account',
      user.account,
      '--password',
      user.password,
      '--role',
      user.role,
      '--nickname',
      user.nickname,
    ];
    if (user.readOnly) args.push('--read-only');
    if (user.company) args.push('--company', user.company);
    const r = spawnSync(PORTAL_BIN, args, { env, encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(`create-user ${user.account} failed: ${r.stderr || r.stdout}`);
  }

  let output = '';
  const child = spawn(PORTAL_BIN, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child, () => output);

  return {
    url,
    brandedUrl: `http://localhost:${port}`,
    port,
    log: () => output,
    /** The latest verification code sent to `account` (read from the outbox: no SMTP here). */
    latestCode(account) {
      const r = spawnSync(PORTAL_BIN, ['admin', 'outbox'], { env, encoding: 'utf8' });
      const lines = r.stdout.split('\n').filter((l) => l.includes(account));
      const match = /\b(\d{6})\b/.exec(lines.at(-1) ?? '');
      if (!match) throw new Error(`no code for ${account} in the outbox:\n${r.stdout}${r.stderr}`);
      return match[1];
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          const t = setTimeout(() => {
            child.kill('SIGKILL');
            r();
          }, 5000);
          child.once('exit', () => {
            clearTimeout(t);
            r();
          });
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
