import { isPublicAddress } from '../../src/net/publicAddress';

describe('which addresses a webhook_url may reach', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254', // cloud metadata
    '169.254.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1', // IPv4-mapped, judged by the IPv4 inside
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:10.1.2.3',
    '64:ff9b::127.0.0.1', // NAT64, judged by the IPv4 inside
    '64:ff9b::a9fe:a9fe', // 169.254.169.254
    '64:ff9b::c0a8:101', // 192.168.1.1
    '0:0:0:0:0:ffff:0a00:0001',
  ])('When the address is %s, then it is refused', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '169.253.0.1',
    '2a00:1450:4001:82b::200e',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('When the address is %s, then it is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['localhost', 'example.com', '', '[::1]', '127.0.0.1:80'])(
    'When "%s" is not an IP address at all, then it is not allowed either',
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});
