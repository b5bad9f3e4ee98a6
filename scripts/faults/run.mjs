// npm run test:faults: the operator scenarios of issue 12 against the built service (dist), on SQLite
// and on a private MariaDB (loopback, its own datadir and port; never the shared server). Reports, per
// scenario, acknowledged writes, lost, corrupted, stale derived rows after recovery and 5xx answers, and
// exits 1 unless lost, corrupted and stale are 0 and the only 5xx are 503s while the database is away.
import { existsSync } from 'node:fs';
import { mariadbAvailable, startPrivateMariadb } from './mariadb.mjs';
import { MAIN } from './service.mjs';
import {
  databaseStopStart,
  frozenDatabase,
  kill9UnderLoad,
  sigtermUnderLoad,
  twentyWritersOneGuide,
  twoProcessesOneSqliteFile,
} from './scenarios.mjs';

const PRIVATE_MARIADB_PORT = Number(process.env.FAULTS_MARIADB_PORT ?? 3327);
const only = process.argv.slice(2);

if (!existsSync(MAIN)) {
  console.error(`${MAIN} is missing: run npm run build first`);
  process.exit(1);
}

const sqliteScenarios = [
  ['kill9-sqlite', () => kill9UnderLoad({ db: 'sqlite' })],
  ['sigterm-sqlite', () => sigtermUnderLoad({ db: 'sqlite' })],
  ['two-processes-sqlite', () => twoProcessesOneSqliteFile()],
];
const mariadbScenarios = [
  ['kill9-mariadb', (server) => kill9UnderLoad({ db: 'mysql', server })],
  ['sigterm-mariadb', (server) => sigtermUnderLoad({ db: 'mysql', server })],
  ['db-stop-start', (server) => databaseStopStart({ server })],
  ['db-frozen', (server) => frozenDatabase({ server })],
  ['twenty-writers-one-guide', (server) => twentyWritersOneGuide({ server })],
];
const wanted = ([name]) => only.length === 0 || only.includes(name);

function failed(result) {
  return (
    result.lost > 0 ||
    result.corrupted > 0 ||
    result.stale > 0 ||
    result.unexpected5xx > 0 ||
    (result.problems?.length ?? 0) > 0
  );
}

const results = [];
async function runOne(name, fn, server) {
  const started = Date.now();
  process.stdout.write(`--- ${name} ... `);
  try {
    const result = await fn(server);
    result.seconds = Math.round((Date.now() - started) / 100) / 10;
    results.push(result);
    console.log(failed(result) ? 'FAILED' : 'ok', `(${result.seconds} s)`);
  } catch (error) {
    results.push({ name, error: error.stack ?? String(error) });
    console.log('ERROR', error.stack ?? error);
  } finally {
    if (server && server.pid) server.thaw();
  }
}

const started = Date.now();
for (const [name, fn] of sqliteScenarios.filter(wanted)) await runOne(name, fn);

const needMariadb = mariadbScenarios.filter(wanted);
if (needMariadb.length) {
  if (!mariadbAvailable()) {
    console.error('mariadbd is not installed: the MariaDB scenarios cannot run');
    process.exit(1);
  }
  const server = await startPrivateMariadb({ port: PRIVATE_MARIADB_PORT, name: 'faults' });
  try {
    for (const [name, fn] of needMariadb) {
      if (!server.pid || (server.exited && (await Promise.race([server.exited.then(() => true), false]))))
        await server.start();
      await runOne(name, fn, server);
    }
  } finally {
    await server.destroy();
  }
}

console.log('\n| scenario | acknowledged | lost | corrupted | stale | 503 | other 5xx | resets | notes |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const r of results) {
  if (r.error) {
    console.log(`| ${r.name} | error | | | | | | | ${r.error.split('\n')[0]} |`);
    continue;
  }
  const notes = [
    r.committed !== undefined ? `committed ${r.committed}` : '',
    r.conflicts !== undefined ? `409 ${r.conflicts}` : '',
    r.exitMs !== undefined ? `exit ${r.exitMs} ms` : '',
    r.slowestProbeMs !== undefined
      ? `probe ${r.slowestProbeMs} ms, health ${r.healthMs} ms, slowest request ${r.slowestRequestMs} ms`
      : '',
    r.commitUnknownLogged ? `COMMIT unknown logged ${r.commitUnknownLogged}` : '',
    ...(r.problems ?? []),
  ]
    .filter(Boolean)
    .join('; ');
  console.log(
    `| ${r.name} | ${r.acknowledged} | ${r.lost} | ${r.corrupted} | ${r.stale} | ${r.http503} | ${r.unexpected5xx} | ${r.resets} | ${notes} |`,
  );
}
const bad = results.filter((r) => r.error || failed(r));
for (const r of bad)
  if (!r.error) console.log(`\n${r.name}:`, JSON.stringify({ examples: r.examples, statuses: r.statuses }));
console.log(
  `\n${results.length} scenarios in ${Math.round((Date.now() - started) / 1000)} s: ${bad.length ? `${bad.length} FAILED` : 'all held'}`,
);
process.exit(bad.length ? 1 : 0);
