import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { wallClockMsForServerDates } from '../../time/elapsed';

/**
 * Mollie's client drops the headers of an error answer, so a 429's `Retry-After` never reaches its
 * error. Node publishes every HTTP answer on a diagnostics channel, in the async context of the
 * request that asked for it: a call run inside `noteAnswers` learns the Retry-After of its answers.
 */

/** What the answers to one call said that the client's errors leave out. */
export interface Answers {
  retryAfterSeconds: number | null;
}

const calls = new AsyncLocalStorage<Answers>();
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  subscribe('http.client.response.finish', (message) => {
    const answers = calls.getStore();
    if (!answers) return;
    const { response } = message as { request: ClientRequest; response: IncomingMessage };
    const header = response.headers['retry-after'];
    answers.retryAfterSeconds = retryAfterSecondsOf(Array.isArray(header) ? header[0] : header);
  });
}

/** A Retry-After header as whole seconds (a delay, or an HTTP date from now); null when absent or unreadable. */
export function retryAfterSecondsOf(header: string | undefined, now = wallClockMsForServerDates()): number | null {
  const text = header?.trim() ?? '';
  if (text === '') return null;
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Runs one client call, noting in `answers` what its answers said (the last one wins). */
export function noteAnswers<T>(answers: Answers, run: () => Promise<T>): Promise<T> {
  listen();
  return calls.run(answers, run);
}
