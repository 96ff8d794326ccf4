import type Stripe from 'stripe';
import type { Db } from '../db/knex.ts';
import { freeUsername } from '../identity/admin.ts';
import { type MembershipChange, membershipOf, setMembership } from '../identity/membership.ts';
import { changeFor } from '../members/subscriptions.ts';
import { listTiers, type Tier, tierPrice } from '../shop/tiers.ts';
import type { CsvRow } from './member-list.ts';

/** What a member list's import may reach: Stripe (to link paying members), and whether it is a dry run. */
export type MemberLinking = { stripe?: Stripe; currency: string; dryRun: boolean };

export type MemberImport = {
  /** Accounts made (no password: the reader signs in by resetting it, a code mailed to the address). */
  created: number;
  /** Addresses that had an account here already. */
  existing: number;
  comped: number;
  /** Paying members linked to their Stripe customer and subscription. */
  linked: number;
  /** Comped or paying members left free here, each with its report line. */
  notPlaced: number;
};

const yes = (value: string | undefined) => value?.toLowerCase() === 'true';

/**
 * The reader's account: the one with this address, or a new one without a password (the reader
 * signs in by resetting it, with a code mailed to the address).
 */
export async function memberAccount(
  db: Db,
  reader: { email: string; first_name: string | null; last_name: string | null; created_at?: string },
): Promise<{ id: number; created: boolean; admin: boolean }> {
  const find = () => db('users').whereRaw('lower(email) = lower(?)', [reader.email]).first('id', 'role');
  const found = await find();
  if (found) return { id: found.id, created: false, admin: found.role === 'admin' };
  // The address was confirmed on the old site; a parallel import of the same address makes one account.
  const made = await db('users')
    .insert({
      ...reader,
      username: await freeUsername(db, reader.email.split('@')[0]),
      email_verified: true,
    })
    .onConflict()
    .ignore()
    .returning('id');
  if (made.length) return { id: made[0].id, created: true, admin: false };
  const raced = await find();
  return { id: raced.id, created: false, admin: raced.role === 'admin' };
}

/** The subscription a paying member holds on the old site's Stripe account, or why it cannot be linked. */
async function subscriptionOf(
  linking: MemberLinking,
  customer: string,
): Promise<Stripe.Subscription | string> {
  if (!linking.stripe) return 'no Stripe key is set here';
  if (!customer) return 'the list names no Stripe customer';
  try {
    const { data } = await linking.stripe.subscriptions.list({ customer, limit: 10 });
    return (
      data.find((s) => ['active', 'trialing', 'past_due'].includes(s.status)) ??
      `Stripe has no active subscription for ${customer}`
    );
  } catch (error) {
    return `Stripe could not read ${customer} (${(error as Error).message})`;
  }
}

/** The active tier whose price in the shop's currency is the subscription's. */
function tierOf(tiers: Tier[], subscription: Stripe.Subscription, currency: string): Tier | undefined {
  const price = subscription.items.data[0]?.price;
  const interval = price?.recurring?.interval === 'year' ? 'year' : 'month';
  return tiers.find(
    (tier) => price?.currency === currency && price.unit_amount === tierPrice(tier, interval),
  );
}

/**
 * Gives a free member a membership; false when they hold one already. The account's row is locked
 * first: imports of the same list at once place each member once.
 */
async function placeFree(db: Db, userId: number, change: MembershipChange): Promise<boolean> {
  return db.transaction(async (trx) => {
    await trx('users').where({ id: userId }).forUpdate().first('id');
    if ((await membershipOf(trx, userId)).status !== 'free') return false;
    return setMembership(trx, userId, change, { type: 'imported' });
  });
}

/**
 * Everyone on a member list (opted out of emails or not) becomes a member: an account, free;
 * complimentary on the old site → comped on the only active tier; paying → linked to the Stripe
 * subscription they pay, which is never charged or changed but for its metadata (the member and
 * tier our webhooks check). A member who is comped or paid here already is left as they are.
 */
export async function importMembers(
  db: Db,
  list: CsvRow[],
  linking: MemberLinking,
): Promise<{ members: MemberImport; warnings: string[] }> {
  const members: MemberImport = { created: 0, existing: 0, comped: 0, linked: 0, notPlaced: 0 };
  const warnings: string[] = [];
  const tiers = await listTiers(db, { activeOnly: true });
  const notPlaced = (email: string, why: string) => {
    members.notPlaced++;
    warnings.push(`member ${email.slice(0, 100)}: ${why}; a free member here`);
  };
  for (const { row } of list) {
    const [first = '', ...rest] = (row.name ?? '').split(/\s+/).filter(Boolean);
    const account = await memberAccount(db, {
      email: row.email,
      first_name: first.slice(0, 100) || null,
      last_name: rest.join(' ').slice(0, 100) || null,
    });
    members[account.created ? 'created' : 'existing']++;
    if (account.admin || (await membershipOf(db, account.id)).status !== 'free') continue;
    const customer = row.stripe_customer_id ?? '';
    if (customer || yes(row.active_subscription)) {
      const subscription = await subscriptionOf(linking, customer);
      if (typeof subscription === 'string') {
        notPlaced(row.email, `paying on the old site, not linked: ${subscription}`);
        continue;
      }
      const tier = tierOf(tiers, subscription, linking.currency);
      if (!tier) {
        notPlaced(row.email, `paying on the old site, not linked: its price is no active tier's`);
        continue;
      }
      const holder = await db('memberships')
        .where({ stripe_customer_id: customer })
        .orWhere({ stripe_subscription_id: subscription.id })
        .first('user_id');
      if (holder && holder.user_id !== account.id) {
        notPlaced(row.email, `paying on the old site, not linked: ${customer} is another member's`);
        continue;
      }
      try {
        if (!linking.dryRun)
          await linking.stripe?.subscriptions.update(subscription.id, {
            metadata: { userId: String(account.id), tierId: String(tier.id) },
          });
      } catch (error) {
        notPlaced(
          row.email,
          `paying on the old site, not linked: Stripe refused (${(error as Error).message})`,
        );
        continue;
      }
      if (
        await placeFree(db, account.id, {
          ...changeFor(subscription, tier, undefined),
          stripe_customer_id: customer,
        })
      )
        members.linked++;
    } else if (yes(row.complimentary_plan)) {
      if (tiers.length !== 1) {
        notPlaced(
          row.email,
          `complimentary on the old site, not placed: this site has ${tiers.length} active tiers`,
        );
        continue;
      }
      const comp: MembershipChange = {
        status: 'comped',
        tier_id: tiers[0].id,
        comped_until: null,
        interval: null,
        current_period_end: null,
        cancel_at_period_end: false,
        past_due_since: null,
      };
      if (await placeFree(db, account.id, comp)) members.comped++;
    }
  }
  return { members, warnings };
}
