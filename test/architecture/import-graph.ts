/**
 * The project's import graph, read from the source text: every static import / export-from, dynamic import and
 * `import type` of the server's code (src, rooms, schema), resolved to repository paths. Used by the architecture
 * test; type-only imports count (a type dependency is still a dependency a reader must follow).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ImportEdge {
  from: string;
  to: string;
  line: number;
}

const SOURCE_ROOTS = ['src', 'rooms', 'schema'];
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'migrations') continue;
      out.push(...sourceFiles(root, rel));
    } else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
  return out;
}

/** The code outside comments (a `from '…'` inside a doc comment is not an import). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

export function importGraph(root: string, roots: readonly string[] = SOURCE_ROOTS): { files: string[]; edges: ImportEdge[] } {
  const files = roots.filter((r) => fs.existsSync(path.join(root, r))).flatMap((r) => sourceFiles(root, r));
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = withoutComments(fs.readFileSync(path.join(root, file), 'utf8'));
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const line = text.slice(0, match.index).split('\n').length;
      edges.push({ from: file, to, line });
    }
  }
  return { files, edges };
}

/** Strongly connected components with more than one member (Tarjan): each one is an import cycle. */
export function cycles(nodes: Iterable<string>, edges: ReadonlyArray<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of new Set([...nodes, ...edges.map((e) => e.from)])) if (!index.has(node)) visit(node);
  return found;
}
