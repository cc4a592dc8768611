#!/usr/bin/env node
'use strict';
/**
 * `npm run build`: compiles src/ and migrations/ into dist/ and writes there a fingerprint of the
 * sources it compiled.
 *
 * `npm start` and `npm run cli` call it with --before-start. With TypeScript installed it builds when
 * the sources differ from those dist/ was built from (by the fingerprint, content not clock), so a
 * fresh or updated checkout starts what its sources say, and an unchanged one starts at once instead
 * of after a 15–20 s compile. `npm test` calls it with --if-changed, which skips an unchanged build
 * the same way. Without TypeScript — a production install
 * pruned of its dev dependencies (`npm ci && npm run build && npm prune --omit=dev`, README
 * "Production") — it builds nothing and only checks that dist/ was built from the sources beside it,
 * so an update that was never built is refused rather than started as the old version. Plain
 * JavaScript with no dependency: it runs before anything is compiled.
 */
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const FINGERPRINT = path.join(DIST, '.sources-sha256');
const SOURCES = ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json'];
const PRODUCTION_INSTALL = 'npm ci && npm run build && npm prune --omit=dev (README "Production")';

function filesUnder(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((child) => filesUnder(path.join(entry, child.name)));
}

/** Of every source file's path and content; absent (null) where the sources are not shipped. */
function sourcesFingerprint() {
  const files = SOURCES.flatMap(filesUnder).sort();
  if (!files.some((file) => file.startsWith(`src${path.sep}`))) return null;
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${file.split(path.sep).join('/')}\0`)
      .update(fs.readFileSync(path.join(ROOT, file)))
      .update('\0');
  return hash.digest('hex');
}

function typescriptCompiler() {
  try {
    return require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  } catch {
    return null;
  }
}

function fail(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

function build(tsc) {
  const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (compiled.status !== 0) process.exit(compiled.status ?? 1);
  const fingerprint = sourcesFingerprint();
  if (fingerprint) fs.writeFileSync(FINGERPRINT, `${fingerprint}\n`);
}

/** dist/ holds a complete build of exactly these sources (its fingerprint matches), so compiling again would change nothing. */
function builtFromTheseSources() {
  if (!['server.js', 'cli.js'].every((file) => fs.existsSync(path.join(DIST, 'src', file)))) return false;
  const expected = sourcesFingerprint();
  return expected !== null && fs.existsSync(FINGERPRINT) && fs.readFileSync(FINGERPRINT, 'utf8').trim() === expected;
}

/** Without TypeScript: start only a dist/ built from exactly these sources. */
function checkBuilt() {
  if (!fs.existsSync(path.join(DIST, 'src', 'server.js'))) {
    fail(
      `Cannot start: dist/ is not built and TypeScript is not installed (npm ci --omit=dev leaves it out); build before pruning: ` +
        `${PRODUCTION_INSTALL}`,
    );
  }
  const expected = sourcesFingerprint();
  if (expected === null) return; // dist/ shipped without its sources: nothing to compare with
  const built = fs.existsSync(FINGERPRINT) ? fs.readFileSync(FINGERPRINT, 'utf8').trim() : '';
  if (built !== expected) {
    fail(
      `Cannot start: dist/ was not built from the sources in src/ (changed since) and TypeScript is not installed to build them ` +
        `again; run ${PRODUCTION_INSTALL}`,
    );
  }
}

const beforeStart = process.argv.includes('--before-start');
const onlyIfChanged = beforeStart || process.argv.includes('--if-changed');
const tsc = typescriptCompiler();
if (tsc) {
  if (!(onlyIfChanged && builtFromTheseSources())) build(tsc);
} else if (beforeStart) checkBuilt();
else
  fail('Cannot build: TypeScript is not installed (npm ci --omit=dev leaves dev dependencies out); run npm ci first, then npm run build');
