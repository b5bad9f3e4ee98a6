import { existsSync, readFileSync } from 'node:fs';

/**
 * Parses a `.env` file in the format of `.env.example`: `NAME=value`, optionally quoted, with `#` comments on
 * their own lines or after an unquoted value (after whitespace). No interpolation.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, name, rest] = match;
    const quoted = /^(["'])(.*?)\1(?:\s+#.*)?$/.exec(rest);
    values[name] = quoted
      ? quoted[1] === '"'
        ? quoted[2].replace(/\\n/g, '\n').replace(/\\"/g, '"')
        : quoted[2]
      : rest.replace(/(^|\s+)#.*$/, '').trim();
  }
  return values;
}

/**
 * Loads `path` (default `.env` in the working directory) into `env` when the file exists. Variables already
 * set in the environment win over the file. Returns the names it set.
 */
export function loadEnvFile(path = '.env', env: NodeJS.ProcessEnv = process.env): string[] {
  if (!existsSync(path)) return [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnvFile(readFileSync(path, 'utf8')))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
