import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POST_ALLOW } from '../config/schema.ts';
import { checkPostAllow, compileAllowList } from './post-allow.ts';

function req(remoteAddress: string, xff?: string): IncomingMessage {
  return { socket: { remoteAddress }, headers: xff ? { 'x-forwarded-for': xff } : {} } as unknown as IncomingMessage;
}

describe('net.post_allow.host', () => {
  const allowed = compileAllowList(DEFAULT_POST_ALLOW);
  it('allows loopback and the private ranges by default', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.10', 'fd12:3456::1'])
      expect(allowed(a), a).toBe(true);
  });
  it('denies public addresses and near misses', () => {
    for (const a of ['8.8.8.8', '172.32.0.1', '192.169.0.1', '127.0.0.1.evil', '2001:db8::1', '11.0.0.1']) expect(allowed(a), a).toBe(false);
  });
  it('normalises IPv4-mapped IPv6 peers', () => {
    expect(checkPostAllow(req('::ffff:127.0.0.1'), DEFAULT_POST_ALLOW).allowed).toBe(true);
  });
  it('requires every X-Forwarded-For address to pass and names the one that failed', () => {
    expect(checkPostAllow(req('127.0.0.1', '10.1.1.1, 192.168.0.2:443'), DEFAULT_POST_ALLOW).allowed).toBe(true);
    const d = checkPostAllow(req('127.0.0.1', '10.1.1.1, 203.0.113.7'), DEFAULT_POST_ALLOW);
    expect(d).toEqual({ allowed: false, denied: '203.0.113.7', viaForwardedFor: true });
  });
});
