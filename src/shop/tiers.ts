import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { Conflict, NotFound } from '../kernel/errors.ts';
import { MAX_ACTIVE_TIERS, TIER_MESSAGES, type TierInput } from './tier-schema.ts';

/** A membership tier: what a reader pays each month or year, in the shop's cents. */
export type Tier = {
  id: number;
  name: string;
  description: string;
  monthlyPrice: number;
  yearlyPrice: number;
  active: boolean;
};

export type TierRow = {
  id: number;
  name: string;
  description: string;
  monthly_price: number;
  yearly_price: number;
  active: boolean;
};

export function presentTier(row: TierRow): Tier {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    monthlyPrice: row.monthly_price,
    yearlyPrice: row.yearly_price,
    active: row.active,
  };
}

const columns = (input: TierInput) => ({
  name: input.name,
  description: input.description,
  monthly_price: input.monthlyPrice,
  yearly_price: input.yearlyPrice,
  active: input.active,
});

/** The price of a tier for a billing interval. */
export function tierPrice(
  tier: Pick<Tier, 'monthlyPrice' | 'yearlyPrice'>,
  interval: 'month' | 'year',
): number {
  return interval === 'month' ? tier.monthlyPrice : tier.yearlyPrice;
}

/** Every tier (the admin's list), active first. */
export async function listTiers(db: Db, opts: { activeOnly?: boolean } = {}): Promise<Tier[]> {
  const query = db('tiers').orderBy([{ column: 'active', order: 'desc' }, 'monthly_price', 'id']);
  if (opts.activeOnly) query.where({ active: true });
  return ((await query) as TierRow[]).map(presentTier);
}

export async function getTier(db: Db | Knex.Transaction, id: number): Promise<Tier | null> {
  const row = (await db('tiers').where({ id }).first()) as TierRow | undefined;
  return row ? presentTier(row) : null;
}

/**
 * The number of active tiers is checked under a lock on the table's writers, so two admins adding
 * the fifth and sixth at once cannot both pass.
 */
async function assertRoom(trx: Knex.Transaction, exceptId: number | null): Promise<void> {
  await trx.raw('LOCK TABLE tiers IN SHARE ROW EXCLUSIVE MODE');
  const query = trx('tiers').where({ active: true }).count({ n: '*' });
  if (exceptId !== null) query.whereNot({ id: exceptId });
  const row = (await query.first()) as { n: string } | undefined;
  if (Number(row?.n ?? 0) >= MAX_ACTIVE_TIERS) throw new Conflict(TIER_MESSAGES.tooMany);
}

export async function createTier(db: Db, input: TierInput): Promise<Tier> {
  return db.transaction(async (trx) => {
    if (input.active) await assertRoom(trx, null);
    const [row] = await trx('tiers').insert(columns(input)).returning('*');
    return presentTier(row);
  });
}

export async function updateTier(db: Db, id: number, input: TierInput): Promise<Tier> {
  return db.transaction(async (trx) => {
    if (input.active) await assertRoom(trx, id);
    const [row] = await trx('tiers')
      .where({ id })
      .update({ ...columns(input), updated_at: trx.fn.now() })
      .returning('*');
    if (!row) throw new NotFound(TIER_MESSAGES.notFound);
    return presentTier(row);
  });
}

/** Deletes a tier nobody belongs to; one with members (or history) is archived instead. */
export async function deleteTier(db: Db, id: number): Promise<void> {
  try {
    const deleted = await db('tiers').where({ id }).delete();
    if (!deleted) throw new NotFound(TIER_MESSAGES.notFound);
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw new Conflict(TIER_MESSAGES.inUse);
    throw error;
  }
}
