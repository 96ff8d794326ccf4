import type { z } from 'zod';
import { Invalid } from './errors.ts';

/** Parses with a zod schema; the first problem is refused as Invalid, with its message. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Invalid(parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data;
}
