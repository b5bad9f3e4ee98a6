// Regenerates src/metadata.ts: what the @nestjs/swagger plugin infers from DTOs and controllers (types,
// optionality, doc comments). The app loads it at start (SwaggerModule.loadPluginMetadata), so the build
// (plain tsc) and the tests (SWC) serve the same document without a compiler plugin.
// Usage: node scripts/generate-metadata.mjs [outFile]
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const { ReadonlyVisitor } = require('@nestjs/swagger/plugin');

// The options the plugin would get in a Nest CLI build.
const PLUGIN_OPTIONS = { introspectComments: true, classValidatorShim: true, dtoFileNameSuffix: ['.dto.ts'] };

const root = resolve(import.meta.dirname, '..');
const out = resolve(root, process.argv[2] ?? 'src/metadata.ts');

function loadProgram(tsconfigPath) {
  const config = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(tsconfigPath));
  return ts.createProgram(parsed.fileNames, parsed.options);
}

// nodenext resolution wants an extension on relative dynamic imports: import("./x.dto") -> import("./x.dto.js").
const withJs = (specifier) => (/^\.\.?\//.test(specifier) && !/\.[cm]?[jt]s$|\.json$/.test(specifier) ? `${specifier}.js` : specifier);

function addJsToImports(node) {
  const visit = (n) => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteralLike(n.arguments[0])) {
      const specifier = withJs(n.arguments[0].text);
      return ts.factory.updateCallExpression(n, n.expression, n.typeArguments, [
        ts.factory.createStringLiteral(specifier),
        ...n.arguments.slice(1),
      ]);
    }
    return ts.visitEachChild(n, visit, undefined);
  };
  return visit(node);
}

const f = ts.factory;
const key = (name) => f.createStringLiteral(name);

function objectOf(meta) {
  if (ts.isObjectLiteralExpression?.(meta)) return meta;
  return f.createObjectLiteralExpression(Object.entries(meta).map(([name, value]) => property(name, value)));
}

function property(name, value) {
  if (Array.isArray(value)) {
    // a section: [importExpression, { member: metadata }] pairs
    const pairs = value.map(([importExpression, members]) =>
      f.createArrayLiteralExpression([addJsToImports(importExpression), objectOf(members)]),
    );
    return f.createPropertyAssignment(key(name), f.createArrayLiteralExpression(pairs));
  }
  return f.createPropertyAssignment(key(name), objectOf(value));
}

const program = loadProgram(resolve(root, 'tsconfig.build.json'));
// Type-check everything first, as a build does: the checker numbers types as it meets them, and union
// members (enum values in the document) are printed in that order.
ts.getPreEmitDiagnostics(program);
const visitor = new ReadonlyVisitor({ ...PLUGIN_OPTIONS, pathToSource: resolve(root, 'src') });
for (const sourceFile of program.getSourceFiles()) {
  if (!sourceFile.isDeclarationFile) visitor.visit(program, sourceFile);
}
const collected = { [visitor.key]: visitor.collect() };
const typeImports = Object.entries(visitor.typeImports).map(([name, expression]) =>
  f.createPropertyAssignment(
    f.createComputedPropertyName(key(name)),
    f.createIdentifier(expression.replace(/import\((['"])(.*?)\1\)/g, (_, q, s) => `import(${q}${withJs(s)}${q})`)),
  ),
);
const body = f.createBlock(
  [
    f.createVariableStatement(
      undefined,
      f.createVariableDeclarationList(
        [f.createVariableDeclaration('t', undefined, undefined, f.createObjectLiteralExpression(typeImports, true))],
        ts.NodeFlags.Const,
      ),
    ),
    f.createReturnStatement(f.createObjectLiteralExpression(Object.entries(collected).map(([n, v]) => property(n, v)))),
  ],
  true,
);
const exported = f.createExportAssignment(
  undefined,
  undefined,
  f.createArrowFunction([f.createToken(ts.SyntaxKind.AsyncKeyword)], undefined, [], undefined, undefined, body),
);
const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
const file = ts.createSourceFile('metadata.ts', '', ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
writeFileSync(out, `/* eslint-disable */\n${printer.printNode(ts.EmitHint.Unspecified, exported, file)}`);
