import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Rate-limit counters shared by every instance when no Redis is configured: one row per key and fixed
 * window (the window's number is part of the key), incremented atomically; expired rows are purged.
 */
@Entity({ name: 'rate_limit_counters' })
@Index('idx_rate_limit_counters_expires', ['expiresAt'])
export class RateLimitCounterEntity {
  @PrimaryColumn({ name: 'counter_key', type: 'varchar', length: 191 })
  counterKey: string;

  @Column({ name: 'hits', type: 'int' })
  hits: number;

  /** End of the window, in milliseconds since the epoch (read only through raw SQL). */
  @Column({ name: 'expires_at', type: 'bigint' })
  expiresAt: string;
}
