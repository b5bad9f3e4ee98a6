let depth = 0;

/** Whether demo content is being seeded now (start-up, before the service listens: nothing else runs then). */
export const seedingDemo = (): boolean => depth > 0;

export async function whileSeedingDemo<T>(work: () => Promise<T>): Promise<T> {
  depth++;
  try {
    return await work();
  } finally {
    depth--;
  }
}
