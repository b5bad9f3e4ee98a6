import { createConnection, type Connection } from 'mysql2/promise';

/**
 * With a read replica (`npm run test:replica`), GET requests read from it. A test that writes and then
 * reads through a GET expects what it wrote, which a real client only gets once the replica has applied
 * it; so before each request the harness waits until the replica has applied everything the primary has
 * logged (MASTER_GTID_WAIT). Writes and the reads inside them are not helped: they go to the primary.
 */
export const replicaUrl = (): string | undefined => process.env.TEST_REPLICA_URL;

let connections: Promise<{ primary: Connection; replica: Connection }> | undefined;

function connect(): Promise<{ primary: Connection; replica: Connection }> {
  connections ??= Promise.all([
    createConnection(process.env.TEST_MYSQL_URL ?? ''),
    createConnection(replicaUrl() ?? ''),
  ]).then(([primary, replica]) => ({ primary, replica }));
  return connections;
}

export async function waitForReplica(timeoutSeconds = 20): Promise<void> {
  const { primary, replica } = await connect();
  const [rows] = await primary.query('SELECT @@gtid_binlog_pos AS pos');
  const pos = (rows as { pos: string }[])[0].pos;
  const [waited] = await replica.query('SELECT MASTER_GTID_WAIT(?, ?) AS result', [pos, timeoutSeconds]);
  if ((waited as { result: number }[])[0].result !== 0) throw new Error(`the replica did not reach ${pos}`);
}

export async function closeReplicaSync(): Promise<void> {
  const open = connections;
  connections = undefined;
  if (!open) return;
  const { primary, replica } = await open;
  await Promise.all([primary.end(), replica.end()]);
}
