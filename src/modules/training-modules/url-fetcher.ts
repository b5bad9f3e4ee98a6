import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/** Why a fetch failed: the address was refused, or the download did not complete. */
export class FetchError extends Error {
  constructor(
    readonly code: 'URL_REFUSED' | 'DOWNLOAD_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface FetchOptions {
  /** `host` or `host:port` entries exempt from the address filter (and allowed over plain http). */
  allow: string[];
  /** Largest body accepted (bytes). */
  limit: number;
  onProgress?: (bytes: number, total: number | null) => void;
  signal?: AbortSignal;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxRedirects?: number;
  /** A download that receives fewer than `bytesPerSecond` × the window's seconds in a window fails (0: no floor). */
  minRate?: { bytesPerSecond: number; windowMs: number };
  /** Name resolution (default dns.lookup); the filtering agent checks whatever address it answers. */
  lookup?: LookupFunction;
}

/** Addresses never fetched (unless the host is allowed): loopback, private, link-local, unique-local, metadata, … */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP literal is one the filter refuses (an IPv4-mapped IPv6 address is judged by its IPv4 part). */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
    if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
    const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
    if (hexMapped) {
      const hi = parseInt(hexMapped[1], 16);
      const lo = parseInt(hexMapped[2], 16);
      return BLOCKED.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
    }
    return BLOCKED.check(bare, 'ipv6');
  }
  return false;
}

/** Whether `url`'s host (or host:port) is listed in TRAINING_URL_ALLOW. */
export function isAllowedHost(url: URL, allow: string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allow.includes(host) || allow.includes(`${host}:${port}`);
}

/**
 * What can be refused from the URL's text alone (answered 422 at once): not http(s), http for a host
 * that is not allowed, `localhost`, or a literal address in a refused range (the URL parser already turns
 * spellings such as `0x7f.1` or `2130706433` into dotted form). Null when the text is acceptable; the
 * resolved address is still checked at connect time.
 */
export function refusalOf(raw: string, allow: string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  const allowed = isAllowedHost(url, allow);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed)) return 'url must be https';
  if (allowed) return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'url names a local host';
  if (isBlockedAddress(host)) return 'url names a loopback, private, link-local or metadata address';
  return null;
}

/**
 * Downloads `url` into `file` through request-filtering-agent (the resolved address is checked when the
 * connection is made): at most 3 redirects, each re-checked; 10 s to connect, 30 s idle, 10 min in all, and
 * a floor on the rate once the body flows; the size cap counted on the bytes received. Throws FetchError.
 */
export async function fetchToFile(raw: string, file: string, options: FetchOptions): Promise<{ bytes: number }> {
  const maxRedirects = options.maxRedirects ?? 3;
  const deadline = new AbortController();
  const totalTimer = setTimeout(
    () => deadline.abort(new FetchError('DOWNLOAD_FAILED', 'The download took longer than allowed')),
    options.totalTimeoutMs ?? 10 * 60_000,
  );
  totalTimer.unref();
  const signals = [deadline.signal, ...(options.signal ? [options.signal] : [])];
  try {
    let current = raw;
    for (let hop = 0; ; hop += 1) {
      const refusal = refusalOf(current, options.allow);
      if (refusal) throw new FetchError('URL_REFUSED', `${refusal}: ${current}`);
      const response = await request(new URL(current), options, signals);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        if (hop >= maxRedirects) throw new FetchError('DOWNLOAD_FAILED', `More than ${maxRedirects} redirects`);
        current = new URL(response.headers.location, current).toString();
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new FetchError('DOWNLOAD_FAILED', `The server answered ${status}`);
      }
      const declared = Number(response.headers['content-length']);
      const total = Number.isFinite(declared) && declared >= 0 ? declared : null;
      if (total !== null && total > options.limit) {
        response.destroy();
        throw new FetchError('DOWNLOAD_FAILED', `The package is larger than the limit of ${options.limit} bytes`);
      }
      let bytes = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes > options.limit) {
            return done(
              new FetchError('DOWNLOAD_FAILED', `The package is larger than the limit of ${options.limit} bytes`),
            );
          }
          options.onProgress?.(bytes, total);
          done(null, chunk);
        },
      });
      const floor = rateFloor(options.minRate, () => bytes);
      const abort = AbortSignal.any([...signals, floor.signal]);
      try {
        await pipeline(response, counter, createWriteStream(file), { signal: abort });
      } catch (error) {
        throw asFetchError(abort.aborted ? abort.reason : error);
      } finally {
        floor.stop();
      }
      return { bytes };
    }
  } finally {
    clearTimeout(totalTimer);
  }
}

/**
 * Aborts when a window passes with fewer bytes than the floor asks (a server that trickles a byte now and then
 * would otherwise hold an import slot for the whole time limit).
 */
function rateFloor(
  minRate: FetchOptions['minRate'],
  received: () => number,
): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  if (!minRate || minRate.bytesPerSecond <= 0) return { signal: controller.signal, stop: () => undefined };
  const { bytesPerSecond, windowMs } = minRate;
  const floor = Math.ceil((bytesPerSecond * windowMs) / 1000);
  let atWindowStart = received();
  const timer = setInterval(() => {
    const got = received() - atWindowStart;
    atWindowStart = received();
    if (got >= floor) return;
    clearInterval(timer);
    controller.abort(
      new FetchError(
        'DOWNLOAD_FAILED',
        `The download was too slow: ${got} bytes in ${windowMs / 1000} s (at least ${bytesPerSecond} bytes/s are needed)`,
      ),
    );
  }, windowMs);
  timer.unref();
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}

function asFetchError(error: unknown): FetchError {
  if (error instanceof FetchError) return error;
  const message = (error as Error)?.message ?? String(error);
  // request-filtering-agent: "DNS lookup <address>(…) is not allowed. Because, It is private IP address."
  if (/is not allowed/i.test(message)) return new FetchError('URL_REFUSED', `The address was refused: ${message}`);
  return new FetchError('DOWNLOAD_FAILED', `The download failed: ${message}`);
}

function request(url: URL, options: FetchOptions, signals: AbortSignal[]): Promise<http.IncomingMessage> {
  const allowed = isAllowedHost(url, options.allow);
  const secure = url.protocol === 'https:';
  const agent = allowed
    ? secure
      ? new https.Agent()
      : new http.Agent()
    : secure
      ? new RequestFilteringHttpsAgent()
      : new RequestFilteringHttpAgent();
  const get = secure ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const abort = AbortSignal.any(signals);
    const req = get(
      url,
      {
        agent,
        timeout: options.idleTimeoutMs ?? 30_000,
        signal: abort,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      },
      (response) => {
        clearTimeout(connectTimer);
        resolve(response);
      },
    );
    const connectTimer = setTimeout(
      () => req.destroy(new FetchError('DOWNLOAD_FAILED', 'Connecting took longer than allowed')),
      options.connectTimeoutMs ?? 10_000,
    );
    connectTimer.unref();
    req.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    req.on('timeout', () => req.destroy(new FetchError('DOWNLOAD_FAILED', 'The server sent nothing for too long')));
    req.on('error', (error) => {
      clearTimeout(connectTimer);
      reject(asFetchError(abort.aborted ? abort.reason : error));
    });
  });
}
