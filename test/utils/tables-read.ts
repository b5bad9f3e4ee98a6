import type { TestApp } from './test-app';

/**
 * Tables of work that runs beside requests and may log statements while `reads` runs: the rate limiter writes and
 * reads back its batched counters in the background (seen on MariaDB in CI). No answer is built from them.
 */
const BACKGROUND_TABLES = /\brate_limit_counters\b/i;

/**
 * The tables the statements `reads` runs read (FROM and JOIN, names of common table expressions left out),
 * lower case; statements are seen through the data source's logger, on SQLite and MySQL alike.
 */
export async function tablesRead(t: TestApp, reads: () => Promise<void>): Promise<Set<string>> {
  const logger = t.dataSource.logger;
  const logQuery = logger.logQuery.bind(logger);
  const statements: string[] = [];
  logger.logQuery = (sql, parameters, runner): void => {
    statements.push(sql);
    logQuery(sql, parameters, runner);
  };
  try {
    await reads();
  } finally {
    logger.logQuery = logQuery;
  }
  const read = new Set<string>();
  for (const sql of statements) {
    if (BACKGROUND_TABLES.test(sql)) continue;
    const named = new Set([...sql.matchAll(/\b(\w+)\s*(?:\([\w\s,]*\))?\s+AS\s*\(/gi)].map((m) => m[1].toLowerCase()));
    for (const match of sql.matchAll(/\b(?:FROM|JOIN)\s+[`"]?(\w+)[`"]?/gi))
      if (!named.has(match[1].toLowerCase())) read.add(match[1].toLowerCase());
  }
  return read;
}
