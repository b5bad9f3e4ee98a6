// npm run test:replica: a private MariaDB primary (binlog on) and a replica of it, both with their own
// datadirs on loopback ports (3317, 3318; the shared server on 3306 has no binlog and is never
// restarted), then the e2e specs of every write path with DB_REPLICA_HOSTS pointing at the replica:
// GET requests read from the replica, writes and every read inside them from the primary.
// test/platform/replica.e2e-spec.ts proves the split with the replica's SQL thread stopped.
// Arguments: spec paths to run instead of the default list.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startPrivateMariadb } from './mariadb.mjs';

const PRIMARY_PORT = Number(process.env.REPLICA_PRIMARY_PORT ?? 3317);
const REPLICA_PORT = Number(process.env.REPLICA_PORT ?? 3318);
const ROOT = resolve(import.meta.dirname, '../..');
const DEFAULT_SPECS = [
  'test/platform',
  'test/guides',
  'test/wikis',
  'test/accounts',
  'test/media',
  'test/comments',
  'test/tags',
  'test/view-history',
];
const specs = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT_SPECS;

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

async function replicate(primary, replica) {
  const [status] = await primary.query('SHOW MASTER STATUS');
  await replica.query(
    `CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = ?, MASTER_USER = 'root', MASTER_PASSWORD = '',
       MASTER_LOG_FILE = ?, MASTER_LOG_POS = ?, MASTER_USE_GTID = no`,
    [primary.port, status.File, status.Position],
  );
  await replica.query('START SLAVE');
  for (let i = 0; i < 100; i += 1) {
    const [s] = await replica.query('SHOW SLAVE STATUS');
    if (s?.Slave_IO_Running === 'Yes' && s?.Slave_SQL_Running === 'Yes') return;
    await pause(200);
  }
  throw new Error('the replica did not start replicating');
}

const primary = await startPrivateMariadb({ port: PRIMARY_PORT, binlog: true, serverId: 1, name: 'primary' });
let replica;
let code = 1;
try {
  replica = await startPrivateMariadb({ port: REPLICA_PORT, serverId: 2, name: 'replica' });
  await replicate(primary, replica);
  console.log(`primary 127.0.0.1:${PRIMARY_PORT} (binlog) -> replica 127.0.0.1:${REPLICA_PORT}: replicating`);
  const jest = spawn(
    process.execPath,
    [resolve(ROOT, 'node_modules/jest/bin/jest.js'), '--config', 'test/jest.config.js', '--runInBand', ...specs],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        TEST_DB: 'mysql',
        TEST_DATABASE_URL: primary.url,
        TEST_DB_REPLICA_HOSTS: `127.0.0.1:${REPLICA_PORT}`,
        TEST_REPLICA_URL: replica.url,
      },
    },
  );
  code = await new Promise((done) => jest.on('exit', (c) => done(c ?? 1)));
  const [s] = await replica.query('SHOW SLAVE STATUS');
  console.log(
    `replica after the run: IO ${s.Slave_IO_Running}, SQL ${s.Slave_SQL_Running}, last error "${s.Last_Error}"`,
  );
  if (s.Slave_SQL_Running !== 'Yes') code = 1;
} finally {
  await replica?.destroy();
  await primary.destroy();
}
process.exit(code);
