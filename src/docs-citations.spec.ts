import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The repository stands alone: a comment, description or test name cites only what a maintainer can
 * open. The contract documents the code was written against live outside the repository, so citing
 * them by name or section number is refused; the rules are written in docs/ and cited from there.
 */
const ROOT = resolve(__dirname, '..');
const SCANNED = ['src', 'test', 'scripts', 'openapi'];
const TEXT = /\.(ts|mts|js|mjs|cjs|json|md|sh)$/;
const SELF = relative(ROOT, __filename);

/** Documents that are not in the repository, as they were cited: by bare name, or STYLE.md by file. */
const OUTSIDE_CITATION = /\b(ENTERPRISE|DESIGN|SPEC)\b(?![_-])|\b(STYLE)\.md\b/;
/** A section sign is allowed only in a citation of an RFC ("RFC 9110 §13.1.2"). */
const SECTION_SIGN = /(RFC\s?\d+\s*)?(§|\\u00A7)/gi;
const DOCS_LINK = /\bdocs\/[\w./-]*?\.md\b/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : files(path);
    return TEXT.test(name) ? [path] : [];
  });
}

function problemsOf(line: string): string[] {
  const found: string[] = [];
  const outside = OUTSIDE_CITATION.exec(line);
  if (outside) found.push(`cites ${outside[1] ?? outside[2]}, a document outside the repository`);
  for (const match of line.matchAll(SECTION_SIGN)) {
    if (!match[1]) found.push('a section sign that is not an RFC citation');
  }
  for (const [link] of line.matchAll(DOCS_LINK)) {
    if (!existsSync(join(ROOT, link))) found.push(`${link} does not exist`);
  }
  return found;
}

describe('citations in src/, test/, scripts/ and openapi/', () => {
  it('name only documents that are in the repository', () => {
    const problems: string[] = [];
    for (const file of SCANNED.flatMap((dir) => files(join(ROOT, dir)))) {
      const rel = relative(ROOT, file);
      if (rel === SELF) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const problem of problemsOf(line)) problems.push(`${rel}:${index + 1}: ${problem}`);
        });
    }
    expect(problems).toEqual([]);
  });

  it('recognises each kind of citation', () => {
    expect(problemsOf('/** Releases (ENTERPRISE §1.2). */')).toHaveLength(2);
    expect(problemsOf("describe('HTTP conventions (DESIGN §2)'")).toHaveLength(2);
    expect(problemsOf('/** Image object (SPEC "Image object"). */')).toHaveLength(1);
    expect(problemsOf('(see DESIGN.md)')).toHaveLength(1);
    expect(problemsOf('bottom up (STYLE.md rule 3)')).toHaveLength(1);
    expect(problemsOf('the rules of §4.1')).toHaveLength(1);
    expect(problemsOf('(docs/no-such-file.md)')).toEqual(['docs/no-such-file.md does not exist']);
    expect(problemsOf('RFC 9110 §13.1.2: weak comparison')).toEqual([]);
    expect(problemsOf('(docs/api-formats.md)')).toEqual([]);
    expect(problemsOf('export const ENTERPRISE_READS = [];')).toEqual([]);
    expect(problemsOf('MEDIA_S3_FORCE_PATH_STYLE: true, const STYLE = `body{}`')).toEqual([]);
  });
});
