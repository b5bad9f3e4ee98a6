import type { LightMyRequestResponse } from 'fastify';
import { AuditReader } from '../../src/platform/audit/audit-reader.service';
import type { TestApp } from '../utils/test-app';

export const API = '/api/2.0';
export const START = Date.UTC(2026, 4, 4, 9);
export const START_S = START / 1000;

export function requests(t: () => TestApp) {
  const send = (method: string, token: string | undefined, url: string, payload?: unknown) =>
    t().as(token, {
      method,
      url: `${API}${url}`,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return {
    get: (token: string | undefined, url: string) => send('GET', token, url),
    post: (token: string | undefined, url: string, payload: unknown = {}) => send('POST', token, url, payload),
    patch: (token: string | undefined, url: string, payload: unknown = {}) => send('PATCH', token, url, payload),
    del: (token: string | undefined, url: string, payload?: unknown) => send('DELETE', token, url, payload),
  };
}

/** Status and body together, so that a failure shows both. */
export const answer = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  body: res.body ? res.json<unknown>() : undefined,
});

export const auditActions = async (t: TestApp, type: string, id: number) =>
  (
    await t.app.get(AuditReader).list({ entity_type: type, entity_id: String(id), order: 'ASC', offset: 0, limit: 200 })
  ).map((row) => row.action);
