import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (.ci/run installs it); playwright-core downloads no browser of its own. */
export const CHROMIUM = '/usr/bin/chromium';

/** Where browser tests write their screenshots (git-ignored; CI keeps them as artifacts). */
export const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts');

/**
 * `describe` where Chromium is installed; elsewhere the tests are skipped, saying so. A function, not
 * Jest's `describe` taken at import: the store suite's globalSetup imports this file where Jest has no
 * `describe` yet.
 */
export function describeWithChromium(name: string, tests: () => void): void {
  const installed = existsSync(CHROMIUM);
  if (!installed) console.warn(`browser tests skipped: ${CHROMIUM} is not installed (apt-get install chromium)`);
  (installed ? describe : describe.skip)(name, tests);
}

/** Chromium without a window, kept off the closed network (it keeps trying otherwise). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    // Runs in the page, where axe.min.js put `axe` on the global object.
    const axe = Reflect.get(globalThis, 'axe') as { run(): Promise<{ violations: AxeViolation[] }> };
    return (await axe.run()).violations;
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
