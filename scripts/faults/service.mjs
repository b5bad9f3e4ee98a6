// The built service as a child process (node dist/src/main.js), and a small HTTP client that tells a
// refused new connection apart from a reset of a kept-alive one.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const MAIN = resolve(import.meta.dirname, '../../dist/src/main.js');
export const ADMIN = { email: 'admin@faults.test', password: 'fault-password-1' };

export const pause = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * Starts the service on 127.0.0.1:`port` with `env` (database settings); its log goes to `logFile`.
 * Answers { base, child, exited, stop(signal) }.
 */
export function startService({ port, env, logFile }) {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      SIGNING_SECRET: 'faults-signing-secret-0123456789abcdef',
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_API_MAX: '0',
      RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: '0',
      RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal, at: Date.now() })));
  return {
    base: `http://127.0.0.1:${port}`,
    child,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Resolves when /health answers 200 (the service is up and its database answers). */
export async function waitHealthy(service, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(null, 'GET', `${service.base}/health`, undefined, undefined, 3000);
    if (res.status === 200) return;
    if (service.child.exitCode !== null) throw new Error(`the service exited with ${service.child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`the service did not become healthy: ${res.status ?? res.error}`);
    await pause(200);
  }
}

/** One keep-alive connection per caller, so a reset of a reused connection is seen as such. */
export const keepAliveAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One HTTP request. Answers { status, headers, body, ms } or { error, reused, ms }: `reused` says the
 * request went out on a kept-alive connection that had served an earlier request.
 */
export function call(agent, method, url, body, token, timeoutMs = 30_000) {
  const started = Date.now();
  return new Promise((done) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: agent ?? false,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `api ${token}` } : {}),
        },
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let parsed = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          done({ status: res.statusCode, headers: res.headers, body: parsed, ms: Date.now() - started, started });
        });
        res.on('error', (error) =>
          done({ error: error.code ?? error.message, reused: req.reusedSocket, ms: Date.now() - started, started }),
        );
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })));
    req.on('error', (error) =>
      done({ error: error.code ?? error.message, reused: req.reusedSocket, ms: Date.now() - started, started }),
    );
    req.end(payload);
  });
}

export async function login(base) {
  const res = await call(null, 'POST', `${base}/api/2.0/user/token`, ADMIN);
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body ?? res.error)}`);
  return { token: res.body.authToken, userid: res.body.userid };
}

export async function createCategory(base, token, title) {
  const res = await call(
    null,
    'POST',
    `${base}/api/2.0/wikis`,
    { namespace: 'CATEGORY', title, contents: title },
    token,
  );
  if (res.status !== 201) throw new Error(`category: ${res.status} ${JSON.stringify(res.body ?? res.error)}`);
}
