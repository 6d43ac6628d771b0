/**
 * "SQL only in src/db" as a text check over one file's code (comments removed). Each rule names one way code
 * could reach the database without a store; the architecture test runs them on every file outside src/db.
 *
 * Code above src/db holds a `Database` or a `Transaction` (src/db/transaction.ts) only to hand it to store
 * functions. Type-only imports of entities stay allowed: a row's type cannot query. What can query is named here:
 * the ORM's own modules (even `import type`: an `EntityManager` type is how a caller would run `em.find` on a
 * handle it was passed), an entity class as a value (what `find(Character, …)` needs), the entity manager behind
 * the database handle, the calls only an entity manager has, an entity named by string, and a statement's text.
 */

export interface SqlRule {
  name: string;
  pattern: RegExp;
  /** A match this returns true for is allowed after all (e.g. a type-only import of an entity). */
  allows?: (match: RegExpMatchArray) => boolean;
}

const ENTITIES = String.raw`['"][^'"]*\/db\/entities(?:\/[^'"]*)?['"]`;

/** `import type { A }` or `import { type A, type B }`: names only types. */
function typeOnly(match: RegExpMatchArray): boolean {
  const [, kind, clause] = match;
  if (kind === undefined) return false; // import('…/db/entities…') loads the classes
  if (/^type\s/.test(clause)) return true;
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  return braces !== null && braces[1].split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '));
}

export const SQL_RULES: readonly SqlRule[] = [
  { name: 'imports the ORM (@mikro-orm/*, types included)', pattern: /(?:\sfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]@mikro-orm\//g },
  {
    name: 'imports an entity class as a value (only `import type` of entities outside src/db)',
    pattern: new RegExp(String.raw`(?:^|[\s;])(import|export)\s+([^'";]*?)\s*from\s*${ENTITIES}|\bimport\(\s*${ENTITIES}\s*\)`, 'g'),
    allows: typeOnly,
  },
  { name: 'reaches the entity manager behind the database handle (.em.… / .orm)', pattern: /\.em\s*\.\s*\w|\.orm\b/g },
  {
    name: 'calls an entity-manager method',
    pattern: /\.(?:execute|fork|flush|transactional|persistAndFlush|getConnection|getKnex|createQueryBuilder|qb|nativeInsert|nativeUpdate|nativeDelete|findOneOrFail|findAndCount|upsertMany|insertMany|getRepository)\s*[<(]/g,
  },
  { name: 'names an entity by string in a query', pattern: /\.(?:find|findOne|findAll|count|create|insert|upsert|getReference)\s*(?:<[^>]*>)?\(\s*['"`][A-Z]\w*['"`]/g },
  {
    name: 'holds a statement\'s text',
    pattern: /\bselect\s[\s\S]{0,200}?\sfrom\s|\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+\w+(?:\s+as\s+\w+)?\s+set\b/gi,
  },
];

/** The code outside comments, line numbers kept (a `select … from` in a doc comment is prose, not SQL). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every rule the code breaks, as `line N: rule (what matched): the line's code`. */
export function sqlFindings(text: string): string[] {
  const code = withoutComments(text);
  const lines = code.split('\n');
  const found: string[] = [];
  for (const rule of SQL_RULES) {
    for (const match of code.matchAll(rule.pattern)) {
      if (rule.allows?.(match)) continue;
      const at = match.index + match[0].length - match[0].trimStart().length;
      const line = code.slice(0, at).split('\n').length;
      found.push(`line ${line}: ${rule.name} (${match[0].trim().replace(/\s+/g, ' ').slice(0, 40)}): ${lines[line - 1].trim().slice(0, 100)}`);
    }
  }
  return found;
}
