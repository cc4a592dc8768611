'use strict';
/**
 * The plugin's translations without gettext tools: the translatable strings are read from its PHP
 * (`__`, `esc_html__`, `esc_html_e`, `esc_attr__` with our text domain), and a `.po` file is
 * compiled into the `.mo` WordPress loads.
 */
const fs = require('node:fs');
const path = require('node:path');

const DOMAIN = 'recurring-payments-bridge';
const CALL = /\b(?:__|esc_html__|esc_html_e|esc_attr__)\(\s*'((?:[^'\\]|\\.)*)'\s*,\s*'([^']+)'\s*\)/g;

function phpFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return phpFiles(full);
    return entry.name.endsWith('.php') ? [full] : [];
  });
}

/** Every string of our text domain, once, in the order first met. */
function translatableStrings(pluginDir) {
  const found = new Set();
  for (const file of phpFiles(pluginDir).sort()) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(CALL)) {
      if (match[2] === DOMAIN) found.add(match[1].replace(/\\(['\\])/g, '$1'));
    }
  }
  return [...found];
}

const poString = (text) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
const unPoString = (quoted) => JSON.parse(quoted.replace(/\\'/g, "'"));

/** The template every translation starts from. */
function potFor(strings) {
  const header = ['msgid ""', 'msgstr ""', poString('Content-Type: text/plain; charset=UTF-8\n'), poString(`X-Domain: ${DOMAIN}\n`), ''];
  return header.concat(strings.flatMap((text) => [`msgid ${poString(text)}`, 'msgstr ""', ''])).join('\n');
}

/** msgid → msgstr of a .po file (single-line entries, as ours are written); the header under "". */
function parsePo(text) {
  const entries = new Map();
  let id = null;
  let field = null;
  let current = { msgid: '', msgstr: '' };
  const flush = () => {
    if (id !== null) entries.set(current.msgid, current.msgstr);
    id = null;
    current = { msgid: '', msgstr: '' };
  };
  for (const line of text.split('\n')) {
    const start = /^(msgid|msgstr) (".*")$/.exec(line);
    if (start) {
      if (start[1] === 'msgid') flush();
      field = start[1];
      if (field === 'msgid') id = '';
      current[field] = unPoString(start[2]);
    } else if (/^".*"$/.test(line) && field) {
      current[field] += unPoString(line);
    } else if (line.trim() === '' || line.startsWith('#')) {
      field = null;
    }
  }
  flush();
  return entries;
}

/** GNU .mo, little-endian, no hash table: what WordPress's MO reader takes. */
function compileMo(entries) {
  const pairs = [...entries].filter(([, translation]) => translation !== '').sort(([a], [b]) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
  const count = pairs.length;
  const headerSize = 28;
  const idsTable = headerSize;
  const strsTable = idsTable + count * 8;
  let offset = strsTable + count * 8;
  const ids = [];
  const strs = [];
  for (const [id] of pairs) {
    const bytes = Buffer.from(id, 'utf8');
    ids.push({ bytes, offset });
    offset += bytes.length + 1;
  }
  for (const [, str] of pairs) {
    const bytes = Buffer.from(str, 'utf8');
    strs.push({ bytes, offset });
    offset += bytes.length + 1;
  }
  const out = Buffer.alloc(offset);
  out.writeUInt32LE(0x950412de, 0);
  out.writeUInt32LE(0, 4);
  out.writeUInt32LE(count, 8);
  out.writeUInt32LE(idsTable, 12);
  out.writeUInt32LE(strsTable, 16);
  out.writeUInt32LE(0, 20);
  out.writeUInt32LE(0, 24);
  [ids, strs].forEach((table, which) => {
    const base = which === 0 ? idsTable : strsTable;
    table.forEach((entry, index) => {
      out.writeUInt32LE(entry.bytes.length, base + index * 8);
      out.writeUInt32LE(entry.offset, base + index * 8 + 4);
      entry.bytes.copy(out, entry.offset);
    });
  });
  return out;
}

module.exports = { DOMAIN, translatableStrings, potFor, parsePo, compileMo };

// `node scripts/plugin-i18n.js pot [pluginDir]`: writes the template from the PHP, in the order the strings are met,
// so it is made, not edited by hand (a hand-kept template drifts: strings that are gone stay in it).
if (require.main === module) {
  const [command, dir] = process.argv.slice(2);
  if (command !== 'pot') {
    console.error('usage: node scripts/plugin-i18n.js pot [pluginDir]');
    process.exit(2);
  }
  const pluginDir = dir ?? path.join(__dirname, '..', 'plugin-bridge', DOMAIN);
  const file = path.join(pluginDir, 'languages', `${DOMAIN}.pot`);
  fs.writeFileSync(file, potFor(translatableStrings(pluginDir)));
  console.log(`${file}: ${translatableStrings(pluginDir).length} strings`);
}
