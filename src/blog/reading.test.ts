import { expect, it } from 'vitest';
import { authorName, formatDate, preview, readingMinutes } from './reading.ts';

it('estimates reading time at 200 words a minute, rounded up', () => {
  expect(readingMinutes('word '.repeat(200))).toBe(1);
  expect(readingMinutes('word '.repeat(201))).toBe(2);
  expect(readingMinutes('')).toBe(1);
});

it('formats dates in US English with the long month', () => {
  expect(formatDate('2026-11-22T10:00:00Z')).toBe('November 22, 2026');
});

it('cuts previews at 100 characters with an ellipsis', () => {
  expect(preview('a'.repeat(150))).toBe(`${'a'.repeat(100)}…`);
  expect(preview('short')).toBe('short');
});

it('names the author by full name, else username, else Anonymous', () => {
  expect(authorName({ firstName: 'Ada', lastName: 'Lovelace', username: 'ada' })).toBe('Ada Lovelace');
  expect(authorName({ firstName: 'Ada', lastName: null, username: 'ada' })).toBe('ada');
  expect(authorName(null)).toBe('Anonymous');
});
