// Write load: writers that create guides, and editors that race to edit one guide. Every answer is
// recorded: what was acknowledged (2xx), every other status with its time, and every network error.
import { call, keepAliveAgent, pause } from './service.mjs';

export function newTally() {
  return { acks: [], statuses: {}, failures: [], refused: 0, resets: 0, timeouts: 0, otherErrors: [], slowestMs: 0 };
}

function record(tally, res, what) {
  tally.slowestMs = Math.max(tally.slowestMs, res.ms);
  if (res.status) {
    tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
    if (res.status >= 300 && res.status !== 409) {
      tally.failures.push({
        what,
        status: res.status,
        started: res.started,
        ended: res.started + res.ms,
        retryAfter: res.headers['retry-after'],
        connection: res.headers.connection,
        body: res.body,
      });
    }
    return;
  }
  if (res.error === 'ECONNREFUSED') tally.refused += 1;
  else if (res.error === 'CLIENT_TIMEOUT') tally.timeouts += 1;
  else if (res.reused) tally.resets += 1;
  else if (res.error === 'ECONNRESET' || res.error === 'socket hang up') tally.resets += 1;
  else tally.otherErrors.push(res.error);
}

/**
 * `writers` loops, each on its own kept-alive connection, creating public guides in `category` on the
 * targets (round robin per writer) until `running()` is false.
 */
export async function createGuides({ targets, token, category, writers, prefix, running, tally }) {
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const target = targets[w % targets.length];
      const agent = keepAliveAgent();
      for (let n = 0; running(); n += 1) {
        const title = `${prefix} w${w} n${n}`;
        const summary = `Summary ${prefix}/${w}/${n}/${Math.random().toString(36).slice(2, 10)}`;
        const body = { category, type: 'replacement', subject: `Part ${w}-${n}`, title, summary, public: true };
        const res = await call(agent, 'POST', `${target()}/api/2.0/guides`, body, token);
        record(tally, res, 'POST /guides');
        if (res.status === 201) tally.acks.push({ guideid: res.body.guideid, title, summary, answered: res.body });
        else if (!res.status) await pause(100);
        else if (res.status >= 500) await pause(150);
      }
      agent.destroy();
    }),
  );
  return tally;
}

/**
 * `editors` loops racing to edit one guide's summary, each read-modify-write with the revision it read:
 * 200 acknowledges an edit (its revisionid), 409 says another edit won.
 */
export async function editOneGuide({ targets, token, guideid, editors, running, tally }) {
  await Promise.all(
    Array.from({ length: editors }, async (_, e) => {
      const target = targets[e % targets.length];
      const agent = keepAliveAgent();
      for (let n = 0; running(); n += 1) {
        const read = await call(agent, 'GET', `${target()}/api/2.0/guides/${guideid}?unpatrolled`, undefined, token);
        record(tally, read, 'GET /guides/{id}');
        if (read.status !== 200) {
          await pause(100);
          continue;
        }
        const summary = `Edit e${e} n${n} ${Math.random().toString(36).slice(2, 8)}`;
        const url = `${target()}/api/2.0/guides/${guideid}?revisionid=${read.body.head_revisionid}`;
        const res = await call(agent, 'PATCH', url, { summary }, token);
        record(tally, res, 'PATCH /guides/{id}');
        if (res.status === 200) {
          tally.acks.push({ guideid, summary, base: read.body.head_revisionid, revisionid: res.body.revisionid });
        }
      }
      agent.destroy();
    }),
  );
  return tally;
}
