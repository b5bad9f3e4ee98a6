// While the database is away: every kind of route (reads, writes, login, the token check) must answer
// 503 with Retry-After and the error body, in bounded time; /health must answer 503 within 2 s.
import { ADMIN, call } from './service.mjs';

export const REQUEST_LIMIT_MS = 10_000;
export const HEALTH_LIMIT_MS = 2_000;

export async function probeRoutes(base, token, guideid, category) {
  const routes = [
    ['GET', '/api/2.0/guides'],
    ['GET', `/api/2.0/guides/${guideid}`],
    ['GET', `/api/2.0/wikis/CATEGORY/${encodeURIComponent(category)}`],
    ['GET', '/api/2.0/user', undefined, token],
    ['POST', '/api/2.0/user/token', ADMIN],
    ['POST', '/api/2.0/guides', { category, type: 'replacement', subject: 'probe', public: true }, token],
    ['PATCH', `/api/2.0/guides/${guideid}?revisionid=1`, { summary: 'probe' }, token],
  ];
  const [health, ...answers] = await Promise.all([
    call(null, 'GET', `${base}/health`),
    ...routes.map(([method, path, body, auth]) => call(null, method, base + path, body, auth)),
  ]);
  const problems = [];
  if (health.status !== 503 || health.ms > HEALTH_LIMIT_MS) {
    problems.push(`GET /health: ${health.status ?? health.error} after ${health.ms} ms`);
  }
  answers.forEach((res, i) => {
    const name = `${routes[i][0]} ${routes[i][1]}`;
    const bodyOk = res.body && res.body.error === true && typeof res.body.message === 'string';
    if (res.status !== 503 || !res.headers['retry-after'] || !bodyOk || res.ms > REQUEST_LIMIT_MS) {
      problems.push(
        `${name}: ${res.status ?? res.error} after ${res.ms} ms, retry-after ${res.headers?.['retry-after']}, ` +
          `body ${JSON.stringify(res.body).slice(0, 120)}`,
      );
    }
  });
  return {
    ok: problems.length === 0,
    slowestMs: Math.max(...answers.map((r) => r.ms)),
    healthMs: health.ms,
    problems,
  };
}
