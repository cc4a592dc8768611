#!/usr/bin/env node
'use strict';
/**
 * `npm run build:plugin`: dist/recurring-payments-bridge.zip, the plugin folder at its root, ready for
 * Plugins → Add New → Upload. Each .po is compiled into the .mo WordPress loads; tests stay out.
 */
const fs = require('node:fs');
const path = require('node:path');
const AdmZip = require('adm-zip');
const { compileMo, parsePo } = require('./plugin-i18n');

const ROOT = path.resolve(__dirname, '..');
const SLUG = 'recurring-payments-bridge';
const SOURCE = path.join(ROOT, 'plugin-bridge', SLUG);
const TARGET = path.join(ROOT, 'dist', `${SLUG}.zip`);

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function build() {
  const zip = new AdmZip();
  for (const file of filesUnder(SOURCE).sort()) {
    const inZip = path.posix.join(SLUG, path.relative(SOURCE, file).split(path.sep).join('/'));
    zip.addFile(inZip, fs.readFileSync(file));
    if (file.endsWith('.po')) {
      zip.addFile(inZip.replace(/\.po$/, '.mo'), compileMo(parsePo(fs.readFileSync(file, 'utf8'))));
    }
  }
  fs.mkdirSync(path.dirname(TARGET), { recursive: true });
  zip.writeZip(TARGET);
  return TARGET;
}

if (require.main === module) {
  console.log(`plugin: ${path.relative(process.cwd(), build())}`);
}

module.exports = { build, TARGET };
