import { Transform } from 'class-transformer';

/** Trims a string body field before validation (other types pass through to fail validation). */
export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** Trims and lower-cases a string body field (e-mail addresses, unique usernames). */
export const TrimLower = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));
