// A private MariaDB server for fault tests: its own datadir in a temp directory, loopback only, on a port
// of its own. Never the shared server on 3306: these tests stop and freeze the server they use.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';

const MARIADBD = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((p) => existsSync(p));
const INSTALL_DB = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'].find((p) => existsSync(p));

export const mariadbAvailable = () => Boolean(MARIADBD && INSTALL_DB);

/** Whether every thread of the process is stopped (state T in /proc; true where there is no /proc). */
function allStopped(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).every((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return /^[Tt]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
    });
  } catch {
    return true;
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when something answers MySQL on the port (without credentials it may refuse; any answer counts). */
async function answers(port) {
  try {
    const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 });
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates a datadir and starts mariadbd on 127.0.0.1:`port`.
 * `binlog`: log_bin on (a replication primary); `serverId`: its server_id.
 * Answers { port, url, pid, stop(signal), freeze(), thaw(), start(), destroy(), query(sql) }.
 */
export async function startPrivateMariadb({ port, binlog = false, serverId = 1, name = 'db' } = {}) {
  if (port === 3306) throw new Error('never use the shared server on 3306 for fault tests');
  if (!mariadbAvailable()) throw new Error('mariadbd is not installed (Debian package mariadb-server)');
  if (await answers(port)) throw new Error(`something already answers on 127.0.0.1:${port}`);
  const dir = mkdtempSync(join(tmpdir(), `rgcs-${name}-`));
  const datadir = join(dir, 'data');
  mkdirSync(datadir);
  const install = spawnSync(
    INSTALL_DB,
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr || install.stdout}`);

  const args = [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${join(dir, 'mysqld.sock')}`,
    `--pid-file=${join(dir, 'mysqld.pid')}`,
    `--log-error=${join(dir, 'error.log')}`,
    '--user=root',
    '--skip-name-resolve',
    '--innodb-buffer-pool-size=32M',
    '--innodb-log-file-size=16M',
    '--max-connections=200',
    `--server-id=${serverId}`,
    ...(binlog ? [`--log-bin=${join(datadir, `${name}-bin`)}`, '--binlog-format=ROW'] : ['--skip-log-bin']),
  ];
  let child;
  const server = {
    port,
    dir,
    url: `mysql://root@127.0.0.1:${port}/`,
    get pid() {
      return child?.pid;
    },
    /** Starts (again) on the same datadir; resolves when it answers. */
    async start() {
      child = spawn(MARIADBD, args, { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      server.exited = exited;
      const deadline = Date.now() + 60_000;
      while (!(await answers(port))) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`mariadbd on ${port} did not start; see ${join(dir, 'error.log')}`);
        }
        await pause(200);
      }
    },
    /** Sends `signal` (SIGTERM: clean stop, SIGKILL: crash) and waits for the exit. */
    async stop(signal = 'SIGTERM') {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      if (signal !== 'SIGCONT') child.kill('SIGCONT');
      child.kill(signal);
      await server.exited;
    },
    /**
     * Accepts connections (the kernel does) and answers nothing, as a hung server. Returns once every thread
     * is stopped: kill() only queues the signal, and a thread still running could answer one more statement.
     */
    freeze: () => {
      child.kill('SIGSTOP');
      const deadline = Date.now() + 2000;
      while (!allStopped(child.pid) && Date.now() < deadline) {
        /* a few milliseconds at most */
      }
    },
    thaw: () => child.kill('SIGCONT'),
    async query(sql, params = []) {
      const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', multipleStatements: true });
      try {
        const [rows] = await c.query(sql, params);
        return rows;
      } finally {
        await c.end();
      }
    },
    async destroy() {
      await server.stop('SIGKILL').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
