const path = require('node:path');
const fs = require('node:fs');

// Jest runs TypeScript through SWC. Nest 12 and several of its dependencies ship ESM only, and jest's
// module system cannot require ESM, so those packages are transformed too. They are found, not listed:
// a package is taken as ESM-only when it says "type": "module" and names no .cjs entry point (transforming
// a CommonJS file by mistake costs only time).
function esmOnlyPackages(nodeModules) {
  const found = new Set();
  const visit = (dir, name) => {
    let pkg;
    try {
      pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    } catch {
      return;
    }
    if (pkg.type === 'module' && !JSON.stringify([pkg.exports, pkg.main]).includes('.cjs')) found.add(name);
  };
  for (const entry of fs.readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const sub of fs.readdirSync(path.join(nodeModules, entry)))
        visit(path.join(nodeModules, entry, sub), `${entry}/${sub}`);
    } else {
      visit(path.join(nodeModules, entry), entry);
    }
  }
  return [...found].map((name) => name.replace(/[.+]/g, '\\$&'));
}

const ESM_PACKAGES = esmOnlyPackages(path.resolve(__dirname, '../node_modules'));

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const shared = {
  rootDir: path.resolve(__dirname, '..'),
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // generated src/metadata.ts imports './x.js' (nodenext style); in jest those are the .ts sources
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

module.exports = {
  rootDir: path.resolve(__dirname, '..'),
  globalSetup: '<rootDir>/test/setup/global-setup.js',
  globalTeardown: '<rootDir>/test/setup/global-teardown.js',
  // Generous: one process runs every file (--runInBand), its heap grows over the run, and the demo-seeding
  // hooks of the last files took 44 s in a CI run (30 s was the limit). Speed is measured by the bench.
  testTimeout: 120000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
