import { expect, it } from 'vitest';
import { toPrefixTsQuery } from './search.ts';

it('turns typed words into prefix terms that must all match', () => {
  expect(toPrefixTsQuery('Postg ind')).toBe('postg:* & ind:*');
  expect(toPrefixTsQuery('  design-systems!! ')).toBe('design:* & systems:*');
  expect(toPrefixTsQuery('Café')).toBe('café:*');
});

it('drops tsquery syntax and SQL metacharacters instead of passing them on', () => {
  expect(toPrefixTsQuery("a' | b & !c <-> (d)")).toBe('a:* & b:* & c:* & d:*');
  expect(toPrefixTsQuery("'; DROP TABLE posts; --")).toBe('drop:* & table:* & posts:*');
  expect(toPrefixTsQuery('!!! ---')).toBeNull();
});
