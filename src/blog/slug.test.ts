import { expect, it } from 'vitest';
import { slugify } from './slug.ts';

it.each([
  ['Hello, World!', 'hello-world'],
  ['  --Design   Systems 101--  ', 'design-systems-101'],
  ['Café au lait', 'cafe-au-lait'],
  ['!!!', ''],
])('slugify(%j) is %j', (input, expected) => {
  expect(slugify(input)).toBe(expected);
});
