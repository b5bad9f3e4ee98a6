import type { Redis } from 'ioredis';
import type { CounterBackend } from './counter-backend';

/** Counters in Redis (REDIS_URL): INCRBY and PEXPIREAT in one MULTI; Redis drops expired keys itself. */
export class RedisCounterBackend implements CounterBackend {
  /** ioredis loads only when Redis is configured (it costs start-up time otherwise). */
  private readonly client: Promise<Redis>;

  constructor(url: string, keyPrefix: string) {
    this.client = import('ioredis').then(({ Redis }) => {
      const redis = new Redis(url, {
        keyPrefix,
        lazyConnect: false,
        maxRetriesPerRequest: 2,
        enableOfflineQueue: true,
      });
      // Errors reach each command's promise; without a listener ioredis would also print them.
      redis.on('error', () => undefined);
      return redis;
    });
  }

  async add(key: string, amount: number, expiresAt: number): Promise<number> {
    const results = await (await this.client).multi().incrby(key, amount).pexpireat(key, expiresAt).exec();
    const [error, total] = results?.[0] ?? [new Error('Redis MULTI was aborted'), 0];
    if (error) throw error;
    return Number(total);
  }

  async get(key: string): Promise<number> {
    return Number((await (await this.client).get(key)) ?? 0);
  }

  async purge(): Promise<void> {
    // keys expire on their own
  }

  async close(): Promise<void> {
    (await this.client).disconnect();
  }
}
