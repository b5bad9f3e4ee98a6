// After recovery: is every acknowledged write there and intact, and have the derived rows (the category
// guide index, reputation) caught up with the guides that exist?
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { call, keepAliveAgent, pause } from './service.mjs';

/** Ground truth straight from the database (read-only use). */
export async function openTruth(database) {
  if (database.type === 'sqlite') {
    return {
      all: async (sql, params = []) => {
        const db = new Database(database.path, { readonly: true, fileMustExist: true });
        try {
          return db.prepare(sql).all(...params);
        } finally {
          db.close();
        }
      },
      close: async () => undefined,
    };
  }
  const c = await mysql.createConnection(database.url);
  return {
    all: async (sql, params = []) => (await c.query(sql, params))[0],
    close: () => c.end(),
  };
}

const REPUTATION_PER_PUBLISHED_GUIDE = 10;

async function inBatches(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** Lost and corrupted acknowledged guide creations, read back through the API. */
export async function checkCreatedGuides({ base, token, acks }) {
  const agent = keepAliveAgent();
  let lost = 0;
  let corrupted = 0;
  const examples = [];
  await inBatches(acks, 8, async (ack) => {
    const res = await call(agent, 'GET', `${base}/api/2.0/guides/${ack.guideid}`, undefined, token);
    const answered = ack.answered;
    if (answered.title !== ack.title || answered.summary !== ack.summary) {
      corrupted += 1;
      examples.push({ kind: 'answer differs from the request', ack: ack.guideid });
    }
    if (res.status === 404) {
      lost += 1;
      examples.push({ kind: 'lost', guideid: ack.guideid });
    } else if (res.status !== 200) {
      throw new Error(`reading guide ${ack.guideid} after recovery answered ${res.status ?? res.error}`);
    } else if (res.body.title !== ack.title || res.body.summary !== ack.summary) {
      corrupted += 1;
      examples.push({ kind: 'corrupted', guideid: ack.guideid, stored: [res.body.title, res.body.summary] });
    }
  });
  agent.destroy();
  return { lost, corrupted, examples: examples.slice(0, 5) };
}

/**
 * Derived rows that disagree with the guides that exist: guides missing from (or extra in) the category
 * guide index `GET /wikis/CATEGORY/{title}`, and reputation points the author is missing (or has extra).
 * Waits up to `waitMs` for the event dispatcher to catch up; answers what is still stale then.
 */
export async function checkDerived({ base, truth, category, userid, waitMs = 30_000 }) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const exists = await truth.all(
      'SELECT guideid FROM guides WHERE category = ? AND public = 1 AND deleted = 0 ORDER BY guideid',
      [category],
    );
    const [{ n: published }] = await truth.all(
      'SELECT COUNT(*) AS n FROM guides WHERE authorid = ? AND public = 1 AND deleted = 0',
      [userid],
    );
    const page = await call(null, 'GET', `${base}/api/2.0/wikis/CATEGORY/${encodeURIComponent(category)}`);
    const user = await call(null, 'GET', `${base}/api/2.0/users/${userid}`);
    if (page.status !== 200 || user.status !== 200) {
      throw new Error(`derived reads answered ${page.status ?? page.error} / ${user.status ?? user.error}`);
    }
    const listed = new Set(page.body.guides.map((g) => g.guideid));
    const existing = new Set(exists.map((r) => Number(r.guideid)));
    const missing = [...existing].filter((id) => !listed.has(id));
    const extra = [...listed].filter((id) => !existing.has(id));
    const expectedReputation = Number(published) * REPUTATION_PER_PUBLISHED_GUIDE;
    const reputationOff = Math.abs(user.body.reputation - expectedReputation) / REPUTATION_PER_PUBLISHED_GUIDE;
    const stale = missing.length + extra.length + reputationOff;
    if (stale === 0 || Date.now() > deadline) {
      return {
        stale,
        committed: existing.size,
        detail: { missingFromIndex: missing.slice(0, 10), extraInIndex: extra.slice(0, 10), reputationOff },
      };
    }
    await pause(500);
  }
}

/**
 * The race on one guide: every acknowledged edit must be a revision of its own holding what was sent
 * (two acknowledged edits on one base revision would be a lost update), and the guide ends at the newest.
 */
export async function checkEdits({ base, token, truth, guideid, acks }) {
  let lost = 0;
  let corrupted = 0;
  const examples = [];
  const bases = new Map();
  for (const ack of acks) {
    if (bases.has(ack.base)) {
      lost += 1;
      examples.push({ kind: 'two edits acknowledged on one base revision', base: ack.base });
    }
    bases.set(ack.base, ack);
  }
  const rows = await truth.all('SELECT revisionid, data FROM guide_revisions WHERE guideid = ?', [guideid]);
  const data = (r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data);
  const stored = new Map(rows.map((r) => [Number(r.revisionid), data(r).summary]));
  for (const ack of acks) {
    if (!stored.has(ack.revisionid)) {
      lost += 1;
      examples.push({ kind: 'acknowledged revision missing', revisionid: ack.revisionid });
    } else if (stored.get(ack.revisionid) !== ack.summary) {
      corrupted += 1;
      examples.push({ kind: 'revision holds something else', revisionid: ack.revisionid });
    }
  }
  const newest = acks.reduce((a, b) => (b.revisionid > (a?.revisionid ?? 0) ? b : a), undefined);
  const res = await call(null, 'GET', `${base}/api/2.0/guides/${guideid}?unpatrolled`, undefined, token);
  if (newest && (res.body.head_revisionid !== newest.revisionid || res.body.summary !== newest.summary)) {
    corrupted += 1;
    examples.push({ kind: 'the guide does not show the newest acknowledged edit', head: res.body.head_revisionid });
  }
  return { lost, corrupted, examples: examples.slice(0, 5) };
}
