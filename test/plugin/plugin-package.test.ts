import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';

/**
 * The plugin as PHP and as a package: every file passes `php -l`, its PHPUnit suite (hand-written
 * WordPress/WooCommerce stubs) passes, every string has a Dutch translation, and `npm run
 * build:plugin` gives a zip with the plugin folder at its root. CI installs php-cli and phpunit
 * (.ci/run); without them the PHP checks are skipped, saying so.
 */
const ROOT = path.resolve(__dirname, '../..');
const PLUGIN_BRIDGE = path.join(ROOT, 'plugin-bridge');
const PLUGIN = path.join(PLUGIN_BRIDGE, 'recurring-payments-bridge');

// The build scripts are plain CommonJS (they run before anything is compiled) and have no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const i18n = require('../../scripts/plugin-i18n.js') as {
  translatableStrings(dir: string): string[];
  parsePo(text: string): Map<string, string>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pluginBuild = require('../../scripts/build-plugin.js') as { build(): string };

const available = (command: string) => spawnSync(command, ['--version']).status === 0;
const itWith = (command: string) => {
  if (available(command)) return it;
  console.warn(`plugin checks that need ${command} skipped: it is not installed (apt-get install php-cli phpunit)`);
  return it.skip;
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('the WordPress plugin', () => {
  itWith('php')('When every PHP file of the plugin and its tests is linted, then none has a syntax error', () => {
    const files = filesUnder(PLUGIN_BRIDGE).filter((file) => file.endsWith('.php'));
    expect(files.length).toBeGreaterThan(15);
    const failures = files
      .map((file) => ({ file, lint: spawnSync('php', ['-l', file], { encoding: 'utf8' }) }))
      .filter(({ lint }) => lint.status !== 0);
    expect(failures.map(({ file, lint }) => `${path.relative(ROOT, file)}: ${lint.stdout}${lint.stderr}`)).toEqual([]);
  });

  itWith('phpunit')(
    'When the PHPUnit suite runs, then it passes, with its tests counted',
    () => {
      const run = spawnSync('phpunit', ['-c', path.join(PLUGIN_BRIDGE, 'phpunit.xml')], { encoding: 'utf8', cwd: PLUGIN_BRIDGE });
      expect({ status: run.status, output: run.stdout.slice(-2000) + run.stderr }).toEqual({
        status: 0,
        output: expect.stringMatching(/OK \(\d+ tests, \d+ assertions\)/),
      });
      const tests = Number(/OK \((\d+) tests/.exec(run.stdout)?.[1]);
      expect(tests).toBeGreaterThanOrEqual(25);
    },
    60_000,
  );

  it('When the plugin’s strings are read from its PHP, then each is in the template and has a Dutch translation', () => {
    const strings = i18n.translatableStrings(PLUGIN);
    expect(strings).toContain('Connect this store');
    const languages = path.join(PLUGIN, 'languages');
    const template = i18n.parsePo(readFileSync(path.join(languages, 'recurring-payments-bridge.pot'), 'utf8'));
    const dutch = i18n.parsePo(readFileSync(path.join(languages, 'recurring-payments-bridge-nl_NL.po'), 'utf8'));
    expect(strings.filter((text) => !template.has(text))).toEqual([]);
    expect(strings.filter((text) => !dutch.get(text))).toEqual([]);
  });

  it(
    'When the plugin is built, then the zip holds the plugin folder at its root with the main file and its headers, readme.txt, ' +
      'the e-mail templates, the compiled Dutch .mo and no tests',
    () => {
      const zip = new AdmZip(pluginBuild.build());
      const names = zip.getEntries().map((entry) => entry.entryName);
      expect(names.every((name) => name.startsWith('recurring-payments-bridge/'))).toBe(true);
      expect(names).toEqual(
        expect.arrayContaining([
          'recurring-payments-bridge/recurring-payments-bridge.php',
          'recurring-payments-bridge/uninstall.php',
          'recurring-payments-bridge/readme.txt',
          // The subscription e-mails' templates, HTML and plain, which a theme may override.
          'recurring-payments-bridge/templates/emails/rps-subscription.php',
          'recurring-payments-bridge/templates/emails/plain/rps-subscription.php',
          'recurring-payments-bridge/languages/recurring-payments-bridge-nl_NL.mo',
        ]),
      );
      expect(names.filter((name) => /tests|phpunit/.test(name))).toEqual([]);
      const header = zip.readAsText('recurring-payments-bridge/recurring-payments-bridge.php');
      expect(header).toMatch(/Plugin Name:\s+Recurring Payments Bridge/);
      expect(header).toMatch(/Text Domain:\s+recurring-payments-bridge/);
      for (const line of [/Tested up to:\s+6\.8/, /WC tested up to:\s+9\.9/, /Requires PHP:\s+8\.1/, /License:\s+GPL-2\.0-or-later/]) {
        expect(header).toMatch(line);
      }
      // WordPress's plugin directory reads readme.txt: its header fields and the four sections it shows.
      const readme = zip.readAsText('recurring-payments-bridge/readme.txt');
      expect(readme).toMatch(/^=== Recurring Payments Bridge ===\n/);
      for (const field of [
        'Contributors',
        'Tags',
        'Requires at least',
        'Tested up to',
        'Requires PHP',
        'Stable tag',
        'License',
        'License URI',
      ]) {
        expect(readme).toMatch(new RegExp(`^${field}: \\S`, 'm'));
      }
      expect(readme).toMatch(/^Tested up to: 6\.8$/m);
      expect(readme).toMatch(/^License: GPL-2\.0-or-later$/m);
      expect(readme).toMatch(/^Stable tag: (\d+\.\d+\.\d+)$/m);
      expect(/^Stable tag: (.+)$/m.exec(readme)?.[1]).toBe(/^ \* Version:\s+(.+)$/m.exec(header)?.[1]);
      for (const section of ['Description', 'Installation', 'Frequently Asked Questions', 'Changelog']) {
        expect(readme).toContain(`\n== ${section} ==\n`);
      }
      const mo = zip.getEntry('recurring-payments-bridge/languages/recurring-payments-bridge-nl_NL.mo')?.getData() as Buffer;
      expect(mo.readUInt32LE(0)).toBe(0x950412de);
      expect(mo.includes(Buffer.from('Deze winkel koppelen'))).toBe(true);
    },
  );

  it('When the plugin is built, then every PHP file of includes/, in whichever role folder, is in the zip', () => {
    const zip = new AdmZip(pluginBuild.build());
    const names = new Set(zip.getEntries().map((entry) => entry.entryName));
    const includes = filesUnder(path.join(PLUGIN, 'includes')).filter((file) => file.endsWith('.php'));
    // The folders WooCommerce groups its own includes/ by, and the wiring class at the top.
    for (const folder of ['api', 'gateway', 'admin', 'account', 'products', 'subscriptions', 'emails']) {
      expect(includes.some((file) => path.relative(PLUGIN, file).startsWith(`includes/${folder}/`))).toBe(true);
    }
    const inZip = (file: string) => `recurring-payments-bridge/${path.relative(PLUGIN, file).split(path.sep).join('/')}`;
    expect(includes.map(inZip).filter((name) => !names.has(name))).toEqual([]);
    expect(names.has('recurring-payments-bridge/includes/class-rps-plugin.php')).toBe(true);
  });

  it('When WordPress.org reads readme.txt, then its External services section says what the service gets, and the provider’s terms', () => {
    const readme = readFileSync(path.join(PLUGIN, 'readme.txt'), 'utf8');
    const section = /\n== External services ==\n([\s\S]*?)\n== /.exec(readme)?.[1] ?? '';
    expect(section).toContain('the shop owner enters');
    expect(section).toContain('privacy policy');
    expect(section).toMatch(/At checkout .*first name, last name and billing e-mail address/s);
    expect(section).toContain('https://www.mollie.com/user-agreement');
    expect(section).toContain('https://www.mollie.com/privacy');
  });
});
