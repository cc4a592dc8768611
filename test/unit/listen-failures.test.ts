import { listenFailure } from '../../src/http/listen';

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

/**
 * Why a port could not be taken, as the one line `Could not start: …` says it. EADDRINUSE and
 * EADDRNOTAVAIL are also tried through the process (test/production/start-up.test.ts); a privileged
 * port cannot be refused to a test running as root, nor a name be left unresolved without DNS.
 */
describe('listenFailure', () => {
  it.each([
    ['EADDRINUSE', 3000, undefined, 'port 3000 is already in use (set PORT to another port)'],
    ['EADDRINUSE', 3000, '127.0.0.1', '127.0.0.1:3000 is already in use (set PORT to another port)'],
    ['EACCES', 80, undefined, 'no permission to listen on port 80 (ports below 1024 need privileges; set PORT to another port)'],
    ['EADDRNOTAVAIL', 3000, '10.9.8.7', 'HOST 10.9.8.7 is not an address of this machine (leave HOST unset to listen on every interface)'],
    ['ENOTFOUND', 3000, 'app.internal', 'HOST app.internal could not be resolved to an address of this machine'],
    ['EAI_AGAIN', 3000, 'app.internal', 'HOST app.internal could not be resolved to an address of this machine'],
    ['EMFILE', 3000, undefined, 'cannot listen on port 3000: listen EMFILE'],
  ])('When listening fails with %s (port %p, HOST %p), then the line is %p', (code, port, host, line) => {
    expect(listenFailure(failure(code), port, host).message).toBe(line);
  });
});
