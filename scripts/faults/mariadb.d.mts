export interface PrivateMariadb {
  readonly port: number;
  readonly dir: string;
  /** mysql://root@127.0.0.1:<port>/ */
  readonly url: string;
  readonly pid: number | undefined;
  start(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  freeze(): void;
  thaw(): void;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  destroy(): Promise<void>;
}

export function mariadbAvailable(): boolean;

export function startPrivateMariadb(options?: {
  port?: number;
  binlog?: boolean;
  serverId?: number;
  name?: string;
}): Promise<PrivateMariadb>;
