// When to try a webhook again, and where it may go. Pure rules.
import { BlockList, isIP } from 'node:net';

/** Waits after the 1st, 2nd, … failed attempt; the last repeats until the event is 3 days old. */
const BACKOFF_SECONDS = [10, 30, 120, 600, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600];
export const GIVE_UP_AFTER_SECONDS = 3 * 24 * 3600;

export function nextAttemptAt(failedAttempts: number, now: Date): Date {
  const wait = BACKOFF_SECONDS[Math.min(failedAttempts, BACKOFF_SECONDS.length) - 1] ?? BACKOFF_SECONDS[0];
  return new Date(now.getTime() + wait * 1000);
}

export function shouldGiveUp(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() >= GIVE_UP_AFTER_SECONDS * 1000;
}

/** WEBHOOK_PRIVATE_ADDRESSES: may a delivery of this environment go to a private address? */
export function allowsPrivateAddress(policy: 'test' | 'all' | 'none', environment: 'test' | 'live'): boolean {
  return policy === 'all' || (policy === 'test' && environment === 'test');
}

const privateRanges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv6');
}

/** Loopback, private, link-local and other addresses that are not the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return privateRanges.check(mapped[1], 'ipv4');
    return privateRanges.check(address, 'ipv6');
  }
  return privateRanges.check(address, 'ipv4');
}
