import type { Knex } from 'knex';
import { prepared } from '../db/knex.ts';
import { Conflict } from '../kernel/errors.ts';
import { noLongerAvailable, SHOP_MESSAGES, stockLimitMessage } from './messages.ts';

/**
 * products.stock is the shop's: orders take units when placed and give them back when they end,
 * through these functions. A line's product is null once the product was deleted.
 */
export type StockLine = { productId: number | null; quantity: number };

/**
 * A product with unlimited stock, as the order read it, held against an edit until the commit
 * (FOR SHARE: an admin's change waits for the order, or the order sees the change), with no
 * decrement: orders of it do not queue for its row. Null when it is limited now (or gone), so
 * reserveStock decides.
 */
export async function holdUnlimited(
  trx: Knex.Transaction,
  productId: number,
): Promise<{ name: string; price: number } | null> {
  const { rows } = await prepared(
    trx.raw(
      `SELECT name, price FROM products WHERE id = ? AND status = 'active' AND stock IS NULL FOR SHARE`,
      [productId],
    ),
  );
  return rows[0] ?? null;
}

/** The line's units taken from stock by a conditional decrement under the product row's lock, or Conflict. */
export async function reserveStock(
  trx: Knex.Transaction,
  item: StockLine,
): Promise<{ name: string; price: number }> {
  const reserved: { name: string; price: number }[] = await prepared(
    trx('products')
      .where({ id: item.productId, status: 'active' })
      .where((w) => w.whereNull('stock').orWhere('stock', '>=', item.quantity))
      .update({
        stock: trx.raw('CASE WHEN stock IS NULL THEN NULL ELSE stock - ? END', [item.quantity]),
        updated_at: trx.fn.now(),
      })
      .returning(['name', 'price']),
  );
  if (reserved.length === 0)
    refuseLine(await trx('products').where({ id: item.productId }).first('name', 'stock', 'status'));
  return reserved[0];
}

/** The Conflict of a line that cannot be reserved: the product gone, inactive, or short of stock. */
export function refuseLine(
  product: { name: string; stock: number | null; status: string } | undefined,
): never {
  if (product?.status !== 'active') {
    throw new Conflict(product ? noLongerAvailable(product.name) : SHOP_MESSAGES.productNotFound);
  }
  throw new Conflict(stockLimitMessage(product.stock ?? 0), SHOP_MESSAGES.stockLimitTitle);
}

/** Gives the order's reserved units back (unlimited stock stays unlimited). */
export async function releaseStock(trx: Knex.Transaction, lines: StockLine[]): Promise<void> {
  for (const line of lines) {
    if (line.productId === null) continue;
    await trx('products')
      .where({ id: line.productId })
      .whereNotNull('stock')
      .update({ stock: trx.raw('stock + ?', [line.quantity]), updated_at: trx.fn.now() });
  }
}

/**
 * Takes an expired order's units from stock again, all or none (a savepoint undoes a partial
 * reservation). Products with unlimited stock always succeed; a deleted or inactive one never does.
 */
export async function reserveStockAgain(trx: Knex.Transaction, lines: StockLine[]): Promise<boolean> {
  try {
    await trx.transaction(async (sp) => {
      for (const line of lines) {
        if (line.productId === null) throw new StockGone();
        const taken = await sp('products')
          .where({ id: line.productId, status: 'active' })
          .where((w) => w.whereNull('stock').orWhere('stock', '>=', line.quantity))
          .update({
            stock: sp.raw('CASE WHEN stock IS NULL THEN NULL ELSE stock - ? END', [line.quantity]),
            updated_at: sp.fn.now(),
          });
        if (taken === 0) throw new StockGone();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof StockGone) return false;
    throw error;
  }
}

class StockGone extends Error {}
