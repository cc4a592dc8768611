import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../support/databases';
import { startServiceProcess, type ServiceProcess } from '../support/serviceProcess';

/**
 * Why this file exists: `npm ci --omit=dev && npm start` failed with `tsc: not found`, TypeScript
 * being a dev dependency. The production install README "Production" documents is done here for real,
 * in a copy of the project: `npm run build` with the dev dependencies, `npm prune --omit=dev`, then
 * `npm start` without TypeScript; and before that, as on a fresh clone, `npm start` building a missing
 * dist/ itself. Only `npm ci` is stood in for, by a copy of this checkout's
 * node_modules (which `npm ci` made): a fresh one compiles better-sqlite3 again, about a minute.
 */
// A full build, a copy of node_modules and several starts: more than the default, under the minute each.
jest.setTimeout(90_000);

const ROOT = path.resolve(__dirname, '../..');
const PROJECT = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts', 'src', 'migrations'];
const APP_KEY = 'base64:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';
const BUILD_AGAIN = 'run npm ci && npm run build && npm prune --omit=dev (README "Production")';

let dir: string;

/** An npm command in the copy, as an operator types it. */
function npm(args: string[], env: Record<string, string> = {}) {
  return spawnSync('npm', args, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** `npm run build` or `npm prune` in the copy, which must succeed (its stderr shown when it does not). */
function npmMustSucceed(args: string[]) {
  const run = npm(args);
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rps-install-'));
  for (const entry of PROJECT) cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  // A real copy, not hard links: npm must not touch this checkout's own node_modules.
  expect(spawnSync('cp', ['-a', path.join(ROOT, 'node_modules'), dir]).status).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start where TypeScript is installed (a fresh clone after npm install)', () => {
  let service: ServiceProcess | undefined;
  afterAll(() => service?.stop());

  it('When dist/ was never built, then `npm start` builds it and starts the service', async () => {
    expect(existsSync(path.join(dir, 'dist'))).toBe(false);
    service = await startServiceProcess(
      { HOME: process.env.HOME ?? dir, DATA_DIR: path.join(dir, 'data'), DATABASE_URL: `sqlite:${path.join(dir, 'data', 'dev.sqlite')}` },
      { command: ['npm', 'start'], cwd: dir, startsWithinMs: 60_000 },
    );
    expect(existsSync(path.join(dir, 'dist', 'src', 'server.js'))).toBe(true);
    expect(existsSync(path.join(dir, 'dist', '.sources-sha256'))).toBe(true);
    await service.stop();
    service = undefined;
  });
});

describe('the production install: built, then pruned of dev dependencies', () => {
  beforeAll(() => {
    npmMustSucceed(['run', '--silent', 'build']);
    npmMustSucceed(['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund']);
  });

  describe.each(TEST_DATABASES)('npm start in a production install without dev dependencies, on %s', (kind) => {
    let database: TestDatabase;
    let service: ServiceProcess | undefined;

    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await service?.stop();
      await database.drop();
    });

    it(
      'When the dev dependencies were pruned after the build, then TypeScript is gone and `npm start` starts the built service, ' +
        'which answers',
      async () => {
        expect(existsSync(path.join(dir, 'node_modules', 'typescript'))).toBe(false);
        expect(existsSync(path.join(dir, 'node_modules', 'jest'))).toBe(false);
        service = await startServiceProcess(
          {
            NODE_ENV: 'production',
            DATABASE_URL: database.url,
            DATA_DIR: path.join(dir, 'data'),
            APP_KEY,
            PUBLIC_URL: 'https://pay.example.test',
            HOME: process.env.HOME ?? dir,
          },
          { command: ['npm', 'start'], cwd: dir },
        );
        const openApi = await fetch(`${service.url}/api/v2/openapi.json`);
        expect(openApi.status).toBe(200);
        expect(((await openApi.json()) as { servers: Array<{ url: string }> }).servers).toEqual([
          expect.objectContaining({ url: expect.stringContaining('https://pay.example.test') }),
        ]);
        await service.stop();
        service = undefined;
      },
    );
  });

  describe('npm start in a production install whose dist/ does not fit its sources', () => {
    // Without APP_KEY: should the check let a start through after all, the service stops at once, not hangs.
    const npmStart = () => npm(['start'], { NODE_ENV: 'production' });

    it(
      'When a source changed after the build and TypeScript is gone, then `npm start` refuses with one line saying how to build, ' +
        'instead of starting the old build',
      () => {
        const file = path.join(dir, 'src', 'server.ts');
        const original = readFileSync(file, 'utf8');
        appendFileSync(file, '\n// changed after the build\n');
        try {
          const start = npmStart();
          expect(start.status).toBe(1);
          expect(start.stderr).toContain(
            `Cannot start: dist/ was not built from the sources in src/ (changed since) and TypeScript is not installed to build ` +
              `them again; ${BUILD_AGAIN}\n`,
          );
          expect(start.stdout).not.toContain('listening');
        } finally {
          writeFileSync(file, original);
        }
      },
    );

    it('When dist/ was never built and TypeScript is gone, then `npm start` refuses with one line saying to build before pruning', () => {
      renameSync(path.join(dir, 'dist'), path.join(dir, 'dist.away'));
      try {
        const start = npmStart();
        expect(start.status).toBe(1);
        expect(start.stderr).toContain(
          'Cannot start: dist/ is not built and TypeScript is not installed (npm ci --omit=dev leaves it out); build before pruning: ' +
            'npm ci && npm run build && npm prune --omit=dev (README "Production")\n',
        );
      } finally {
        renameSync(path.join(dir, 'dist.away'), path.join(dir, 'dist'));
      }
    });

    it('When `npm run build` is asked for without TypeScript, then it refuses with one line saying to install the dev dependencies', () => {
      const build = npm(['run', 'build']);
      expect(build.status).toBe(1);
      expect(build.stderr).toContain(
        'Cannot build: TypeScript is not installed (npm ci --omit=dev leaves dev dependencies out); run npm ci first, then npm run build\n',
      );
    });
  });
});
