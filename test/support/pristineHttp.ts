import http from 'node:http';
import https from 'node:https';

/**
 * Each test file loads its own nock, which wraps the worker's shared http and https modules once
 * more and unwraps them in its afterAll. A file whose tests are all skipped (no PHP, Chromium, MySQL
 * or Redis on this machine) runs no afterAll: its wrapper stayed and swallowed the intercepted calls
 * of the next files in that worker, which failed as network errors. So every file starts from the
 * functions the worker had before any nock wrapped them.
 */
interface PristineHttp {
  httpRequest: typeof http.request;
  httpGet: typeof http.get;
  clientRequest: typeof http.ClientRequest;
  httpsRequest: typeof https.request;
  httpsGet: typeof https.get;
}

// Kept on the module object itself: core modules are shared by the worker's test files, their globals are not.
const PRISTINE = Symbol.for('recurring-payments.tests.pristine-http');
const holder = http as unknown as { [PRISTINE]?: PristineHttp };
const pristine = (holder[PRISTINE] ??= {
  httpRequest: http.request,
  httpGet: http.get,
  clientRequest: http.ClientRequest,
  httpsRequest: https.request,
  httpsGet: https.get,
});
Object.assign(http, { request: pristine.httpRequest, get: pristine.httpGet, ClientRequest: pristine.clientRequest });
Object.assign(https, { request: pristine.httpsRequest, get: pristine.httpsGet });
