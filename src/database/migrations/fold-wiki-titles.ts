import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';

/** Rows read or written per statement. */
const BATCH = 500;
/** The width of wikis.title. */
const TITLE_LENGTH = 255;

/** The rule of this migration, frozen here: a title's identity is its toLowerCase() (accents are kept). */
const foldedHash = (title: string): string => createHash('sha256').update(title.toLowerCase(), 'utf8').digest('hex');
const exactHash = (title: string): string => createHash('sha256').update(title, 'utf8').digest('hex');

interface WikiRow {
  wikiid: number;
  namespace: string;
  title: string;
  created: number;
}

export interface RenamedDuplicate {
  wikiid: number;
  namespace: string;
  from: string;
  to: string;
  /** The wiki that keeps the title. */
  keptWikiid: number;
}

async function readInBatches<T>(runner: QueryRunner, sql: (after: number) => string, key: (row: T) => number) {
  const rows: T[] = [];
  for (let after = 0; ; ) {
    const batch = (await runner.query(sql(after), [])) as T[];
    rows.push(...batch);
    if (batch.length < BATCH) return rows;
    after = key(batch[batch.length - 1]);
  }
}

/** `UPDATE table SET column = CASE id … END` for up to BATCH rows a statement. */
async function updateInBatches(
  runner: QueryRunner,
  table: string,
  idColumn: string,
  column: string,
  values: [id: number, value: string][],
): Promise<void> {
  for (let i = 0; i < values.length; i += BATCH) {
    const chunk = values.slice(i, i + BATCH);
    const cases = chunk.map(() => 'WHEN ? THEN ?').join(' ');
    const ids = chunk.map(() => '?').join(', ');
    await runner.query(`UPDATE ${table} SET ${column} = CASE ${idColumn} ${cases} END WHERE ${idColumn} IN (${ids})`, [
      ...chunk.flat(),
      ...chunk.map(([id]) => id),
    ]);
  }
}

/** A title no other wiki of the namespace has, in any case: "<title> (duplicate <wikiid>)". */
function duplicateTitle(row: WikiRow, taken: Map<string, number>): string {
  for (let attempt = 0; ; attempt++) {
    const suffix = ` (duplicate ${row.wikiid}${attempt ? `-${attempt}` : ''})`;
    const title = `${row.title.slice(0, TITLE_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(`${row.namespace}\u0000${title.toLowerCase()}`)) return title;
  }
}

/**
 * Makes wiki identity case-insensitive: `wikis.title_hash` and `wiki_category_guides.category_hash` become
 * the SHA-256 of the lower-cased title. Of wikis of one namespace whose titles differ only by case, the
 * oldest (created first, then lowest wikiid) keeps its title; the others are renamed to a unique title
 * and logged. Renames are written first, so that no intermediate state breaks the unique index.
 */
export async function foldWikiTitles(runner: QueryRunner): Promise<RenamedDuplicate[]> {
  const wikis = await readInBatches<WikiRow>(
    runner,
    (after) =>
      `SELECT wikiid, namespace, title, created_date AS created FROM wikis WHERE wikiid > ${after} ORDER BY wikiid LIMIT ${BATCH}`,
    (row) => Number(row.wikiid),
  );
  wikis.sort((a, b) => Number(a.created) - Number(b.created) || Number(a.wikiid) - Number(b.wikiid));
  const keptBy = new Map<string, number>();
  const duplicates: WikiRow[] = [];
  for (const row of wikis) {
    const key = `${row.namespace}\u0000${row.title.toLowerCase()}`;
    if (keptBy.has(key)) duplicates.push(row);
    else keptBy.set(key, Number(row.wikiid));
  }
  const renamed: RenamedDuplicate[] = [];
  const logger = new Logger('Migrations');
  for (const row of duplicates) {
    const title = duplicateTitle(row, keptBy);
    keptBy.set(`${row.namespace}\u0000${title.toLowerCase()}`, Number(row.wikiid));
    await runner.query('UPDATE wikis SET title = ?, title_hash = ? WHERE wikiid = ?', [
      title,
      foldedHash(title),
      row.wikiid,
    ]);
    const keptWikiid = keptBy.get(`${row.namespace}\u0000${row.title.toLowerCase()}`)!;
    renamed.push({ wikiid: Number(row.wikiid), namespace: row.namespace, from: row.title, to: title, keptWikiid });
    logger.warn(
      `${row.namespace} wiki ${row.wikiid} "${row.title}" differs from wiki ${keptWikiid} only by case: renamed "${title}"`,
    );
  }
  const renamedIds = new Set(renamed.map((r) => r.wikiid));
  const rest = wikis.filter((row) => !renamedIds.has(Number(row.wikiid)) && row.title !== row.title.toLowerCase());
  await updateInBatches(
    runner,
    'wikis',
    'wikiid',
    'title_hash',
    rest.map((row) => [Number(row.wikiid), foldedHash(row.title)]),
  );
  await rehashCategoryGuides(runner, foldedHash);
  return renamed;
}

/** wiki_category_guides.category_hash from its category column under `hash`. */
export async function rehashCategoryGuides(runner: QueryRunner, hash: (title: string) => string): Promise<void> {
  const guides = await readInBatches<{ guideid: number; category: string }>(
    runner,
    (after) =>
      `SELECT guideid, category FROM wiki_category_guides WHERE guideid > ${after} ORDER BY guideid LIMIT ${BATCH}`,
    (row) => Number(row.guideid),
  );
  const changed = guides.filter((row) => row.category !== row.category.toLowerCase());
  await updateInBatches(
    runner,
    'wiki_category_guides',
    'guideid',
    'category_hash',
    changed.map((row) => [Number(row.guideid), hash(row.category)]),
  );
}

/** Back to exact-title hashes (renamed duplicates keep their new titles). */
export async function unfoldWikiTitles(runner: QueryRunner): Promise<void> {
  const wikis = await readInBatches<WikiRow>(
    runner,
    (after) => `SELECT wikiid, title FROM wikis WHERE wikiid > ${after} ORDER BY wikiid LIMIT ${BATCH}`,
    (row) => Number(row.wikiid),
  );
  const changed = wikis.filter((row) => row.title !== row.title.toLowerCase());
  await updateInBatches(
    runner,
    'wikis',
    'wikiid',
    'title_hash',
    changed.map((row) => [Number(row.wikiid), exactHash(row.title)]),
  );
  await rehashCategoryGuides(runner, exactHash);
}
