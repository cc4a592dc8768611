import type { PageLocale } from '../i18n/locales';
import { escapeHtml } from '../text/html';

export interface PageParts {
  locale: PageLocale;
  title: string;
  body: string;
  /** `<meta http-equiv="refresh">`: how a page checks again without any script. */
  refreshSeconds?: number;
  stylesheet: string;
  /** Shown above the main content on every page of a site (the portal's merchant, log-out). */
  header?: string;
}

/** The shell of every hosted page: language, viewport, our own stylesheet, one main landmark, no script. */
export function renderPage({ locale, title, body, refreshSeconds, stylesheet, header }: PageParts): string {
  const refresh = refreshSeconds === undefined ? '' : `<meta http-equiv="refresh" content="${refreshSeconds}">`;
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${refresh}<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
</head>
<body>
${header ? `<header class="site">\n${header}\n</header>\n` : ''}<main class="card">
${body}
</main>
</body>
</html>`;
}
