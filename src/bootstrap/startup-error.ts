/**
 * A start-up failure whose cause is known: main.ts prints its message, one line naming the cause and the
 * fix, without a stack trace, and exits 1.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
