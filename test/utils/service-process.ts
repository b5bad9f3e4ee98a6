import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** The built service (`npm test` builds it first; run `npm run build` before running a file alone). */
export const MAIN = resolve(__dirname, '../../dist/src/main.js');

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  base: string;
  output: () => string;
  /** SIGTERM, then the exit code (SIGKILL after 15 s). */
  stop: () => Promise<number | null>;
}

/** Starts `node dist/src/main.js` on a free port with only `env` (and PATH) set, and waits for /health/live. */
export async function startService(env: Record<string, string>, cwd?: string): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', PORT: String(port), ...env },
    cwd,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.kill('SIGTERM');
    const code = await exited;
    clearTimeout(kill);
    return code;
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${base}/health/live`)).ok) return { child, base, output: () => output, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the service did not answer within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
