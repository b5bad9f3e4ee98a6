/** A promise and its resolver, to hold a transaction open while other work runs. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
