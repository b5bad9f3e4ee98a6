import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp } from '../bootstrap/create-app';
import { loadConfig } from '../config/app-config';
import { buildOpenApiDocument } from './openapi';

export const OPENAPI_FILE = resolve(__dirname, '../../../openapi/openapi.json');

/** The document as committed: built from a throw-away app on an in-memory database. */
export async function generateOpenApiJson(): Promise<string> {
  const config = loadConfig({ DB_TYPE: 'sqlite', DB_PATH: ':memory:', SEED_DEMO: 'false', LOG_LEVEL: 'silent' });
  const app = await createApp(config);
  try {
    return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  generateOpenApiJson()
    .then((json) => {
      writeFileSync(OPENAPI_FILE, json);
      process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
