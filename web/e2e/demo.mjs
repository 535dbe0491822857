// `portal serve --demo` for one browser test file: its own data directory, free HTTP and MQTT
// ports, the demo owner (crates/portal/src/demo.rs) and, to check tenancy and permissions, the
// plain owner and the internal administrator of `USERS`. Resolves to { url, mqttPort, log, stop }.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, PORTAL_BIN, USERS, WEB_DIR } from './server.mjs';

/** The owner `portal serve --demo` creates. */
export const DEMO = { account: 'demo@example.com', password: 'demo1234' };

/**
 * `historyDays`: days of history the demo writes first (45 unless a test needs fewer).
 * `port`, `mqttPort`: fixed ports instead of free ones; `webDir`: another build than web/dist
 * (scripts/first-screen-bench.mjs compares two builds).
 * `faults`: the demo's fault scenarios, off unless a journey looks at them: the silent inverter
 * (one of the commercial roof's ten, which the batch upgrade needs) stops at 09:00 in Zaragoza or
 * five minutes after the start, so a journey would see different plants at different hours.
 * `upgradeSecs`: the longest a simulated firmware upgrade takes (the demo's 20 unless given;
 * each takes between half of it and all of it).
 * `rebootSecs`: how long a restarted gateway stays away (the demo's 30 unless given).
 * `env`: more settings for this server (`PORTAL_WEBHOOK_ALLOW_PRIVATE` for a receiver on
 * loopback).
 */
export async function startDemoServer(
  prefix = 'portal-e2e-demo-',
  {
    historyDays = 45,
    faults = false,
    upgradeSecs,
    rebootSecs,
    env: extra = {},
    port: fixedPort,
    mqttPort: fixedMqtt,
    webDir,
  } = {},
) {
  const dist = webDir ?? path.join(WEB_DIR, 'dist');
  if (!existsSync(PORTAL_BIN)) throw new Error(`portal binary not found at ${PORTAL_BIN}`);
  if (!existsSync(path.join(dist, 'index.html')))
    throw new Error(`${dist} has no index.html: run 'npm run build' first`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const port = fixedPort ?? (await freePort());
  const mqttPort = fixedMqtt ?? (await freePort());
  const env = { ...process.env };
  delete env.PORTAL_DATABASE_URL;
  Object.assign(env, {
    PORTAL_HTTP_ADDR: `127.0.0.1:${port}`,
    PORTAL_DATA_DIR: dataDir,
    PORTAL_WEB_DIR: dist,
    // metrics on a port of their own, whichever is free (several servers may run at once)
    PORTAL_METRICS_ADDR: `127.0.0.1:${process.env.E2E_PORTS ? await freePort() : 0}`,
    PORTAL_MQTT_ADDR: `127.0.0.1:${mqttPort}`,
    // Enough history for month and year bars and past events, at a fraction of a year's
    // start-up time in a debug build.
    PORTAL_DEMO_HISTORY_DAYS: String(historyDays),
    PORTAL_DEMO_FAULTS: faults ? 'on' : 'off',
    ...extra,
  });
  if (upgradeSecs !== undefined) env.PORTAL_DEMO_UPGRADE_SECS = String(upgradeSecs);
  if (rebootSecs !== undefined) env.PORTAL_DEMO_REBOOT_SECS = String(rebootSecs);
  for (const user of [USERS.owner, USERS.admin]) {
    const created = spawnSync(
      PORTAL_BIN,
      ['admin', 'create-user', '--account', user.account, '--password', user.password].concat([
        '--role',
        user.role,
        '--nickname',
        user.nickname,
      ]),
      { env, encoding: 'utf8' },
    );
    if (created.status !== 0) throw new Error(`create-user failed: ${created.stderr}`);
  }
  let output = '';
  const child = spawn(PORTAL_BIN, ['serve', '--demo'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`portal exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/anonymous/config`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`portal did not answer:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    mqttPort,
    log: () => output,
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
