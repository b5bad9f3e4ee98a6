import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum settings (19 MiB, 2 passes): memory-hard, ~30 ms here. */
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const MIN_PASSWORD_LENGTH = 10;

/**
 * Why a password set by an operator (ADMIN_PASSWORD, npm run admin:password) is refused, or undefined:
 * empty, shorter than MIN_PASSWORD_LENGTH, the e-mail address itself, or fewer than 5 different characters.
 */
export function weakPasswordReason(password: string, email?: string): string | undefined {
  if (password.trim() === '') return 'the password is empty';
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  const lower = password.toLowerCase();
  if (email && (lower === email.toLowerCase() || lower === email.toLowerCase().split('@')[0]))
    return 'the password must not be the e-mail address';
  if (new Set(password).size < 5) return 'the password is too simple (use at least 5 different characters)';
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password. With no stored hash (unknown e-mail, or an account without a password) it still
 * runs one verification against a fixed hash, so the answer takes the same time either way.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash('not the password of anyone', OPTIONS);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
