import type { Db } from '../db/knex.ts';
import { changeOrder } from './changes.ts';
import { decide } from './domain.ts';
import { ownedOrderRows } from './lists.ts';
import { redactCustomerData } from './store.ts';

/**
 * Erases the customer from every order of the account (CustomerDataErased, the earlier events
 * redacted alike); the orders stay, with their lines and amounts, for the shop's records.
 */
export async function eraseAccountOrders(db: Db, userId: number): Promise<number> {
  const rows = await ownedOrderRows(db, { userId, sessionId: null });
  for (const row of rows)
    await changeOrder(
      db,
      row.id,
      async (trx, state) => {
        const events = decide(state, { type: 'EraseCustomerData' });
        if (events.length) await redactCustomerData(trx, row.id);
        return events;
      },
      { by: 'account-deletion' },
    );
  return rows.length;
}
