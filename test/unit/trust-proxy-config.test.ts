import { ConfigError, parseEnvironment } from '../../src/config';

/** TRUST_PROXY: which proxies express may believe about the client's address (its `trust proxy`). */
describe('TRUST_PROXY', () => {
  it('When it is absent, empty or off, then no proxy is trusted', () => {
    for (const value of [undefined, '', 'off', 'false', '0']) expect(parseEnvironment({ TRUST_PROXY: value }).TRUST_PROXY).toBe(false);
  });

  it.each([
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1,loopback', ['10.0.0.0/8', '192.168.1.1', 'loopback']],
    ['::1,fd00::/8,uniquelocal,linklocal', ['::1', 'fd00::/8', 'uniquelocal', 'linklocal']],
  ])('When it is %s, then express is given %j', (value, expected) => {
    expect(parseEnvironment({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each(['true', 'yes', '10.0.0.0/33', '::1/129', '10.0.0.1/', 'proxy.example', '1.2.3', '99', '10.0.0.1,,10.0.0.2', '-1'])(
    'When it is %s, then it fails with one line naming TRUST_PROXY',
    (value) => {
      expect(() => parseEnvironment({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => parseEnvironment({ TRUST_PROXY: value })).toThrow(/^Invalid environment variable TRUST_PROXY: must be off, a hop count/);
    },
  );
});
