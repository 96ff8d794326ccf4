import { describe, expect, it } from 'vitest';
import { isMediaReference } from './media-reference.ts';

describe('isMediaReference', () => {
  it('accepts web addresses and the images the site serves itself', () => {
    for (const ok of [
      'https://example.com/a.png',
      'http://example.com/x?y=1',
      '/uploads/abc.webp',
      '/uploads/2026/abc-640.webp',
      '/demo/author.svg',
      '/demo/episode-1.wav',
    ])
      expect(isMediaReference(ok), ok).toBe(true);
  });

  it('refuses other schemes, other hosts without a scheme and paths out of the image folders', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '//evil.com/a.png',
      '/etc/passwd',
      '/uploads/../config.ts',
      '/demo/..',
      '/uploads/',
      'demo/author.svg',
      '/uploads/a b.png',
      'https://exa mple.com',
    ])
      expect(isMediaReference(bad), bad).toBe(false);
  });
});
