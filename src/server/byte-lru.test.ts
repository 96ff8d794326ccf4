import { describe, expect, it } from 'vitest';
import { ByteLru } from './byte-lru.ts';

describe('ByteLru', () => {
  const lru = () => new ByteLru<string>(10, (value) => value.length);

  it('drops the least recently used entries once the total is over the bound', () => {
    const cache = lru();
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa'); // a is now the most recently used
    cache.set('c', 'cccc');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaa');
    expect(cache.get('c')).toBe('cccc');
    expect(cache.size).toBe(2);
  });

  it('counts a replaced or deleted entry out of the total', () => {
    const cache = lru();
    cache.set('a', 'aaaaaaaa');
    cache.set('a', 'aa');
    cache.set('b', 'bbbbbbbb');
    expect(cache.size).toBe(2);
    cache.delete('b');
    cache.set('c', 'cccccccc');
    expect([cache.get('a'), cache.get('c')]).toEqual(['aa', 'cccccccc']);
    cache.clear();
    expect(cache.size).toBe(0);
    cache.set('d', 'dddddddddd');
    expect(cache.get('d')).toBe('dddddddddd');
  });
});
