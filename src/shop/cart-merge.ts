import type { Knex } from 'knex';

/**
 * At sign-in the guest session's cart joins the user's cart: quantities add up, capped at the
 * product's (or variant's) stock (unlimited when stock is null), notices carry over, and the guest cart goes.
 */
export async function mergeGuestCart(
  trx: Knex.Transaction,
  guestSessionId: string,
  userId: number,
): Promise<void> {
  const guest = await trx('carts').where({ session_id: guestSessionId }).forUpdate().first('id', 'notices');
  if (!guest) return;
  const [userCart] = await trx('carts')
    .insert({ user_id: userId })
    .onConflict('user_id')
    .merge({ updated_at: trx.fn.now() })
    .returning(['id']);
  await trx.raw(
    `INSERT INTO cart_items (cart_id, product_id, variant_id, quantity)
     SELECT ?, gi.product_id, gi.variant_id, gi.quantity FROM cart_items gi WHERE gi.cart_id = ?
     ON CONFLICT (cart_id, product_id, (coalesce(variant_id, 0))) DO UPDATE
       SET quantity = GREATEST(1, LEAST(cart_items.quantity + EXCLUDED.quantity,
             COALESCE((SELECT s.stock FROM stock_levels s WHERE s.product_id = EXCLUDED.product_id
                        AND s.variant_id = coalesce(EXCLUDED.variant_id, 0)), 2147483647))),
           updated_at = now()`,
    [userCart.id, guest.id],
  );
  await trx.raw(`UPDATE carts SET notices = notices || ?::jsonb WHERE id = ?`, [
    JSON.stringify(guest.notices ?? []),
    userCart.id,
  ]);
  await trx('carts').where({ id: guest.id }).delete();
}
