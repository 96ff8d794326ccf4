import { describe, expect, it } from 'vitest';
import { detectImageType } from './image-type.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('detectImageType', () => {
  it('recognises JPEG, PNG, GIF and WebP by their magic bytes', () => {
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0))?.ext).toBe('jpg');
    expect(detectImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))?.ext).toBe('png');
    expect(detectImageType(new TextEncoder().encode('GIF89a'))?.ext).toBe('gif');
    expect(detectImageType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))?.ext).toBe('webp');
  });

  it('refuses anything else, including HTML and truncated headers', () => {
    expect(detectImageType(new TextEncoder().encode('<!doctype html>'))).toBeNull();
    expect(detectImageType(new TextEncoder().encode('RIFF\0\0\0\0WAVE'))).toBeNull();
    expect(detectImageType(bytes(0x89, 0x50))).toBeNull();
    expect(detectImageType(bytes())).toBeNull();
  });
});
