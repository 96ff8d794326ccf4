import type { Knex } from 'knex';
import { type Db, prepared } from '../db/knex.ts';
import { Conflict } from '../kernel/errors.ts';
import { noLongerAvailable, SHOP_MESSAGES, stockLimitMessage } from './messages.ts';

/**
 * Stock is the shop's, kept in stock_levels: a row per product (variant 0) and per variant, with
 * no row or a null stock meaning unlimited. Nothing references that table, so a decrement locks
 * no row that cart or order lines hold KEY SHARE on. Orders take units when placed and give them
 * back when they end, through these functions. A line's product is null once it was deleted.
 */
export type StockLine = { productId: number | null; variantId?: number | null; quantity: number };

/** What an order line was priced by, as the product and its variant are at the statement's start. */
export type StockedLine = { name: string; price: number; variant: string | null };

type Executor = Db | Knex.Transaction;

/** The stock row's variant: 0 stands for the product itself. */
const variantKey = (variantId: number | null | undefined) => variantId ?? 0;

/** The line's name, price and label, read beside its stock row, for a statement on `stock_levels s`. */
const LINE_SQL = `FROM products p LEFT JOIN product_variants v ON v.id = NULLIF(:variantId, 0) AND v.product_id = p.id
  WHERE p.id = :productId AND p.status = 'active' AND (:variantId = 0 OR v.id IS NOT NULL)`;
const RETURNING_LINE = 'p.name, coalesce(v.price, p.price) AS price, v.label AS variant';

/** Sets a product's (or a variant's) stock; null is unlimited. */
export async function setStock(
  db: Executor,
  productId: number,
  stock: number | null,
  variantId: number | null = null,
): Promise<void> {
  await db('stock_levels')
    .insert({ product_id: productId, variant_id: variantKey(variantId), stock })
    .onConflict(['product_id', 'variant_id'])
    .merge(['stock']);
}

/** The stock of a product (or a variant): null when unlimited. */
export async function stockOf(db: Executor, productId: number, variantId: number | null = null) {
  const row = await db('stock_levels')
    .where({ product_id: productId, variant_id: variantKey(variantId) })
    .first('stock');
  return (row?.stock as number | null | undefined) ?? null;
}

/** Removes the stock rows of variants a product no longer has (nothing cascades to them). */
export async function dropVariantStock(
  trx: Knex.Transaction,
  productId: number,
  keep: number[],
): Promise<void> {
  await trx('stock_levels')
    .where({ product_id: productId })
    .whereNot('variant_id', 0)
    .whereNotIn('variant_id', keep)
    .delete();
}

/** A product's (or variant's) stock as a column of a query on products `p` (null: unlimited). */
export const STOCK_COLUMN_SQL =
  '(SELECT s.stock FROM stock_levels s WHERE s.product_id = p.id AND s.variant_id = 0)';

type LineBindings = { productId: number | null; variantId: number; quantity: number };

/** A limited stock row's units taken by one conditional decrement; null when it is short or unlimited. */
async function takeLimited(trx: Knex.Transaction, bindings: LineBindings): Promise<StockedLine | null> {
  const { rows } = await prepared(
    trx.raw(
      `UPDATE stock_levels s SET stock = s.stock - :quantity ${LINE_SQL}
         AND s.product_id = p.id AND s.variant_id = :variantId AND s.stock >= :quantity
       RETURNING ${RETURNING_LINE}`,
      bindings,
    ),
  );
  return rows[0] ?? null;
}

/** The line as it is now when its stock is unlimited (no row, or a null one); null otherwise. */
async function checkUnlimited(trx: Knex.Transaction, bindings: LineBindings): Promise<StockedLine | null> {
  const { rows } = await prepared(
    trx.raw(
      `SELECT ${RETURNING_LINE} ${LINE_SQL}
         AND NOT EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = p.id AND s.variant_id = :variantId AND s.stock IS NOT NULL)`,
      bindings,
    ),
  );
  return rows[0] ?? null;
}

/**
 * The line's units taken from a limited stock row by one conditional decrement, or, when its stock
 * is no longer limited, the line checked as it is now. Either way the answer is the line's name,
 * price and variant as they are at this statement, which the order compares with what it priced;
 * a line that cannot be had is a Conflict.
 */
export async function reserveStock(trx: Knex.Transaction, item: StockLine): Promise<StockedLine> {
  const bindings = {
    productId: item.productId,
    variantId: variantKey(item.variantId),
    quantity: item.quantity,
  };
  for (const attempt of [takeLimited, checkUnlimited]) {
    const line = await attempt(trx, bindings);
    if (line) return line;
  }
  return refuseLine(await lineNow(trx, item));
}

/** A product's price or name changed after the order read it: the order is placed again. */
export class ProductChanged extends Conflict {
  constructor() {
    super('A product in your cart changed while the order was placed. Please try again.');
  }
}

/** The order's last line was short when its commit was sent (or its stock is no longer limited). */
export class LastLineShort extends Error {
  readonly line: StockLine;
  constructor(line: StockLine) {
    super('The last line of the order could not be taken from its stock row.');
    this.line = line;
  }
}

/** What take_last_stock_line raises (migration 202611296001). */
export const LAST_LINE_SHORT = 'PS001';
const LAST_LINE_CHANGED = 'PS002';

/** A UTF-8 text as a bytea literal: only hex digits reach the statement's text. */
const hexLiteral = (text: string | null) =>
  text === null ? 'NULL' : `decode('${Buffer.from(text, 'utf8').toString('hex')}', 'hex')`;

function integerLiteral(value: number | null): string {
  if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
  return String(value);
}

/**
 * The message that takes the order's last line from its limited stock row and commits the order,
 * for the simple protocol (values as literals: only digits and hex reach its text). The call and
 * the COMMIT go as one message, so the row's lock is held for the decrement and the commit alone,
 * not also while the answer travels through a busy web process and the COMMIT comes back. That
 * commit does not wait for its WAL to reach the disk (synchronous_commit off for it alone): the
 * row's lock ends at once instead of after a flush, so the next order's decrement does not queue
 * behind each flush. The transaction begun after it takes an id, so its own commit (knex's, sent
 * next) writes a commit record and waits for the flush of the WAL up to it, which holds the
 * order's: nothing is answered before the order is on disk, as with a synchronous commit. Others
 * may see the order and the stock taken that long before: a crash then loses both together, and
 * whatever committed on top of them waits for the same flush (PostgreSQL's asynchronous commit).
 */
export function lastLineMessage(item: StockLine, priced: StockedLine): string {
  const call = [
    integerLiteral(item.productId),
    integerLiteral(variantKey(item.variantId)),
    integerLiteral(item.quantity),
    hexLiteral(priced.name),
    integerLiteral(priced.price),
    hexLiteral(priced.variant),
  ].join(', ');
  return `SELECT take_last_stock_line(${call}); SET LOCAL synchronous_commit = off; COMMIT; BEGIN; SELECT pg_current_xact_id()`;
}

/**
 * Takes the order's last line and commits the order (lastLineMessage); knex's own COMMIT then
 * ends the transaction begun after it. The function raises when the line cannot be taken as
 * priced, which skips the rest of the message and leaves the transaction for knex to roll back.
 * Only for a top-level transaction.
 */
export async function takeLastLineAndCommit(
  trx: Knex.Transaction,
  item: StockLine,
  priced: StockedLine,
): Promise<void> {
  try {
    await trx.raw(lastLineMessage(item, priced));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === LAST_LINE_SHORT) throw new LastLineShort(item);
    if (code === LAST_LINE_CHANGED) throw new ProductChanged();
    throw error;
  }
}

/** The Conflict of the order's last line, refused after every try found its stock row short. */
export async function refuseShortLine(db: Executor, item: StockLine): Promise<never> {
  return refuseLine(await lineNow(db, item));
}

/** A line's product as it is now: its name, status and the line's stock (undefined once it is gone). */
async function lineNow(trx: Executor, item: StockLine) {
  const { rows } = await trx.raw(
    `SELECT p.name, p.status, s.stock FROM products p
       LEFT JOIN stock_levels s ON s.product_id = p.id AND s.variant_id = :variantId
       LEFT JOIN product_variants v ON v.id = NULLIF(:variantId, 0) AND v.product_id = p.id
     WHERE p.id = :productId AND (:variantId = 0 OR v.id IS NOT NULL)`,
    { productId: item.productId, variantId: variantKey(item.variantId) },
  );
  return rows[0] as { name: string; stock: number | null; status: string } | undefined;
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
    await trx('stock_levels')
      .where({ product_id: line.productId, variant_id: variantKey(line.variantId) })
      .whereNotNull('stock')
      .update({ stock: trx.raw('stock + ?', [line.quantity]) });
  }
}

/**
 * Takes an expired order's units from stock again, all or none (a savepoint undoes a partial
 * reservation). Unlimited stock always succeeds; a deleted or inactive product never does.
 */
export async function reserveStockAgain(trx: Knex.Transaction, lines: StockLine[]): Promise<boolean> {
  try {
    await trx.transaction(async (sp) => {
      for (const line of lines) {
        if (line.productId === null) throw new StockGone();
        await reserveStock(sp, line).catch((error) => {
          throw error instanceof Conflict ? new StockGone() : error;
        });
      }
    });
    return true;
  } catch (error) {
    if (error instanceof StockGone) return false;
    throw error;
  }
}

class StockGone extends Error {}
