import { NodeType } from './schema';
import type { WikiNode } from './types';

/** Concatenated text of a subtree, walked iteratively so any depth is safe. */
export function plainTextOf(root: WikiNode): string {
  const parts: string[] = [];
  const stack: WikiNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as WikiNode;
    if (!node || typeof node !== 'object') continue;
    if (typeof node.text === 'string') parts.push(node.text);
    else if (node.type === NodeType.hardBreak) parts.push('\n');
    if (Array.isArray(node.content)) {
      for (let k = node.content.length - 1; k >= 0; k--) stack.push(node.content[k]);
    }
  }
  return parts.join('');
}

/** Visits every node of a tree iteratively (pre-order). */
export function walkTree(root: WikiNode, visit: (node: WikiNode) => void): void {
  const stack: WikiNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as WikiNode;
    if (!node || typeof node !== 'object') continue;
    visit(node);
    if (Array.isArray(node.content)) {
      for (let k = node.content.length - 1; k >= 0; k--) stack.push(node.content[k]);
    }
  }
}
