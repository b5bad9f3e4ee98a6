import type { AppConfig } from '../config/app-config';
import { StartupError } from './startup-error';

/** The one line printed when the HTTP server cannot listen on HOST:PORT; undefined for an unknown cause. */
export function listenError(error: unknown, config: Pick<AppConfig, 'host' | 'port'>): StartupError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  const where = `${config.host}:${config.port}`;
  const fail = (message: string) => new StartupError(message, { cause: error });
  switch (code) {
    case 'EADDRINUSE':
      return fail(
        `Cannot listen on ${where}: the port is already in use by another process. Stop that process or set PORT to a free port.`,
      );
    case 'EACCES':
      return fail(
        `Cannot listen on ${where}: permission denied (ports below 1024 need privileges). Set PORT to 1024 or above.`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail(
        `Cannot listen on ${where}: HOST "${config.host}" is not a known host name. Set HOST to an address of this machine (127.0.0.1, 0.0.0.0, ::) or a name that resolves to one.`,
      );
    case 'EADDRNOTAVAIL':
      return fail(
        `Cannot listen on ${where}: HOST "${config.host}" is not an address of this machine. Set HOST to 127.0.0.1 (this machine only), 0.0.0.0 or :: (every interface).`,
      );
    default:
      return undefined;
  }
}
