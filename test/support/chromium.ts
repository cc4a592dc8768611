import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (.ci/run installs it); playwright-core downloads no browser of its own. */
export const CHROMIUM = '/usr/bin/chromium';

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
