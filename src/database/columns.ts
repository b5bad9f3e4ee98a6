import type { ColumnOptions, ValueTransformer } from 'typeorm';

const bigintToNumber: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? value : Number(value)),
};

/** UNIX seconds. bigint so that dates after 2038 fit; read back as a JS number on both dialects. */
export function unixTimeColumn(options: Omit<ColumnOptions, 'type' | 'transformer'> = {}): ColumnOptions {
  return { type: 'bigint', transformer: bigintToNumber, ...options };
}

/** Milliseconds since the epoch (bigint), read back as a JS number. */
export function epochMillisColumn(options: Omit<ColumnOptions, 'type' | 'transformer'> = {}): ColumnOptions {
  return { type: 'bigint', transformer: bigintToNumber, ...options };
}

/** A bigint id or counter, read back as a JS number (exact up to 2^53). */
export const bigintNumber = bigintToNumber;

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
