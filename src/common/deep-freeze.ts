/** Freezes a tree in place (iteratively: no depth limit), for copies shared by every response that shows them. */
export function deepFreeze<T>(root: T): T {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || Object.isFrozen(value)) continue;
    Object.freeze(value);
    for (const child of Object.values(value)) stack.push(child);
  }
  return root;
}
