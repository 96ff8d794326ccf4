import { describe, expect, it } from 'vitest';
import { addressNetwork } from './network.ts';

describe('addressNetwork', () => {
  it('names the /24 of an IPv4 address, mapped or not', () => {
    expect(addressNetwork('203.0.113.57')).toBe('203.0.113.0/24');
    expect(addressNetwork('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
  });
  it('names the /48 of an IPv6 address, however it is shortened', () => {
    expect(addressNetwork('2001:db8:1234:5678::1')).toBe('2001:db8:1234::/48');
    expect(addressNetwork('2001:0DB8::1')).toBe('2001:db8:0::/48');
    expect(addressNetwork('::1')).toBe('0:0:0::/48');
  });
  it('gives nothing for what is not an address', () => {
    expect(addressNetwork('')).toBeNull();
    expect(addressNetwork('unknown')).toBeNull();
  });
});
