import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoNestLogger } from './pino-nest-logger';

function capture(): { logger: PinoNestLogger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    logger: new PinoNestLogger(pino({ level: 'trace' }, stream)),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('PinoNestLogger', () => {
  it('keeps the text of `logger.error({ fields }, text)` together with the fields and the context', () => {
    const { logger, lines } = capture();
    logger.error({ requestId: 'req-1' }, 'COMMIT outcome unknown', 'Transactions');
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 50,
        requestId: 'req-1',
        msg: 'COMMIT outcome unknown',
        context: 'Transactions',
      }),
    ]);
  });

  it('logs plain messages and errors with their context', () => {
    const { logger, lines } = capture();
    logger.log('started', 'Boot');
    logger.warn(new Error('slow'), 'Jobs');
    expect(lines()).toEqual([
      expect.objectContaining({ level: 30, msg: 'started', context: 'Boot' }),
      expect.objectContaining({
        level: 40,
        msg: 'slow',
        context: 'Jobs',
        err: expect.objectContaining({ message: 'slow' }),
      }),
    ]);
  });
});
