import { isIP } from 'node:net';
import { isPublicAddress } from './publicAddress';

/** Hosts that only this machine or its private network can reach. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host)) return !isPublicAddress(host);
  return host === 'localhost' || /\.(localhost|local|internal|lan|home\.arpa)$/.test(host) || !host.includes('.');
}
