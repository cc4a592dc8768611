import dns from 'node:dns';
import http from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postToWebhookUrl, type PostOptions } from '../../src/events/post';
import { startReceiver } from '../support/receiver';

const headers = { 'Content-Type': 'application/json', 'X-Event-Id': 'evt_1' };
const body = '{"id":"pay_1","event":"payment.paid","status":"paid"}';
const production: PostOptions = { allowPrivate: false, timeoutMs: 10_000 };
const development: PostOptions = { allowPrivate: true, timeoutMs: 10_000 };

describe('one POST to a webhook_url', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([
    'http://127.0.0.1:9/hooks',
    'http://[::1]:9/hooks',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'https://10.0.0.5/hooks',
    'http://0x7f.1:9/',
    'http://2130706433:9/',
  ])('When private addresses are refused and the URL is the literal %s, then no connection is even started', async (url) => {
    const request = jest.spyOn(http, 'request');
    expect(await postToWebhookUrl(url, body, headers, production)).toEqual({
      status: null,
      failure: 'address not allowed',
      detail: expect.any(String),
    });
    expect(request).not.toHaveBeenCalled();
  });

  it('When a host name resolves to loopback, then it is refused after resolving and the receiver never hears of it', async () => {
    const receiver = await startReceiver([200]);
    try {
      const result = await postToWebhookUrl(`http://localhost:${receiver.port}/hooks`, body, headers, production);
      expect(result).toEqual({
        status: null,
        failure: 'address not allowed',
        detail: expect.stringMatching(/^localhost resolves to .*127\.0\.0\.1/),
      });
      expect(receiver.calls).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it(
    'When private addresses are allowed, then a host name resolving to loopback is resolved once and reached with the body and ' +
      'headers',
    async () => {
      const receiver = await startReceiver([204]);
      const request = jest.spyOn(http, 'request');
      const resolve = jest.spyOn(dns, 'lookup');
      try {
        expect(await postToWebhookUrl(`http://localhost:${receiver.port}/hooks?x=1`, body, headers, development)).toEqual({
          status: 204,
          failure: null,
          detail: null,
        });
        expect(request).toHaveBeenCalledTimes(1);
        // One resolution, whose checked addresses the connection used (no second look-up to rebind).
        expect(resolve).toHaveBeenCalledTimes(1);
        expect(receiver.calls).toHaveLength(1);
        expect(receiver.calls[0]?.body).toBe(body);
        expect(receiver.calls[0]?.headers).toMatchObject({
          'content-type': 'application/json',
          'x-event-id': 'evt_1',
          host: `localhost:${receiver.port}`,
        });
      } finally {
        await receiver.close();
      }
    },
  );

  it('When the receiver redirects, then the redirect is not followed and the attempt fails with the status alone', async () => {
    const receiver = await startReceiver([302, 200]);
    try {
      expect(await postToWebhookUrl(receiver.url, body, headers, development)).toEqual({
        status: 302,
        failure: 'HTTP 302',
        detail: 'HTTP 302',
      });
      expect(receiver.calls).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('When nothing listens on the port, then the failure is "could not connect" and only the detail names the cause', async () => {
    const receiver = await startReceiver([200]);
    await receiver.close();
    const result = await postToWebhookUrl(receiver.url, body, headers, development);
    expect(result).toEqual({ status: null, failure: 'could not connect', detail: expect.stringContaining('ECONNREFUSED') });
  });

  it('When the receiver does not answer in time, then the failure is "timed out"', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const result = await postToWebhookUrl(`http://127.0.0.1:${port}/hooks`, body, headers, { allowPrivate: true, timeoutMs: 200 });
      expect(result).toEqual({ status: null, failure: 'timed out', detail: expect.any(String) });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it.each(['ftp://example.com/hooks', 'not a url'])('When the webhook_url is %s, then it is not an address we post to', async (url) => {
    expect((await postToWebhookUrl(url, body, headers, development)).failure).toBe('address not allowed');
  });
});
