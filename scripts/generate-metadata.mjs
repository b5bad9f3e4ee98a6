// Regenerates src/metadata.ts: what the @nestjs/swagger compiler plugin infers from DTOs and controllers
// (types, optionality, doc comments). The app loads it at start, so the document is the same whether the
// code was compiled by tsc (nest build) or by SWC (jest). Usage: node scripts/generate-metadata.mjs [outFile]
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const { PluginMetadataGenerator } = require('@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator.js');
const { ReadonlyVisitor } = require('@nestjs/swagger/plugin');
const pluginOptions = require('../nest-cli.json').compilerOptions.plugins.find(
  (p) => p.name === '@nestjs/swagger',
).options;

const root = resolve(import.meta.dirname, '..');
const out = resolve(root, process.argv[2] ?? 'src/metadata.ts');
process.chdir(root);
new PluginMetadataGenerator().generate({
  visitors: [new ReadonlyVisitor({ ...pluginOptions, pathToSource: resolve(root, 'src') })],
  outputDir: dirname(out),
  filename: basename(out),
  tsconfigPath: 'tsconfig.build.json',
  printDiagnostics: false,
});
