/**
 * The pool's connections accept several statements per query (multipleStatements), for the runner's own batches
 * only: SQL a caller gives it must be one statement, so text built from input by mistake cannot append one. A `;`
 * outside quotes, backticks and comments fails the call before anything is sent.
 */
export function assertOneStatement(sql: string): void {
  if (!sql.includes(';')) return;
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i += 1) {
    const c = sql[i];
    if (quote) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '-' && sql[i + 1] === '-') i = lineEnd(sql, i);
    else if (c === '#') i = lineEnd(sql, i);
    else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === ';' && sql.slice(i + 1).trim() !== '') throw new Error('One SQL statement per query');
  }
}

const lineEnd = (sql: string, from: number): number => {
  const end = sql.indexOf('\n', from);
  return end < 0 ? sql.length : end;
};
