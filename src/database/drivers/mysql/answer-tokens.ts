import type { QueryRunner } from 'typeorm';
import { requestContext } from '../../../common/context/request-context';
import { answerTokenSlotOf, type AnswerToken } from '../../../platform/versions/content-versions';
import { replaceAnswerTokens, replaceAnswerTokensIn } from '../../answer-sources';
import type { CallbackConnection, Send } from './types';

/**
 * A statement changed rows cached answers are built from (answer-sources.ts): in the work's transaction their
 * tokens are replaced before its COMMIT; in a transaction of another kind, or outside any, at once on this
 * connection (so in that transaction, or right after the write).
 */
export const answerTokensHook =
  (queryRunner: QueryRunner, send: Send) =>
  async (connection: CallbackConnection, names: ReadonlySet<AnswerToken>, written: string): Promise<void> => {
    const tx = requestContext.current()?.tx;
    if (tx && queryRunner.isTransactionActive && tx.manager.queryRunner === queryRunner) {
      replaceAnswerTokensIn(tx, 'mysql', names, written, answerTokenSlotOf(connection));
      return;
    }
    const [sql, parameters] = replaceAnswerTokens('mysql', names, answerTokenSlotOf(connection));
    await send(connection, sql, parameters);
  };
