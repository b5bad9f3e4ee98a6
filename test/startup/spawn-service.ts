import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built service (npm run build), as `npm start` runs it. */
export const MAIN = resolve(__dirname, '../../dist/src/main.js');

/** As root, file permissions do not stop a process: children that must meet them run as nobody. */
export const UNPRIVILEGED: { uid: number; gid: number } | Record<string, never> =
  process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** A fresh directory any user may enter (the unprivileged child needs to). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rgcs-startup-'));
  chmodSync(dir, 0o755);
  return dir;
}

export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  output: () => string;
  exited: Promise<{ code: number | null; ms: number }>;
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
}

export function startService(
  env: Record<string, string>,
  options: { cwd?: string; unprivileged?: boolean; args?: string[]; script?: string } = {},
): ServiceProcess {
  const began = Date.now();
  const child = spawn(process.execPath, [options.script ?? MAIN, ...(options.args ?? [])], {
    env: { PATH: process.env.PATH ?? '', SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env },
    cwd: options.cwd ?? tmpdir(),
    ...(options.unprivileged ? UNPRIVILEGED : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; ms: number }>((done) =>
    child.on('exit', (code) => done({ code, ms: Date.now() - began })),
  );
  const output = () => stdout + stderr;
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    output,
    exited,
    async waitFor(text, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      const found = () => (typeof text === 'string' ? output().includes(text) : text.test(output()));
      while (!found()) {
        if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms: ${String(text)}\n${output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** The non-empty lines a failed start printed. */
export const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
