import { ContentVersions, type ContentName } from '../../src/platform/versions/content-versions';
import type { TestApp } from './test-app';

/**
 * `read` with the `name` token row deleted (nothing may be kept then, so the answer is built from the rows), then
 * the same token put back.
 */
export async function withoutVersionToken<T>(t: TestApp, name: ContentName, read: () => Promise<T>): Promise<T> {
  const token = await t.app.get(ContentVersions).read(name);
  await t.dataSource.query('DELETE FROM content_versions WHERE name = ?', [name]);
  try {
    return await read();
  } finally {
    if (token !== null) await t.dataSource.query('INSERT INTO content_versions (name, token) VALUES (?, ?)', [name, token]);
  }
}
