import { hkdfSync } from 'node:crypto';

/** The HKDF label that separates the audit key from every other use of SIGNING_SECRET. */
const AUDIT_KEY_INFO = 'repair-guides audit chain v1';

/**
 * Outside production, without either variable: a fixed key, so that a development database still verifies
 * after a restart. It protects nothing; production always has SIGNING_SECRET.
 */
const DEVELOPMENT_SECRET = 'development only: set AUDIT_HMAC_KEY or SIGNING_SECRET';

/**
 * The HMAC key of the audit chain and its checkpoints: AUDIT_HMAC_KEY as given, or else derived from
 * SIGNING_SECRET with HKDF under a label of its own. It must stay the same for the life of the log.
 */
export function auditKey(auditHmacKey: string | undefined, signingSecret: string | undefined): Buffer {
  if (auditHmacKey !== undefined) return Buffer.from(auditHmacKey, 'utf8');
  return Buffer.from(hkdfSync('sha256', signingSecret ?? DEVELOPMENT_SECRET, '', AUDIT_KEY_INFO, 32));
}
