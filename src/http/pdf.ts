import type { Response } from 'express';

/** Answers with a PDF, shown in the browser and saved under `name` (its number). */
export function sendPdf(res: Response, name: string, pdf: Buffer): void {
  res
    .status(200)
    .type('application/pdf')
    .setHeader('Content-Disposition', `inline; filename="${name.replace(/[^\w.-]/g, '_')}.pdf"`);
  res.send(pdf);
}
