import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressPart, splicedGzip } from './spliced-gzip.ts';

describe('splicedGzip', () => {
  it('is the gzip of the parts with the values between them, whatever their sizes', () => {
    const parts = ['<html><script nonce="', '">x</script>'.repeat(300), '<p>', '</p>'.repeat(20_000), ''].map(
      (s) => Buffer.from(s),
    );
    // Empty, short, and longer than one stored block (65,535 bytes) holds.
    const values = ['', 'ada+blog@example.com', 'é'.repeat(40_000), 'nonce/+=='].map((s) => Buffer.from(s));
    const gz = splicedGzip(parts, parts.map(compressPart), values);
    const expected = Buffer.concat(
      parts.flatMap((part, i) => (i < values.length ? [part, values[i]] : [part])),
    );
    expect(gunzipSync(gz).equals(expected)).toBe(true);
    // The fixed parts stay compressed.
    expect(gz.length).toBeLessThan(expected.length / 2);
  });
});
