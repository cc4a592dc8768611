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
