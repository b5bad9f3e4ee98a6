import { extname } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Loads a TypeScript module in a worker: `.ts` files are compiled by SWC as they are required (the tests
 * run the sources; SWC is a development dependency, never needed by dist/).
 */
const fromSources = (entry: string) => `
const { createRequire } = require('node:module');
const { readFileSync } = require('node:fs');
const local = createRequire(${JSON.stringify(entry)});
const { transformSync } = local('@swc/core');
local.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: { parser: { syntax: 'typescript', decorators: true }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
local(${JSON.stringify(entry)});
`;

/**
 * Starts a worker thread on a module of this service, named without its extension
 * (`join(__dirname, 'package-worker')`): the compiled `.js` file when the service runs from dist/, the
 * `.ts` source when it runs from the sources (jest).
 */
export function startWorker(base: string, options: WorkerOptions = {}): Worker {
  if (extname(__filename) !== '.ts') return new Worker(`${base}.js`, options);
  return new Worker(fromSources(`${base}.ts`), { ...options, eval: true });
}
