import type { Knex } from 'knex';
import { z } from 'zod';
import type { Db } from '../db/knex.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { countryCodesSchema } from './countries.ts';
import { parseMoney } from './price.ts';
import { SHIPPING_MESSAGES, type ShippingMethod } from './shipping-rules.ts';

type Executor = Db | Knex.Transaction;

type Row = { id: number; name: string; price: number; free_over: number | null; countries: string[] | null };

/** The methods in the settings' order (`position` too, for a caller that aggregates them). */
export function shippingMethodsQuery(db: Executor) {
  return db('shipping_methods')
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('id', 'name', 'price', 'free_over', 'countries', 'position');
}

export function toShippingMethod(r: Row): ShippingMethod {
  return { id: r.id, name: r.name, price: r.price, freeOver: r.free_over, countries: r.countries };
}

export async function listShippingMethods(db: Executor): Promise<ShippingMethod[]> {
  const rows: Row[] = await shippingMethodsQuery(db);
  return rows.map(toShippingMethod);
}

/** An amount typed in the shop's currency ("4.50"), stored as cents. */
const cents = (message: string) =>
  z.string().transform((text, ctx) => {
    const parsed = parseMoney(text);
    if (parsed === null) ctx.addIssue({ code: 'custom', message });
    return parsed ?? z.NEVER;
  });

/** The settings form of one method: amounts in the shop's currency, countries chosen from the ISO list (none: everywhere). */
export const shippingMethodSchema = z.object({
  name: z.string().trim().min(1, SHIPPING_MESSAGES.name).max(100, SHIPPING_MESSAGES.name),
  price: cents(SHIPPING_MESSAGES.price),
  freeOver: z.union([z.literal('').transform(() => null), cents(SHIPPING_MESSAGES.freeOver)]),
  countries: countryCodesSchema(SHIPPING_MESSAGES.countries),
});

/** Adds a method (no id) or changes one; 404 for an unknown id, 400 for a name in use. */
export async function saveShippingMethod(
  db: Db,
  id: number | null,
  input: z.output<typeof shippingMethodSchema>,
): Promise<void> {
  const row = { name: input.name, price: input.price, free_over: input.freeOver, countries: input.countries };
  try {
    if (id === null) {
      await db('shipping_methods').insert({
        ...row,
        position: db.raw('(SELECT coalesce(max(position), -1) + 1 FROM shipping_methods)'),
      });
      return;
    }
    const updated = await db('shipping_methods').where({ id }).update(row);
    if (updated === 0) throw new NotFound(SHIPPING_MESSAGES.notFound);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new Invalid(SHIPPING_MESSAGES.nameTaken);
    throw error;
  }
}

export async function deleteShippingMethod(db: Db, id: number): Promise<void> {
  if ((await db('shipping_methods').where({ id }).delete()) === 0)
    throw new NotFound(SHIPPING_MESSAGES.notFound);
}
