import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls, { type SecureContext } from 'node:tls';

/**
 * The Mollie client gives its HTTPS agent its own bundle of root certificates (`ca`), and Node
 * builds a TLS context from `ca` for every new connection: parsing ~140 certificates, about 20 ms of
 * CPU per request to Mollie — most of the CPU when webhook calls or a billing run fetch payments. The
 * context depends only on the options below; built once per distinct `ca` it is the same context,
 * so connections with only `ca` set get a cached one. Anything else that shapes a context (client
 * certificates, ciphers, protocol bounds) leaves the connection to Node as before.
 */
const SHAPES_CONTEXT = [
  'cert',
  'key',
  'pfx',
  'passphrase',
  'ciphers',
  'ecdhCurve',
  'dhparam',
  'crl',
  'secureOptions',
  'secureProtocol',
  'minVersion',
  'maxVersion',
  'sigalgs',
  'honorCipherOrder',
  'privateKeyEngine',
  'privateKeyIdentifier',
  'clientCertEngine',
  'sessionIdContext',
  'ticketKeys',
];

const contexts = new Map<string, SecureContext>();
let installed = false;

type CreateConnection = (options: tls.ConnectionOptions, callback?: () => void) => Duplex;

export function cacheSecureContextsByCa(): void {
  if (installed) return;
  installed = true;
  const agentPrototype = https.Agent.prototype as unknown as { createConnection: CreateConnection };
  const createConnection = agentPrototype.createConnection;
  agentPrototype.createConnection = function (this: https.Agent, options: tls.ConnectionOptions, callback?: () => void) {
    const { ca } = options;
    const record = options as Record<string, unknown>;
    if (typeof ca === 'string' && options.secureContext === undefined && !SHAPES_CONTEXT.some((name) => record[name] !== undefined)) {
      let context = contexts.get(ca);
      if (!context) {
        context = tls.createSecureContext({ ca });
        contexts.set(ca, context);
      }
      return createConnection.call(this, { ...options, secureContext: context }, callback);
    }
    return createConnection.call(this, options, callback);
  };
}
