import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Routes stay thin (validate, call one service function, present): a routes.ts may import only its
 * own module's schemas, service and presenter, and the HTTP layer. Anything else belongs in service.ts.
 */

const MODULES_DIR = path.resolve(__dirname, '../../src/modules');

const routeFiles = readdirSync(MODULES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join(MODULES_DIR, entry.name, 'routes.ts'))
  .filter((file) => existsSync(file));

/** Every module specifier a file imports or re-exports, including require() and import(). */
function importsOf(source: string): string[] {
  const patterns = [/\b(?:import|export)\s[^;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ''));
}

const ALLOWED = [/^\.\/(\w*[sS]chemas|service|presenter)$/, /^\.\.\/\.\.\/http\/[\w/]+$/];
const FORBIDDEN = [/providers/, /shop/, /jobs/, /\/db\//, /^knex$/, /repository/];

describe('module routes', () => {
  it('When the modules are listed, then each of the eight resource modules has a routes.ts', () => {
    const modules = routeFiles.map((file) => path.basename(path.dirname(file))).sort();
    expect(modules).toEqual(expect.arrayContaining(['customers', 'follow-ups', 'links', 'mandates', 'orders', 'payments', 'products', 'subscriptions']));
  });

  it.each(routeFiles.map((file) => [path.relative(path.resolve(__dirname, '../..'), file), file]))(
    'When %s imports, then only its own schemas, service, presenter and src/http are named',
    (_name, file) => {
      const imports = importsOf(readFileSync(file, 'utf8'));
      expect(imports.length).toBeGreaterThan(0);
      expect(imports.filter((specifier) => FORBIDDEN.some((pattern) => pattern.test(specifier)))).toEqual([]);
      expect(imports.filter((specifier) => !ALLOWED.some((pattern) => pattern.test(specifier)))).toEqual([]);
    },
  );

  it('When import lines are read, then multi-line, type-only, side-effect and require forms are all seen', () => {
    const source = [
      "import {\n  a,\n  b,\n} from '../../providers';",
      "import type { Knex } from 'knex';",
      "import '../../jobs/start';",
      "export { x } from '../../shop/woo';",
      "const db = require('../../db/connect');",
      "const lazy = await import('./repository');",
    ].join('\n');
    expect(importsOf(source).sort()).toEqual(['../../db/connect', '../../jobs/start', '../../providers', '../../shop/woo', './repository', 'knex'].sort());
  });
});

/** Every .ts file below a folder. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The files of src a file imports (type-only imports too: a cycle of types is still a tangle). */
function localImportsOf(file: string): string[] {
  return importsOf(readFileSync(file, 'utf8'))
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.resolve(path.dirname(file), specifier))
    .map((target) => [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => existsSync(candidate)))
    .filter((target): target is string => target !== undefined);
}

/** Each import cycle once, as the chain of files that closes it. */
function importCycles(files: string[]): string[] {
  const cycles = new Set<string>();
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string) => {
    stack.push(file);
    for (const target of localImportsOf(file)) {
      const index = stack.indexOf(target);
      if (index >= 0) cycles.add([...stack.slice(index), target].map((part) => path.relative(SRC_DIR, part)).join(' -> '));
      else if (!done.has(target)) visit(target);
    }
    stack.pop();
    done.add(file);
  };
  for (const file of files) if (!done.has(file)) visit(file);
  return [...cycles];
}

const SRC_DIR = path.resolve(__dirname, '../../src');

describe('imports in src', () => {
  it('When every file of src is followed through its imports, then no chain comes back to where it started', () => {
    expect(importCycles(sourceFiles(SRC_DIR))).toEqual([]);
  });
});
