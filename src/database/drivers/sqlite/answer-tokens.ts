import { requestContext } from '../../../common/context/request-context';
import { answerTokensChangedBy, replaceAnswerTokens, replaceAnswerTokensIn } from '../../answer-sources';
import type { StatementCache } from './statement-cache';

/**
 * Called after a statement changed rows: when cached answers are built from them (answer-sources.ts), their
 * tokens are replaced before the transaction's COMMIT, or outside a transaction at once (this runs
 * synchronously after the write, at the gate).
 */
export const answerTokensHook =
  (statements: StatementCache) =>
  (sql: string): void => {
    const names = answerTokensChangedBy(sql);
    if (!names) return;
    const tx = requestContext.current()?.tx;
    if (tx) replaceAnswerTokensIn(tx, 'sqlite', names, sql);
    else {
      const [replace, parameters] = replaceAnswerTokens('sqlite', names);
      statements.prepared(replace).run(...parameters);
    }
  };
