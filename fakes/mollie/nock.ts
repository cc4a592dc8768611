import nock from 'nock';
import { MollieFake } from './fake';

type Reply = (error: NodeJS.ErrnoException | null, result: nock.ReplyFnResult) => void;

/**
 * Serves the fake to a service in this process through nock, at Mollie's own address. A lost
 * answer surfaces as a connection reset, the way a dropped connection does.
 */
export function serveWithNock(fake: MollieFake, host = 'https://api.mollie.com'): { stop(): void } {
  fake.baseUrl = host;
  const scope = nock(host).persist();
  const answer = function (this: nock.ReplyFnContext, uri: string, body: nock.Body, reply: Reply) {
    const key = this.req.headers['idempotency-key'];
    const parsed =
      typeof body === 'string' ? (body ? (JSON.parse(body) as Record<string, unknown>) : {}) : ((body ?? {}) as Record<string, unknown>);
    void fake
      .handle({ method: this.req.method ?? 'GET', path: uri, idempotencyKey: Array.isArray(key) ? key[0] : key, body: parsed })
      .then((result) => {
        if ('lost' in result) {
          // The result is ignored when an error is given.
          reply(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), [0]);
          return;
        }
        reply(null, [result.status, JSON.stringify(result.body), { 'Content-Type': 'application/hal+json', ...result.headers }]);
      });
  };
  scope.get(/.*/).reply(answer);
  scope.post(/.*/).reply(answer);
  scope.patch(/.*/).reply(answer);
  scope.delete(/.*/).reply(answer);
  return {
    stop() {
      fake.releaseHeld();
      nock.cleanAll();
    },
  };
}

/** A fake Mollie on the test's clock (idempotency keys expire as that clock moves), served through nock. */
export function fakeMollieOnClock(clock: { now(): Date }): { fake: MollieFake; stop(): void } {
  const fake = new MollieFake('https://api.mollie.com');
  fake.now = () => clock.now().getTime();
  return { fake, ...serveWithNock(fake) };
}
