import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/** The built service (npm run build), as `npm start` runs it. */
export const MAIN = resolve(__dirname, '../../dist/src/main.js');

/**
 * As root, file permissions do not stop a process: a child that must meet them runs without the capabilities that
 * bypass them (setpriv drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH). It stays root, so it can still read a
 * checkout in a folder only root may enter, as CI's fresh clone in a `mktemp -d` folder is.
 */
const AS_ROOT = process.getuid?.() === 0;
const DAC_CAPABILITIES = '-dac_override,-dac_read_search';

/** The user a started service runs as (the name its messages give). */
export const SERVICE_USER = userInfo().username;

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** A fresh directory. */
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
  const node = [process.execPath, options.script ?? MAIN, ...(options.args ?? [])];
  const command =
    options.unprivileged && AS_ROOT
      ? ['setpriv', '--inh-caps', DAC_CAPABILITIES, '--bounding-set', DAC_CAPABILITIES, ...node]
      : node;
  const child = spawn(command[0], command.slice(1), {
    env: { PATH: process.env.PATH ?? '', SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env },
    cwd: options.cwd ?? tmpdir(),
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
