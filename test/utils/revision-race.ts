import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from './test-app';
import { usingMysql } from './test-config';

/**
 * An app as production runs it: on SQLite a database file, so that reads outside transactions go to the second
 * (reading) connection; on MySQL the run's test database. `close` also removes the file.
 */
export async function productionApp(): Promise<TestApp> {
  const dir = usingMysql() ? undefined : mkdtempSync(join(tmpdir(), 'rgcs-race-'));
  const app = await createTestApp({
    env: {
      NODE_ENV: 'production',
      SIGNING_SECRET: 'a signing secret of the revision race test',
      ...(dir ? { DB_PATH: join(dir, 'race.sqlite') } : {}),
    },
  });
  return {
    ...app,
    close: async () => {
      await app.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RaceOptions {
  writers: number;
  /** Changes each writer makes before it stops. */
  edits: number;
  /** The revisionid every writer starts from. */
  start: number;
  /** One write of `writer` based on `revisionid`. */
  send(revisionid: number, writer: number, attempt: number): Promise<LightMyRequestResponse>;
  /** The revisionid a 200 or 409 body carries. */
  revisionOf(body: Record<string, unknown>): number;
}

export interface RaceOutcome {
  /** Revisionids answered by a 200 (each a committed write), and the start. */
  committed: Set<number>;
  conflicts: { sent: number; answered: number }[];
  /** Statuses other than 200 and 409. */
  unexpected: number[];
  /** Writers that had not made their edits after many attempts (a client looping on stale bodies). */
  stuck: number;
}

/**
 * `writers` clients edit one resource at once, as a client that retries from the 409 body does: send the
 * revisionid known, on 200 go on from the answer's revisionid, on 409 from the body's.
 */
export async function revisionRace(options: RaceOptions): Promise<RaceOutcome> {
  const outcome: RaceOutcome = { committed: new Set([options.start]), conflicts: [], unexpected: [], stuck: 0 };
  const maxAttempts = options.writers * options.edits * 4;
  const writer = async (index: number) => {
    let known = options.start;
    let made = 0;
    for (let attempt = 0; made < options.edits; attempt += 1) {
      if (attempt === maxAttempts) {
        outcome.stuck += 1;
        return;
      }
      const res = await options.send(known, index, attempt);
      if (res.statusCode !== 200 && res.statusCode !== 409) {
        outcome.unexpected.push(res.statusCode);
        return;
      }
      const answered = options.revisionOf(res.json());
      if (res.statusCode === 200) {
        made += 1;
        outcome.committed.add(answered);
      } else {
        outcome.conflicts.push({ sent: known, answered });
      }
      known = answered;
    }
  };
  await Promise.all(Array.from({ length: options.writers }, (_, i) => writer(i)));
  return outcome;
}

/**
 * What every race must show: no error, every writer done, conflicts seen, and every 409 body a committed
 * revision other than the stale one sent.
 */
export function expectCurrentConflictBodies(outcome: RaceOutcome, minConflicts: number): void {
  expect(outcome.unexpected).toEqual([]);
  expect(outcome.stuck).toBe(0);
  expect(outcome.conflicts.length).toBeGreaterThanOrEqual(minConflicts);
  const stale = outcome.conflicts.filter((c) => c.answered === c.sent || !outcome.committed.has(c.answered));
  expect({ stale: stale.length, of: outcome.conflicts.length }).toEqual({ stale: 0, of: outcome.conflicts.length });
}
