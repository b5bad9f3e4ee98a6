import { createInterface } from 'node:readline';

export class InputCancelled extends Error {}

/** The first line of a non-interactive input (a pipe or a file), without its line ending; '' when empty. */
export async function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
  }
}

/** Asks on the terminal without echoing what is typed (backspace erases, Ctrl-C cancels). */
export function promptHidden(prompt: string, input: NodeJS.ReadStream, output: NodeJS.WritableStream): Promise<string> {
  // Echo off before the prompt shows: what is typed after it is never echoed.
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  output.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      output.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new InputCancelled('cancelled'));
          return;
        }
        value = char === '\u007f' || char === '\b' ? value.slice(0, -1) : value + char;
      }
    };
    input.on('data', onData);
  });
}
