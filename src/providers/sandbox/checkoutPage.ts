import express, { type Router } from 'express';
import type { AppContext } from '../../context';
import { formatCents } from '../../money';
import { escapeHtml } from '../../text/html';
import { CHECKOUT_OUTCOMES, completeCheckout, type CheckoutOutcome } from './checkoutCompletion';
import type { SandboxPaymentRow } from './rows';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
.amount{font-size:2rem;font-weight:600}.note{color:#666;font-size:.9rem}
form{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1.5rem}
button{padding:.6rem 1.1rem;font-size:1rem;border-radius:.4rem;border:1px solid #999;background:#f4f4f4;cursor:pointer}
button[value=paid]{background:#1a7f37;color:#fff;border-color:#1a7f37}</style></head>
<body>${body}</body></html>`;
}

/**
 * The sandbox provider's hosted checkout: a person picks the outcome of a payment. After the
 * provider-side status changes, our payment is brought up to date through the same path a provider
 * webhook takes (fetch the payment from the provider, apply its status).
 */
export function sandboxCheckoutRouter(
  ctx: AppContext,
  onProviderPaymentChanged: (accountId: string, providerPaymentId: string) => Promise<void>,
): Router {
  const router = express.Router();
  const findPayment = (id: string) => ctx.db<SandboxPaymentRow>('sandbox_payments').where({ id }).first();

  router.get('/checkout/:id', async (req, res) => {
    const payment = await findPayment(req.params.id);
    if (!payment) {
      res.status(404).type('html').send(page('Payment not found', '<h1>Payment not found</h1>'));
      return;
    }
    const amount = `${escapeHtml(payment.currency)} ${formatCents(Number(payment.amount))}`;
    const choices =
      payment.status === 'open'
        ? `<form method="post" action="/sandbox/checkout/${escapeHtml(payment.id)}">${CHECKOUT_OUTCOMES.map(
            (outcome) => `<button type="submit" name="status" value="${outcome}">${outcome}</button>`,
          ).join('')}</form>`
        : `<p>This payment is <strong>${escapeHtml(payment.status)}</strong>.</p>`;
    res.type('html').send(
      page(
        `Sandbox checkout ${payment.id}`,
        `<h1>Sandbox checkout</h1><p class="note">Test mode: no money moves. Choose how this payment ends.</p>
<p class="amount">${amount}</p><p>${escapeHtml(payment.description)}</p><p class="note">${escapeHtml(payment.id)}</p>${choices}`,
      ),
    );
  });

  router.post('/checkout/:id', express.urlencoded({ extended: false, limit: '10kb' }), async (req, res) => {
    const payment = await findPayment(req.params.id);
    const outcome = (req.body as { status?: string } | undefined)?.status as CheckoutOutcome | undefined;
    if (!payment) {
      res.status(404).type('html').send(page('Payment not found', '<h1>Payment not found</h1>'));
      return;
    }
    if (!outcome || !CHECKOUT_OUTCOMES.includes(outcome)) {
      res
        .status(422)
        .type('html')
        .send(page('Choose an outcome', `<h1>Choose one of: ${CHECKOUT_OUTCOMES.join(', ')}</h1>`));
      return;
    }
    if (payment.status !== 'open') {
      res
        .status(409)
        .type('html')
        .send(page('Already completed', `<h1>This payment is already ${escapeHtml(payment.status)}</h1>`));
      return;
    }
    // Of two racing clicks only one moves the payment (and makes a first payment's mandate).
    const moved = await completeCheckout(ctx.db, payment, outcome, ctx.clock.now());
    if (moved) await onProviderPaymentChanged(payment.account_id, payment.id);
    if (payment.redirect_url) {
      res.redirect(303, payment.redirect_url);
      return;
    }
    res.type('html').send(page('Payment completed', `<h1>Payment ${escapeHtml(outcome)}</h1>`));
  });

  return router;
}
