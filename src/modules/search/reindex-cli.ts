import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { createApp, shutdownApp } from '../../bootstrap/create-app';
import { loadConfig } from '../../config/app-config';
import { SearchIndexerService } from './search-indexer.service';

/** Rebuilds the search index of a running application context; returns the summary line. */
export async function reindex(app: INestApplicationContext): Promise<string> {
  const result = await app.get(SearchIndexerService).rebuild();
  return `search index rebuilt: ${result.guides} guides, ${result.wikis} wikis, ${result.rows} rows\n`;
}

/**
 * `npm run search:reindex`: rebuilds the search index of the configured database from the patrolled
 * guides and wikis (after a restore, or to refresh stored image URLs). Safe while the service runs:
 * each document is rewritten in its own transaction.
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, SCHEDULER_ENABLED: 'false', SEED_DEMO: 'false' });
  const app = await createApp(config);
  try {
    process.stdout.write(await reindex(app));
  } finally {
    await shutdownApp(app, { idleGraceMs: 0 });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`search:reindex failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
