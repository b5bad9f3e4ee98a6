import { posix } from 'node:path';

/** What the player may open for a launch path: a file of the package, or (cmi5 only) an http(s) URL. */
export type LaunchTarget = { kind: 'file'; file: string } | { kind: 'external'; url: string };

/** Browsers drop tabs and line breaks anywhere in a URL, so `java\nscript:` is a scheme too. */
const bare = (launchPath: string) => launchPath.replace(/[\t\n\r]/g, '').trim();

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Where a launch path leads, or null when it is not content: a scheme other than http(s), an http(s) URL
 * outside cmi5 (a SCORM or xAPI launch file must be inside the package), or a path that leaves the package.
 */
export function launchTarget(standard: string | null, launchPath: string): LaunchTarget | null {
  const path = bare(launchPath);
  if (SCHEME.test(path)) {
    if (standard !== 'cmi5' || !URL.canParse(path)) return null;
    const url = new URL(path);
    return url.protocol === 'https:' || url.protocol === 'http:' ? { kind: 'external', url: url.href } : null;
  }
  const file = launchFile(path);
  return file === null ? null : { kind: 'file', file };
}

/** The file part of a launch path (no query or fragment, decoded, normalized), or null when it escapes. */
export function launchFile(launchPath: string): string | null {
  const path = launchPath.split(/[?#]/)[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = path;
  }
  const normal = posix.normalize(decoded.replace(/\\/g, '/')).replace(/^\.\//, '');
  if (!normal || normal === '.' || normal.startsWith('..') || normal.startsWith('/') || normal.includes('\0')) {
    return null;
  }
  return normal;
}

/** A launch path as an error message shows it (a `data:` URL can be megabytes long). */
export const shownPath = (launchPath: string) => (launchPath.length > 80 ? `${launchPath.slice(0, 80)}…` : launchPath);
