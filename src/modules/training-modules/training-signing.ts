import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signed URLs and commit tokens are valid this long (docs/enterprise/training-modules.md: 4 h). */
export const SIGNED_TTL_S = 4 * 3600;

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64url');

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** base64url(HMAC-SHA256(SIGNING_SECRET, "versionid:expires")): the content URL prefix. */
export const contentSignature = (secret: string, versionid: number, expires: number) =>
  hmac(secret, `${versionid}:${expires}`);

export const checkContentSignature = (secret: string, versionid: number, expires: number, sig: string) =>
  same(contentSignature(secret, versionid, expires), sig);

/** The player page's signature (it names a registration). */
export const playerSignature = (secret: string, registrationid: string, expires: number) =>
  hmac(secret, `player:${registrationid}:${expires}`);

export const checkPlayerSignature = (secret: string, registrationid: string, expires: number, sig: string) =>
  same(playerSignature(secret, registrationid, expires), sig);

/** `<expires>.<sig>`: authenticates commits to one registration until it expires. */
export const commitToken = (secret: string, registrationid: string, expires: number) =>
  `${expires}.${hmac(secret, `commit:${registrationid}:${expires}`)}`;

/** Whether a commit token is valid for the registration at `now` (seconds). */
export function checkCommitToken(secret: string, registrationid: string, token: string, now: number): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  return expires >= now && same(commitToken(secret, registrationid, expires), token);
}
