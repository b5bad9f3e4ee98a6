// `npm run test:fuzz`: the schema-driven fuzz run over the OpenAPI document (test/fuzz), on SQLite or, with
// TEST_DB=mysql, on MySQL/MariaDB. Not part of `npm test`: it takes a few minutes.
const base = require('./jest.config');

const e2e = base.projects.find((project) => project.displayName === 'e2e');

module.exports = {
  rootDir: base.rootDir,
  globalSetup: base.globalSetup,
  globalTeardown: base.globalTeardown,
  testTimeout: 900_000,
  projects: [{ ...e2e, displayName: 'fuzz', testMatch: ['<rootDir>/test/fuzz/**/*.fuzz-spec.ts'] }],
};
