import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Routes stay thin (validate, call one service function, present): a routes.ts (or …Routes.ts) may
 * import only its own module's schemas, service and presenter, and the HTTP layer, and declares
 * routes, no helper functions. Anything else belongs in service.ts or presenter.ts.
 */

const MODULES_DIR = path.resolve(__dirname, '../../src/modules');

/** A route file: routes.ts, or a second one named …Routes.ts (subscriptions/lifecycleRoutes.ts). */
const isRouteFile = (name: string) => name === 'routes.ts' || /^\w+Routes\.ts$/.test(name);

const routeFiles = readdirSync(MODULES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) =>
    readdirSync(path.join(MODULES_DIR, entry.name))
      .filter(isRouteFile)
      .map((name) => path.join(MODULES_DIR, entry.name, name)),
  )
  .filter((file) => existsSync(file));

/** Every module specifier a file imports or re-exports, including require() and import(). */
function importsOf(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s[^;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ''));
}

/** Functions a route file declares at its top level: `function x` or `const x = (…) =>` / `= async (…) =>`. */
function helperFunctionsOf(source: string): string[] {
  const declared = [
    ...source.matchAll(/^(?:export\s+)?(?:async\s+)?function\s+(\w+)/gm),
    ...source.matchAll(/^(?:export\s+)?const\s+(\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*(?::[^=]+)?=>/gm),
  ];
  return declared.map((match) => match[1] ?? '');
}

/** Route files with helpers of their own, one line each with why. None today: keep it so. */
const THICK_ROUTE_FILES = new Set<string>([]);

const ALLOWED = [/^\.\/(\w*[sS]chemas|\w*[sS]ervice|\w*[pP]resenter)$/, /^\.\.\/\.\.\/http\/[\w/]+$/, /^\.\.\/\.\.\/validation\/[\w/]+$/];
const FORBIDDEN = [/providers/, /integrations/, /outbox/, /(^|\/)events\//, /jobs/, /\/db\//, /^knex$/, /repository/];

describe('module routes', () => {
  it('When the modules are listed, then each of the eight resource modules has a routes.ts', () => {
    const modules = routeFiles.map((file) => path.basename(path.dirname(file))).sort();
    expect(modules).toEqual(
      expect.arrayContaining(['customers', 'follow-ups', 'links', 'mandates', 'orders', 'payments', 'products', 'subscriptions']),
    );
  });

  it.each(routeFiles.map((file) => [path.relative(path.resolve(__dirname, '../..'), file), file]))(
    'When %s imports, then only its own schemas, service, presenter, src/http and src/validation are named',
    (_name, file) => {
      const imports = importsOf(readFileSync(file, 'utf8'));
      expect(imports.length).toBeGreaterThan(0);
      expect(imports.filter((specifier) => FORBIDDEN.some((pattern) => pattern.test(specifier)))).toEqual([]);
      expect(imports.filter((specifier) => !ALLOWED.some((pattern) => pattern.test(specifier)))).toEqual([]);
    },
  );

  it.each(routeFiles.map((file) => [path.relative(path.resolve(__dirname, '../..'), file), file]))(
    'When %s is read, then it declares routes and no helper function of its own',
    (name, file) => {
      if (THICK_ROUTE_FILES.has(name)) return;
      expect(helperFunctionsOf(readFileSync(file, 'utf8'))).toEqual([]);
    },
  );

  it('When a route file is read for helpers, then top-level functions and arrow functions are seen, and route handlers are not', () => {
    const source = [
      "const names = { path: '/api/v2/things' };",
      'const present = presentThings;',
      'async function presentOne(ctx: AppContext) {',
      '  return 1;',
      '}',
      'const startRoute = (kind: string) =>',
      '  defineRoute({ kind });',
      'export const thingRoutes = [',
      '  defineRoute({',
      '    async handle({ ctx }) {',
      '      return list(ctx);',
      '    },',
      '  }),',
      '];',
    ].join('\n');
    expect(helperFunctionsOf(source)).toEqual(['presentOne', 'startRoute']);
  });

  it('When import lines are read, then multi-line, type-only, side-effect and require forms are all seen', () => {
    const source = [
      "import {\n  a,\n  b,\n} from '../../providers';",
      "import type { Knex } from 'knex';",
      "import '../../jobs/start';",
      "export { x } from '../../shop/woo';",
      "const db = require('../../db/connect');",
      "const lazy = await import('./repository');",
    ].join('\n');
    expect(importsOf(source).sort()).toEqual(
      ['../../db/connect', '../../jobs/start', '../../providers', '../../shop/woo', './repository', 'knex'].sort(),
    );
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

/*
 * One owner per table: only repositories (repository.ts, …Repository.ts) and src/db/ query. What
 * counts as a query in any other file of src (comments aside):
 *  1. a knex builder started on a table: db('payments'), trx<Row>('subscriptions'), ctx.db('…');
 *  2. SQL or column references written out: db.raw(…), trx.ref(…), db.fn.now();
 *  3. a repository's own builder taken outside it: xRepository.table(db);
 *  4. a query-builder method chained onto a call's result or on a line of its own (a chain):
 *     ).where(…), .andWhere(…), .insert(…), .first(…), .orderBy(…), … — knex's names that nothing
 *     else in src uses (update, select, join and count are left out: hashes and arrays have them);
 *  5. a call of a src/db helper that runs SQL (readRows, pageOf, numberedPage, closeListGap,
 *     databaseNow, databaseNowPlus) imported from src/db/.
 * Passing a transaction on (trx: Knex.Transaction) and starting one (db.transaction) are not queries:
 * services keep their transactions' boundaries and hand the transaction to repositories.
 */

const REPOSITORY_FILE = /(^|\/)(repository|\w+Repository)\.ts$/;

/**
 * Files that query outside a repository on purpose, one line each with why. The sandbox is a payment
 * provider whose "provider side" is tables of our own database: its adapter folder owns them.
 */
const QUERYING_ELSEWHERE = new Set([
  'src/providers/sandbox/checkoutCompletion.ts', // the sandbox's own tables
  'src/providers/sandbox/checkoutPage.ts', // the sandbox's own tables
  'src/providers/sandbox/provider.ts', // the sandbox's own tables
]);

const CHAINED_QUERY_METHODS = [
  'where\\w*',
  'andWhere\\w*',
  'orWhere\\w*',
  'having\\w*',
  'insert',
  'onConflict',
  'forUpdate',
  'pluck',
  'first',
  'increment',
  'decrement',
  'del',
  'orderBy',
  'groupBy',
  'leftJoin',
  'innerJoin',
  'clearSelect',
  'clearOrder',
  'returning',
].join('|');

const QUERY_PATTERNS = [
  /\b(?:db|trx|knex|tx)\s*(?:<[^>()]*>)?\s*\(\s*['"`]/,
  /\b(?:db|trx|knex|tx)\s*\.\s*(?:raw|ref)\s*\(|\.fn\.now\s*\(/,
  /\.table\s*\(/,
  new RegExp(`(?:\\)|^)\\s*\\.(?:${CHAINED_QUERY_METHODS})\\s*(?:<[^>()]*>)?\\s*\\(`),
];

const SQL_HELPERS = new Set(['readRows', 'pageOf', 'numberedPage', 'closeListGap', 'databaseNow', 'databaseNowPlus']);

/** The source without its comments, line numbers kept. */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, '')).replace(/^\s*\/\/.*$/gm, '');

/** The 1-based lines of a source that query (see above). */
function queryLines(source: string): number[] {
  const helpers = [...source.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*['"][^'"]*\/db\/[^'"]*['"]/g)]
    .flatMap((match) =>
      (match[1] ?? '').split(',').map(
        (name) =>
          name
            .trim()
            .split(/\s+as\s+/)
            .pop() ?? '',
      ),
    )
    .filter((name) => SQL_HELPERS.has(name));
  const patterns = helpers.length
    ? [...QUERY_PATTERNS, new RegExp(`\\b(?:${helpers.join('|')})\\s*(?:<[^>()]*>)?\\s*\\(`)]
    : QUERY_PATTERNS;
  const text = withoutComments(source);
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  const lines = patterns.flatMap((pattern) =>
    [...text.matchAll(new RegExp(pattern.source, 'gm'))].map((match) => lineAt((match.index ?? 0) + match[0].length)),
  );
  return [...new Set(lines)].sort((a, b) => a - b);
}

describe('queries', () => {
  it(
    'When a file is read for queries, then every form above is seen, and repository calls, transactions, hashes and arrays are ' + 'not',
    () => {
      const source = [
        "import { pageOf } from '../../db/paging';", // 1
        "const row = await ctx.db('payments').where({ id }).first();", // 2: a builder on a table
        'const rules = await trx<RuleRow>(', // 3
        "  'subscription_rules');", // 4: a builder on a table, named on the next line (its line counts)
        'await ctx', // 5
        "  .db<PaymentRow>('payments')", // 6: a builder on a table, split
        "  .whereIn('status', ['open']);", // 7: a chain
        "await db.raw('select 1');", // 8: raw SQL
        'const found = await paymentsRepository.table(trx).first();', // 9: a repository's builder
        'await paymentsRepository.insert(trx, row);', // 10: a repository call
        'await ctx.db.transaction(async (trx) => work(trx));', // 11: a transaction
        "const hash = createHash('sha256').update(text).digest('hex');", // 12: a hash
        "const text = lines.map((line) => line.trim()).join(',');", // 13: an array
        'const page = await pageOf(query, request);', // 14: a db helper imported from db/
        "// await db('payments').where({ id });", // 15: a comment
        "/* trx('x').first() */ const y = 1;", // 16: a comment
        "router.post('/x', express.raw({ type: () => true }));", // 17: express's raw, not knex's
      ].join('\n');
      expect(queryLines(source)).toEqual([2, 4, 6, 7, 8, 9, 14]);
    },
  );

  it('When a local function shares a db helper name but is not imported from src/db, then it is not a query', () => {
    expect(queryLines('const pageOf = async (number: number) => fetchPage(number);\nconst first = await pageOf(1);')).toEqual([]);
  });

  it('When every file of src outside the repositories and src/db is read, then none queries', () => {
    const querying = sourceFiles(SRC_DIR)
      .filter((file) => !REPOSITORY_FILE.test(file) && !file.startsWith(path.join(SRC_DIR, 'db') + path.sep))
      .map((file) => ({ name: path.relative(path.resolve(SRC_DIR, '..'), file), lines: queryLines(readFileSync(file, 'utf8')) }))
      .filter((file) => file.lines.length > 0 && !QUERYING_ELSEWHERE.has(file.name))
      .map((file) => `${file.name}:${file.lines.join(',')}`);
    expect(querying).toEqual([]);
  });

  it('When the allowlist is read, then each entry still queries (a file that stopped is taken off)', () => {
    const stale = [...QUERYING_ELSEWHERE].filter(
      (name) =>
        !existsSync(path.resolve(SRC_DIR, '..', name)) || queryLines(readFileSync(path.resolve(SRC_DIR, '..', name), 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });
});

/*
 * Layers point one way. Top to bottom:
 *
 * | layer      | what                                                              | paths under src/ |
 * |------------|-------------------------------------------------------------------|------------------|
 * | entry      | what starts work: the app, the server, the CLI, HTTP (routes and middleware), the hosted pages, jobs, inbound webhooks, a
 * module's route files | app.ts server.ts cli.ts cli/ bootstrap.ts shutdown.ts http/ (http/webhooks/: the inbound receivers) pages/ jobs/
 * modules/index.ts modules/x/routes.ts modules/x/…Routes.ts |
 * | modules    | the domain: services, rules, repositories                          | modules/ |
 * | adapters   | the outside world: payment providers, store platforms, bookkeeping systems, mail, outbound events | providers/
 * integrations/ bookkeeping/ mail/ events/ |
 * | foundation | what every layer may use                                           | db/ net/ crypto/ time/ money/ numbers/ i18n/
 * validation/ text/ ids.ts config.ts logger.ts errors.ts paging.ts metrics/ background.ts |
 *
 * An import may stay in its layer or go down, never up. A file's layer is that of the longest path
 * that names it. context.ts (AppContext: the composition root's type, handed to every layer and
 * naming what it holds) is in none and may be imported from anywhere.
 */

const LAYERS: Array<{ layer: string; paths: string[] }> = [
  {
    layer: 'entry',
    paths: ['app.ts', 'server.ts', 'cli.ts', 'cli/', 'bootstrap.ts', 'shutdown.ts', 'http/', 'pages/', 'jobs/', 'modules/index.ts'],
  },
  { layer: 'modules', paths: ['modules/'] },
  { layer: 'adapters', paths: ['providers/', 'integrations/', 'bookkeeping/', 'mail/', 'events/'] },
  {
    layer: 'foundation',
    paths: [
      'db/',
      'net/',
      'crypto/',
      'time/',
      'money/',
      'numbers/',
      'i18n/',
      'ids.ts',
      'config.ts',
      'logger.ts',
      'metrics/',
      'background.ts',
      'errors.ts',
      'paging.ts',
      'validation/',
      'text/',
    ],
  },
];
const RANK = new Map(LAYERS.map((entry, index) => [entry.layer, index]));
const OUTSIDE_THE_LAYERS = new Set(['context.ts']);

/** The layer of a file of src (its path relative to src/), or undefined for context.ts. */
function layerOf(relative: string): string | undefined {
  if (OUTSIDE_THE_LAYERS.has(relative)) return undefined;
  if (/^modules\/[^/]+\//.test(relative) && isRouteFile(path.basename(relative))) return 'entry';
  const named = LAYERS.flatMap(({ layer, paths }) =>
    paths
      .filter((prefix) => relative === prefix || (prefix.endsWith('/') && relative.startsWith(prefix)))
      .map((prefix) => ({ layer, prefix })),
  );
  const longest = named.sort((a, b) => b.prefix.length - a.prefix.length)[0];
  if (!longest) throw new Error(`${relative} is in no layer: add its path to LAYERS`);
  return longest.layer;
}

/**
 * Imports that run up a layer on purpose, one line each with why. None today: keep it so.
 */
const UPWARD_ELSEWHERE = new Set<string>([]);

/**
 * The folders of the entry layer. Every file in them is entry: vocabulary that lower layers share
 * lives in a foundation folder (validation/, text/, db/), never as an exception inside these.
 */
const ENTRY_FOLDERS = (LAYERS.find(({ layer }) => layer === 'entry')?.paths ?? []).filter((prefix) => prefix.endsWith('/'));

describe('layers', () => {
  it('When a file is placed, then the longest path decides, and route files of a module are entry', () => {
    expect([
      layerOf('http/route.ts'),
      layerOf('errors.ts'),
      layerOf('modules/payments/pipeline.ts'),
      layerOf('modules/payments/routes.ts'),
      layerOf('modules/subscriptions/lifecycleRoutes.ts'),
      layerOf('events/events.ts'),
      layerOf('http/webhooks/providers.ts'),
      layerOf('time/calendar.ts'),
      layerOf('context.ts'),
    ]).toEqual(['entry', 'foundation', 'modules', 'entry', 'entry', 'adapters', 'entry', 'foundation', undefined]);
  });

  it('When a bookkeeping system is placed, then it is an adapter like a payment provider, below the modules that use it', () => {
    expect([
      layerOf('bookkeeping/index.ts'),
      layerOf('bookkeeping/moneybird/adapter.ts'),
      layerOf('providers/mollie/provider.ts'),
      layerOf('modules/invoices/bookkeepingOutbox.ts'),
    ]).toEqual(['adapters', 'adapters', 'adapters', 'modules']);
  });

  it('When every import of src is followed, then none runs back up a layer', () => {
    const upward = sourceFiles(SRC_DIR).flatMap((file) => {
      const from = path.relative(SRC_DIR, file);
      const fromLayer = layerOf(from);
      if (fromLayer === undefined) return [];
      return localImportsOf(file)
        .filter((target) => target.startsWith(SRC_DIR + path.sep)) // migrations/ sits beside src/, below everything
        .map((target) => path.relative(SRC_DIR, target))
        .filter((to) => {
          const toLayer = layerOf(to);
          return toLayer !== undefined && (RANK.get(toLayer) ?? 0) < (RANK.get(fromLayer) ?? 0);
        })
        .map((to) => `${from} -> ${to}`);
    });
    expect(upward.filter((edge) => !UPWARD_ELSEWHERE.has(edge))).toEqual([]);
  });

  it('When the layers are listed, then the entry folders are http/, pages/, cli/ and jobs/ and no lower layer claims a path in one', () => {
    expect([...ENTRY_FOLDERS].sort()).toEqual(['cli/', 'http/', 'jobs/', 'pages/']);
    const claimed = LAYERS.filter(({ layer }) => layer !== 'entry')
      .flatMap(({ paths }) => paths)
      .filter((prefix) => ENTRY_FOLDERS.some((folder) => prefix.startsWith(folder)));
    expect(claimed).toEqual([]);
  });

  it('When every import of src is followed, then no file below the entry layer imports a file of an entry folder', () => {
    const intoEntryFolders = sourceFiles(SRC_DIR).flatMap((file) => {
      const from = path.relative(SRC_DIR, file);
      const fromLayer = layerOf(from);
      if (fromLayer === undefined || fromLayer === 'entry') return [];
      return localImportsOf(file)
        .map((target) => path.relative(SRC_DIR, target))
        .filter((to) => ENTRY_FOLDERS.some((folder) => to.startsWith(folder)))
        .map((to) => `${from} -> ${to}`);
    });
    expect(intoEntryFolders).toEqual([]);
  });
});

/*
 * Vendors live in their adapters (providers/<name>/, integrations/<platform>/, bookkeeping/<system>/):
 * no file under src/modules names Mollie, WooCommerce or Moneybird, in its path, identifiers, strings
 * or comments. A value the API or the database keeps (an import source's name, a platform's name) is
 * declared by its adapter and read from the registry; the words a message needs too.
 */
const VENDOR_WORDS = /mollie|woocommerce|moneybird/i;

/** Every file below a folder, whatever its kind. */
function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? allFiles(full) : [full];
  });
}

/** Files of src/modules that may name a vendor, one line each with why. None: keep it so. */
const NAMING_A_VENDOR = new Set<string>([]);

const namesAVendor = (file: string) => VENDOR_WORDS.test(path.relative(MODULES_DIR, file)) || VENDOR_WORDS.test(readFileSync(file, 'utf8'));
const fromRoot = (file: string) => path.relative(path.resolve(SRC_DIR, '..'), file);

describe('vendors', () => {
  it('When every file under src/modules is read, then none names Mollie, WooCommerce or Moneybird', () => {
    const naming = allFiles(MODULES_DIR).filter(namesAVendor).map(fromRoot);
    expect(naming.filter((name) => !NAMING_A_VENDOR.has(name))).toEqual([]);
  });

  it('When the list of exceptions is read, then each still names a vendor (a file that stopped is taken off)', () => {
    const stale = [...NAMING_A_VENDOR].filter((name) => {
      const file = path.resolve(SRC_DIR, '..', name);
      return !existsSync(file) || !namesAVendor(file);
    });
    expect(stale).toEqual([]);
  });

  it('When a file is read for vendors, then its path, identifiers, strings and comments count, in any case', () => {
    expect(
      ['mollieSource.ts', 'const wooCommerce = 1;', "source: 'mollie-subscriptions'", '// as MONEYBIRD says'].map((text) =>
        VENDOR_WORDS.test(text),
      ),
    ).toEqual([true, true, true, true]);
    expect(VENDOR_WORDS.test("the provider's subscriptions, the store's extension, the bookkeeping system")).toBe(false);
  });
});

/*
 * Modules point one way. Inside src/modules, a module may use the modules below it in this order and
 * learns of what happens above it through hooks (a payment settled, a refund settled, a payment fetched,
 * a link of a hooked type paid, a mandate found valid):
 * it does not import them. Bottom to top, each module reads as using only those before it:
 *
 *  - accounts, customers, products, orders: the merchant, the payer and the shop's catalogue and orders;
 *  - mandates: the payer's permissions to be charged (a customer's);
 *  - payments: the one money pipeline (a customer, a mandate, an order's checkout);
 *  - refunds: money back on a payment;
 *  - subscriptions: the schedule and its charges (subscription_charges), on a customer's mandate;
 *  - links: payment links, which fulfil into a subscription or a mandate (a mandate link through the
 *    hook the takeovers module registers);
 *  - takeovers: a new mandate takes over a customer's subscriptions (a paid mandate link, a store
 *    checkout, or later, when a refresh finds the mandate valid: mandates learn of it through a hook);
 *  - follow-ups: what happens when a payment fails (a retry, a link, a paused subscription);
 *  - invoices: the documents of what was paid and given back;
 *  - billing: the run that charges subscriptions (and its pre-notification);
 *  - store, imports, portal, reports, audit: the shop's sync, bringing subscriptions in from elsewhere,
 *    the customer's self-service, the account's figures (the subscription summary), the ledger's check:
 *    features that use everything below.
 *
 * A module missing from the order fails the test (place it); one in it that does not exist is skipped.
 */
const MODULE_ORDER = [
  'accounts',
  'customers',
  'products',
  'orders',
  'mandates',
  'payments',
  'refunds',
  'subscriptions',
  'links',
  'takeovers',
  'follow-ups',
  'invoices',
  'billing',
  'store',
  'imports',
  'portal',
  'reports',
  'audit',
];

/*
 * What is left of the tangle, counted as pairs of modules (one module importing another, however many
 * of its files do): imports from a module to one above it, and pairs of modules that import each
 * other. Issue 37 found 12 up (in this order) and 10 pairs; the target is at most 4 and 3. A ceiling,
 * lowered as imports go, never raised:
 *  - 5 and 5: refunds react to a fetched payment and invoices to a settled refund through hooks, and
 *    the invoice files have a module of their own.
 *  - 2 and 2: the takeover is a module of its own above mandates, subscriptions and links (a paid
 *    mandate link reaches it through LinkFulfilmentHooks, a mandate found valid through MandateValidHooks,
 *    which also activates drafts; it sends its own method-changed mail), and mandates declare the
 *    subscription statuses they need.
 *  - 1 and 1 now: the subscription summary, which counts open follow-ups, is a report above both.
 *  - Left: subscriptions -> invoices (paidFirstPeriod owes the first charge's invoice in the payment's
 *    transaction), with invoices -> subscriptions the other way.
 */
const MAX_IMPORTS_UP = 1;
const MAX_TWO_WAY_PAIRS = 1;

/** The module of a file of src/modules (its folder), or undefined for modules/index.ts. */
function moduleOf(file: string): string | undefined {
  const relative = path.relative(MODULES_DIR, file);
  if (relative.startsWith('..')) return undefined;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** Each module's imports of other modules, as `from -> to`, with the file imports that make them. */
function moduleImports(files: string[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const from = moduleOf(file);
    if (from === undefined) continue;
    for (const target of localImportsOf(file)) {
      const to = moduleOf(target);
      if (to === undefined || to === from) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${path.relative(MODULES_DIR, file)} -> ${path.relative(MODULES_DIR, target)}`]);
    }
  }
  return edges;
}

const endsOf = (edge: string) => edge.split(' -> ') as [string, string];

/** The module imports that run from a module to one above it in `order`. */
function importsUp(edges: Iterable<string>, order: readonly string[]): string[] {
  return [...edges].filter((edge) => {
    const [from, to] = endsOf(edge);
    return order.indexOf(from) < order.indexOf(to);
  });
}

/** Pairs of modules that import each other, each once (`a <-> b`, a before b by name). */
function twoWayPairs(edges: Iterable<string>): string[] {
  const all = new Set(edges);
  return [...all]
    .map(endsOf)
    .filter(([from, to]) => from < to && all.has(`${to} -> ${from}`))
    .map(([from, to]) => `${from} <-> ${to}`);
}

/** `edge (file -> file; …)`: what a failure prints. */
const explained = (edges: Map<string, string[]>, list: string[]) =>
  list.map((edge) => `${edge}  (${(edges.get(edge) ?? edges.get(edge.replace(' <-> ', ' -> ')) ?? []).join('; ')})`);

describe('modules point one way', () => {
  const edges = moduleImports(sourceFiles(MODULES_DIR));

  it('When the module order is read, then it places every module of src/modules', () => {
    const modules = readdirSync(MODULES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(modules.filter((name) => !MODULE_ORDER.includes(name))).toEqual([]);
  });

  it('When module imports are counted, then one running to a module above counts once and a pair importing each other once', () => {
    const sample = ['a -> b', 'b -> a', 'c -> a', 'a -> c', 'c -> b'];
    expect(importsUp(sample, ['a', 'b', 'c'])).toEqual(['a -> b', 'a -> c']);
    expect(twoWayPairs(sample)).toEqual(['a <-> b', 'a <-> c']);
  });

  it(`When the imports between modules are followed, then at most ${MAX_IMPORTS_UP} run back up the module order`, () => {
    const up = importsUp(edges.keys(), MODULE_ORDER);
    const over = up.length > MAX_IMPORTS_UP;
    expect({ count: up.length, up: over ? explained(edges, up) : [] }).toEqual({ count: Math.min(up.length, MAX_IMPORTS_UP), up: [] });
  });

  it(`When the imports between modules are followed, then at most ${MAX_TWO_WAY_PAIRS} pairs of modules import each other`, () => {
    const pairs = twoWayPairs(edges.keys());
    const over = pairs.length > MAX_TWO_WAY_PAIRS;
    expect({ count: pairs.length, pairs: over ? explained(edges, pairs) : [] }).toEqual({
      count: Math.min(pairs.length, MAX_TWO_WAY_PAIRS),
      pairs: [],
    });
  });
});

/*
 * What a caught error says is read one way, by errorMessage in src/errors.ts: the inline copies of
 * `error instanceof Error ? error.message : String(error)` (47 of them once) are not written again.
 */
const INLINE_ERROR_MESSAGE = /(\w+(?:\.\w+)*) instanceof Error \? \1\.message : String\(\1\)/;

describe('error messages', () => {
  it('When every file of src but errors.ts is read, then none reads an error message inline', () => {
    const inline = sourceFiles(SRC_DIR)
      .filter((file) => path.relative(SRC_DIR, file) !== 'errors.ts')
      .filter((file) => INLINE_ERROR_MESSAGE.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SRC_DIR, file));
    expect(inline).toEqual([]);
  });

  it('When the pattern is tried, then it finds the inline copy and not the helper call', () => {
    expect(INLINE_ERROR_MESSAGE.test('error: cause instanceof Error ? cause.message : String(cause),')).toBe(true);
    expect(INLINE_ERROR_MESSAGE.test('error: errorMessage(cause),')).toBe(false);
  });
});

/*
 * Two kinds of time (docs/architecture.md): a business date or time comes from the account's clock (ctx.clock,
 * or the `now` handed down from it), elapsed time from the monotonic timer in src/time/elapsed.ts. Only
 * src/time reads the real clock, so no other file calls Date.now() or constructs a Date with `new Date`.
 * Read from the syntax tree: a comment or a string that names them does not count.
 */
const READING_THE_CLOCK_ELSEWHERE = new Set<string>([]);

/** Lines (1-based) where the source calls Date.now() or constructs a Date. */
function clockReadLines(source: string): number[] {
  const file = ts.createSourceFile('sample.ts', source, ts.ScriptTarget.ES2022, true);
  const lines: number[] = [];
  const isDate = (node: ts.Node) => ts.isIdentifier(node) && node.text === 'Date';
  const visit = (node: ts.Node) => {
    const constructsDate = ts.isNewExpression(node) && isDate(node.expression);
    const callsDateNow =
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      isDate(node.expression.expression) &&
      node.expression.name.text === 'now';
    if (constructsDate || callsDateNow) lines.push(file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lines;
}

describe('time', () => {
  it('When a file is read for clock reads, then Date.now() and new Date count, and comments, strings and Date.UTC do not', () => {
    const source = [
      '// new Date() and Date.now() in a line comment',
      '/* new Date(0) in a block comment */',
      "const text = 'Date.now() and new Date( in a string';",
      'const started = Date.now();',
      'const at = new Date(started + 1000);',
      'const day = Date.UTC(2024, 0, 1);',
      'const same = new Date;',
      'const parsed = Date.parse(text);',
    ].join('\n');
    expect(clockReadLines(source)).toEqual([4, 5, 7]);
  });

  it('When every file of src outside src/time is read, then none calls Date.now() or new Date', () => {
    const reading = sourceFiles(SRC_DIR)
      .filter((file) => !file.startsWith(path.join(SRC_DIR, 'time') + path.sep))
      .map((file) => path.relative(SRC_DIR, file))
      .filter((relative) => !READING_THE_CLOCK_ELSEWHERE.has(relative))
      .flatMap((relative) => clockReadLines(readFileSync(path.join(SRC_DIR, relative), 'utf8')).map((line) => `${relative}:${line}`));
    expect(reading).toEqual([]);
  });

  it('When the list of exceptions is read, then each still reads the clock (a file that stopped is taken off)', () => {
    const stale = [...READING_THE_CLOCK_ELSEWHERE].filter(
      (relative) => clockReadLines(readFileSync(path.join(SRC_DIR, relative), 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });
});
