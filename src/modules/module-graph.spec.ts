import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The modules under src/modules form a graph by their imports; it must have no cycle, so that a
 * module can be read, tested and changed from the bottom up. Event definitions
 * (`*.events.ts`) are contracts: a subscriber imports its publisher's definitions, and those imports do
 * not count (they hold only `defineEvent` calls and types).
 */
const MODULES = resolve(__dirname);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

const moduleOf = (path: string): string | undefined => {
  const rel = relative(MODULES, path);
  return rel.startsWith('..') ? undefined : rel.split(sep)[0];
};

function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of files(MODULES)) {
    const from = moduleOf(file)!;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), match[1]);
      const to = moduleOf(target);
      if (!to || to === from || target.endsWith('.events')) continue;
      if (!edges.has(to)) edges.set(to, `${relative(MODULES, file)} imports ${match[1]}`);
    }
  }
  return graph;
}

function findCycle(graph: Map<string, Map<string, string>>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'visiting') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('module graph', () => {
  it('has no cycle between modules (event definitions excepted)', () => {
    const graph = moduleGraph();
    const cycle = findCycle(graph);
    const explain = cycle?.slice(1).map((to, i) => graph.get(cycle[i])!.get(to)!);
    expect(explain).toBeUndefined();
  });

  it('keeps the lower modules free of content modules', () => {
    const graph = moduleGraph();
    const lower = [
      'users',
      'teams',
      'auth',
      'media',
      'tags',
      'wikitext',
      'access',
      'comments',
      'reputation',
      'view-history',
      'courses',
    ];
    const content = ['guides', 'wikis', 'releases', 'approvals', 'work-log', 'quizzes', 'periodic-review', 'training'];
    const offending = lower.flatMap((from) =>
      [...(graph.get(from)?.entries() ?? [])].filter(([to]) => content.includes(to)).map(([, why]) => why),
    );
    expect(offending).toEqual([]);
  });
});
