import { z } from 'zod';
import type { Db } from '../db/knex.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';

export type Carrier = { id: number; name: string; trackingUrl: string };

export const CARRIER_MESSAGES = {
  unknown: (names: string[]) => `Choose a carrier: ${names.join(', ')}`,
  trackingNumber: 'A tracking number is required to ship an order.',
  saved: 'Carrier saved',
  deleted: 'Carrier removed',
  notFound: 'Carrier not found',
  name: 'Carrier name must be 1 to 100 characters',
  nameTaken: 'Another carrier has this name',
  trackingUrl: 'The tracking URL must start with http:// or https:// and contain {tracking}',
} as const;

export async function listCarriers(db: Db): Promise<Carrier[]> {
  const rows: { id: number; name: string; tracking_url: string }[] = await db('carriers')
    .orderBy('name')
    .select('id', 'name', 'tracking_url');
  return rows.map((r) => ({ id: r.id, name: r.name, trackingUrl: r.tracking_url }));
}

/** The carrier (by name, any case) and its tracking page for the number; 400 naming the choices. */
export async function trackingFor(
  db: Db,
  carrierName: string,
  trackingNumber: string,
): Promise<{ carrier: string; trackingUrl: string }> {
  const carriers = await listCarriers(db);
  const carrier = carriers.find((c) => c.name.toLowerCase() === carrierName.trim().toLowerCase());
  if (!carrier) throw new Invalid(CARRIER_MESSAGES.unknown(carriers.map((c) => c.name)));
  return {
    carrier: carrier.name,
    trackingUrl: carrier.trackingUrl.replace('{tracking}', encodeURIComponent(trackingNumber.trim())),
  };
}

export const carrierSchema = z.object({
  name: z.string().trim().min(1, CARRIER_MESSAGES.name).max(100, CARRIER_MESSAGES.name),
  trackingUrl: z
    .string()
    .trim()
    .max(500, CARRIER_MESSAGES.trackingUrl)
    .regex(/^https?:\/\/\S+$/, CARRIER_MESSAGES.trackingUrl)
    .refine((url) => url.includes('{tracking}'), CARRIER_MESSAGES.trackingUrl),
});

export async function saveCarrier(
  db: Db,
  id: number | null,
  input: z.output<typeof carrierSchema>,
): Promise<void> {
  const row = { name: input.name, tracking_url: input.trackingUrl };
  try {
    if (id === null) {
      await db('carriers').insert(row);
      return;
    }
    if ((await db('carriers').where({ id }).update(row)) === 0) throw new NotFound(CARRIER_MESSAGES.notFound);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new Invalid(CARRIER_MESSAGES.nameTaken);
    throw error;
  }
}

export async function deleteCarrier(db: Db, id: number): Promise<void> {
  if ((await db('carriers').where({ id }).delete()) === 0) throw new NotFound(CARRIER_MESSAGES.notFound);
}
