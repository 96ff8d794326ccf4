import type { Knex } from 'knex';
import { compiledOnce, type Db } from '../db/knex.ts';
import { guestSessionInsertWhen } from '../identity/guest-session-row.ts';
import { Conflict, Invalid, NotFound, type Refusal, Unprocessable } from '../kernel/errors.ts';
import type { RequestContext } from '../kernel/request.ts';
import { ANALYTICS_ON_SQL } from '../settings/settings.ts';
import { chooseOption, noLongerAvailable, SHOP_MESSAGES, stockLimitMessage } from './messages.ts';
import type { ProductCategory } from './product-enums.ts';
import { MAX_PER_LINE, maxQuantity, quantityMessage, readQuantity } from './quantity.ts';
import { stockOf } from './stock.ts';

/**
 * Counts an add-to-cart for the product's funnel (analytics_cart_adds, which analytics reports),
 * as a CTE of the add's own statement (`taken` names the CTE that returns a row when the line was
 * taken): no round trip or commit of its own. Binds `:day` (the UTC day, YYYY-MM-DD) and `:productId`.
 * In the slot of this connection's server process: concurrent adds of one product (a drop) update
 * different rows instead of waiting in turn for one row's lock and each holder's commit.
 */
function countCartAddSql(taken: string): string {
  return `INSERT INTO analytics_cart_adds (day, product_id, slot, adds)
       SELECT CAST(:day AS date), CAST(:productId AS int), pg_backend_pid() % 16, 1 FROM ${taken} WHERE ${ANALYTICS_ON_SQL}
       ON CONFLICT (day, product_id, slot) DO UPDATE SET adds = analytics_cart_adds.adds + 1`;
}

/** Whose cart: a signed-in user's, or a guest session's. */
export type CartOwner = { userId: number | null; sessionId: string | null };

export type CartLine = {
  id: number;
  productId: number;
  /** The variant chosen (null for a product without options) and its label, 'Size: M'. */
  variantId: number | null;
  variant: string | null;
  quantity: number;
  /** The product as this line sells it: the variant's price, stock and image where it has its own. */
  product: {
    image: string | null;
    name: string;
    category: ProductCategory;
    price: number;
    stock: number | null;
    /** Whether the product has downloadable files (and so needs no shipping). */
    digital: boolean;
  };
};

export type CartView = {
  cart: { items: CartLine[] };
  /** digitalOnly: every line is digital, so checkout asks for no address. */
  summary: { totalItems: number; totalPrice: number; digitalOnly: boolean };
  /** Lines dropped because their product was deactivated since they were added. */
  notices: string[];
};

type Executor = Db | Knex.Transaction;

function ownerWhere(owner: CartOwner): Record<string, unknown> | null {
  if (owner.userId) return { user_id: owner.userId };
  if (owner.sessionId) return { session_id: owner.sessionId };
  return null;
}

/** ownerWhere for a query that joins the owner's cart as `c`. */
function cartWhere(owner: CartOwner): Record<string, unknown> | null {
  const where = ownerWhere(owner);
  return where && Object.fromEntries(Object.entries(where).map(([k, v]) => [`c.${k}`, v]));
}

export async function findCartId(db: Executor, owner: CartOwner): Promise<number | null> {
  const where = ownerWhere(owner);
  if (!where) return null;
  const row = await db('carts').where(where).first('id');
  return row?.id ?? null;
}

/** The header badge's count: the quantities of a cart's lines still for sale (`owner` picks the cart `c`). */
const cartCountSql = (owner: string) =>
  `SELECT coalesce(sum(i.quantity), 0) FROM cart_items i JOIN carts c ON c.id = i.cart_id
   JOIN products p ON p.id = i.product_id WHERE ${owner} AND p.status = 'active'`;

/** Total quantity for the header badge: one indexed query, no cart created. */
export async function countCartItems(db: Db, owner: CartOwner): Promise<number> {
  const where = ownerWhere(owner);
  if (!where) return 0;
  const [[column, value]] = Object.entries(where) as [string, number | string][];
  const result = await db.raw(`SELECT (${cartCountSql(`c.${column} = ?`)}) AS total`, [value]);
  return Number(result.rows[0]?.total ?? 0);
}

/**
 * The same count as a column of a query on `sessions as s` (its user's cart when signed in, else
 * its own), so the session and the header's badge come in one round trip.
 */
export function sessionCartCountColumn(db: Db): Knex.Raw {
  return db.raw(
    `CASE WHEN s.user_id IS NOT NULL THEN (${cartCountSql('c.user_id = s.user_id')})
     ELSE (${cartCountSql('c.session_id = s.sid')}) END AS cart_count`,
  );
}

/**
 * What the cart and checkout pages show of the owner's cart, as one string: its lines (id, product,
 * quantity) with each product's stock and price. Null when showing the cart changes it (a notice to
 * show once, a line whose product is gone): such a page is rendered for that visit alone.
 */
export async function cartSignature(db: Db, owner: CartOwner): Promise<string | null> {
  const where = ownerWhere(owner);
  if (!where) return '';
  const [[column, value]] = Object.entries(where) as [string, number | string][];
  const result = await db.raw(
    `SELECT bool_or(c.notices <> '[]'::jsonb) AS noticed,
            bool_or(i.id IS NOT NULL AND p.status IS DISTINCT FROM 'active') AS gone,
            string_agg(concat_ws(':', i.id, i.product_id, i.variant_id, i.quantity, coalesce(s.stock, -1), coalesce(v.price, p.price), v.label), ',' ORDER BY i.id) AS lines
       FROM carts c LEFT JOIN cart_items i ON i.cart_id = c.id LEFT JOIN products p ON p.id = i.product_id
       LEFT JOIN product_variants v ON v.id = i.variant_id
       LEFT JOIN stock_levels s ON s.product_id = i.product_id AND s.variant_id = coalesce(i.variant_id, 0)
      WHERE c.?? = ?`,
    [column, value],
  );
  const row = result.rows[0] as
    | { noticed: boolean | null; gone: boolean | null; lines: string | null }
    | undefined;
  if (row?.noticed || row?.gone) return null;
  return row?.lines ?? '';
}

/** Takes the stored notices (deleted products) of the cart whose `column` is `value`, so each is shown once. */
async function takeNotices(db: Db, column: string, value: number | string): Promise<string[]> {
  const result = await db.raw(
    `WITH taken AS (SELECT id, notices FROM carts WHERE ?? = ? AND notices <> '[]'::jsonb FOR UPDATE)
     UPDATE carts SET notices = '[]'::jsonb FROM taken WHERE carts.id = taken.id RETURNING taken.notices`,
    [column, value],
  );
  return (result.rows[0]?.notices as string[] | undefined) ?? [];
}

/** A cart line's stock (null: unlimited), for a query on cart_items `i`. */
const LINE_STOCK_SQL =
  '(SELECT s.stock FROM stock_levels s WHERE s.product_id = i.product_id AND s.variant_id = coalesce(i.variant_id, 0))';

/** A product with files is digital: it ships nothing. For a query on products `p`. */
const HAS_FILES = 'EXISTS (SELECT 1 FROM product_files f WHERE f.product_id = p.id)';
const DIGITAL = `${HAS_FILES} AS digital`;

/**
 * Whether the owner's cart has lines and every one is digital (checkout then needs no address),
 * as a subquery for a caller's statement.
 */
export function cartDigitalOnlyQuery(db: Executor, owner: CartOwner) {
  const where = cartWhere(owner);
  if (!where) return db.raw('false');
  return db('cart_items as i')
    .join('carts as c', 'c.id', 'i.cart_id')
    .join('products as p', 'p.id', 'i.product_id')
    .where(where)
    .where('p.status', 'active')
    .select(db.raw(`coalesce(bool_and(${HAS_FILES}), false)`));
}

export async function getCart(db: Db, owner: CartOwner): Promise<CartView> {
  const where = ownerWhere(owner);
  if (!where)
    return {
      cart: { items: [] },
      summary: { totalItems: 0, totalPrice: 0, digitalOnly: false },
      notices: [],
    };
  // By the owner's column (carts has a unique index on each), not by a cart id read first.
  const [[column, value]] = Object.entries(where) as [string, number | string][];
  const lines: Promise<
    {
      id: number;
      product_id: number;
      variant_id: number | null;
      variant: string | null;
      quantity: number;
      image: string | null;
      name: string;
      category: ProductCategory;
      price: number;
      stock: number | null;
      status: string;
      digital: boolean;
    }[]
  > = db('cart_items as i')
    .join('carts as c', 'c.id', 'i.cart_id')
    .join('products as p', 'p.id', 'i.product_id')
    .leftJoin('product_variants as v', 'v.id', 'i.variant_id')
    .where(`c.${column}`, value)
    .orderBy('i.id')
    .select(
      'i.id',
      'i.product_id',
      'i.variant_id',
      'v.label as variant',
      'i.quantity',
      db.raw('coalesce(v.image, p.image) AS image'),
      'p.name',
      'p.category',
      db.raw('coalesce(v.price, p.price) AS price'),
      db.raw(`${LINE_STOCK_SQL} AS stock`),
      'p.status',
      db.raw(DIGITAL),
    );
  const [stored, rows] = await Promise.all([takeNotices(db, column, value), lines]);
  const gone = rows.filter((r) => r.status !== 'active');
  if (gone.length) {
    await db('cart_items')
      .whereIn(
        'id',
        gone.map((r) => r.id),
      )
      .delete();
  }
  const items = rows
    .filter((r) => r.status === 'active')
    .map((r) => ({
      id: r.id,
      productId: r.product_id,
      variantId: r.variant_id,
      variant: r.variant,
      quantity: r.quantity,
      product: {
        image: r.image,
        name: r.name,
        category: r.category,
        price: r.price,
        stock: r.stock,
        digital: r.digital,
      },
    }));
  return {
    cart: { items },
    summary: {
      totalItems: items.reduce((n, i) => n + i.quantity, 0),
      totalPrice: items.reduce((n, i) => n + i.quantity * i.product.price, 0),
      digitalOnly: items.length > 0 && items.every((i) => i.product.digital),
    },
    notices: [...stored, ...gone.map((r) => noLongerAvailable(r.name))],
  };
}

/** Checkout of a cart with nothing (left) in it: the checkout page shows the empty cart. */
export class CartEmpty extends Unprocessable {
  constructor() {
    super(SHOP_MESSAGES.cartEmptyCheckoutHint);
  }
}

function overStock(stock: number): Conflict {
  if (stock === 0) return new Conflict(SHOP_MESSAGES.outOfStockNote, SHOP_MESSAGES.outOfStock);
  return new Conflict(stockLimitMessage(stock), SHOP_MESSAGES.stockLimitTitle);
}

/** Why a quantity is refused for a product with this stock: out of stock, or out of its range. */
function quantityRefusal(stock: number | null): Refusal {
  return stock === 0 ? overStock(0) : new Invalid(quantityMessage(maxQuantity(stock)));
}

/** A typed quantity of a product with this stock, checked by the shared rule before any write. */
function quantityFor(value: unknown, stock: number | null): number {
  const read = readQuantity(value, maxQuantity(stock));
  if (stock === 0 || 'error' in read) throw quantityRefusal(stock);
  return read.quantity;
}

/**
 * Adds a typed quantity of a product (or of one of its variants; a product with options needs
 * one) to the cart, an existing line too, never beyond stock, in one statement: the cart is made
 * or touched only when the line is taken, and the line's upsert checks the stock against the
 * quantity it finds under its row lock, so two quick adds cannot both pass. A taken line is
 * counted for analytics in the same statement. What is no whole number up to the most a line
 * holds is refused before it; the stock, which the refusal names, is read only then.
 */
export async function addToCart(
  db: Db,
  owner: CartOwner,
  productId: number,
  typed: unknown,
  variantId: number | null = null,
  /** A new guest session's row, written by the same statement when the line is taken. */
  newSession: { sid: string; expires: Date } | null = null,
): Promise<{ lineId: number; quantity: number; added: number; sessionWritten: boolean }> {
  const where = ownerWhere(owner);
  if (!where) throw new Error('a cart needs a user or a session');
  const [column, ownerId] = Object.entries(where)[0];
  const read = readQuantity(typed, MAX_PER_LINE);
  if ('error' in read) {
    const product = await db('products').where({ id: productId, status: 'active' }).first('id');
    if (!product) throw new NotFound(SHOP_MESSAGES.productNotFound);
    throw quantityRefusal(await stockOf(db, productId, variantId));
  }
  const { quantity } = read;
  const day = new Date().toISOString().slice(0, 10);
  const { rows } = await compiledOnce<{ rows: unknown[] }>(
    db,
    `addToCart:${column}:${newSession ? 'new session' : 'session'}`,
    [
      productId,
      variantId ?? 0,
      quantity,
      ownerId,
      day,
      ...(newSession ? [newSession.sid, newSession.expires] : []),
    ],
    (productIdValue, variantIdValue, quantityValue, ownerIdValue, dayValue, sidValue, expiresValue) =>
      db.raw(
        `WITH product AS (
       SELECT p.id, p.status, s.stock, p.options->0->>'name' AS first_option,
              CASE WHEN CAST(:variantId AS int) = 0 THEN jsonb_array_length(p.options) = 0 ELSE v.id IS NOT NULL END AS chosen
       FROM products p
       LEFT JOIN product_variants v ON v.id = NULLIF(CAST(:variantId AS int), 0) AND v.product_id = p.id
       LEFT JOIN stock_levels s ON s.product_id = p.id AND s.variant_id = CAST(:variantId AS int)
       WHERE p.id = :productId
     ), has AS (
       SELECT coalesce(sum(i.quantity), 0)::int AS quantity FROM cart_items i
       JOIN carts c ON c.id = i.cart_id
       WHERE c.:column: = :ownerId AND i.product_id = :productId AND coalesce(i.variant_id, 0) = CAST(:variantId AS int)
     ), cart AS (
       INSERT INTO carts (:column:) SELECT CAST(:ownerId AS ${owner.userId ? 'int' : 'text'}) FROM product, has
       WHERE product.status = 'active' AND product.chosen
         AND (product.stock IS NULL OR has.quantity + CAST(:quantity AS int) <= product.stock)
       ON CONFLICT (:column:) DO UPDATE SET updated_at = now()
       RETURNING id
     ), line AS (
       INSERT INTO cart_items (cart_id, product_id, variant_id, quantity)
       SELECT cart.id, CAST(:productId AS int), NULLIF(CAST(:variantId AS int), 0), CAST(:quantity AS int) FROM cart
       ON CONFLICT (cart_id, product_id, (coalesce(variant_id, 0))) DO UPDATE
         SET quantity = cart_items.quantity + excluded.quantity, updated_at = now()
         WHERE (SELECT stock FROM product) IS NULL
           OR cart_items.quantity + excluded.quantity <= (SELECT stock FROM product)
       RETURNING id, quantity
     ), counted AS (
       ${countCartAddSql('line')}
     )${newSession ? ', session AS (:sessionRow)' : ''}
     SELECT product.stock, product.status, product.first_option, product.chosen, line.id AS line_id, line.quantity,
            ${newSession ? 'EXISTS (SELECT 1 FROM session)' : 'false'} AS session_written
     FROM product CROSS JOIN has LEFT JOIN line ON true`,
        {
          ...(newSession ? { sessionRow: guestSessionInsertWhen(db, sidValue, expiresValue, 'line') } : {}),
          productId: productIdValue,
          variantId: variantIdValue,
          quantity: quantityValue,
          ownerId: ownerIdValue,
          column,
          day: dayValue,
        },
      ),
  );
  const row = rows[0] as
    | {
        stock: number | null;
        status: string;
        first_option: string | null;
        chosen: boolean;
        line_id: number | null;
        quantity: number | null;
        session_written: boolean;
      }
    | undefined;
  if (row?.status !== 'active') throw new NotFound(SHOP_MESSAGES.productNotFound);
  if (!row.chosen) {
    // No variant for a product with options ('Choose a size'), or one that is not the product's.
    if (variantId === null && row.first_option) throw new Invalid(chooseOption(row.first_option));
    throw new NotFound(SHOP_MESSAGES.variantNotFound);
  }
  // More than there is at all: the typed quantity is out of range (none in stock: out of stock).
  if (row.line_id === null && row.stock !== null && quantity > row.stock) throw quantityRefusal(row.stock);
  // Not taken: over the stock with what the line holds, as read or under its lock (a concurrent add).
  if (row.line_id === null || row.quantity === null) throw overStock(row.stock ?? 0);
  return {
    lineId: row.line_id,
    quantity: row.quantity,
    added: quantity,
    sessionWritten: row.session_written,
  };
}

/** A line of the owner's own cart, or 404: another cart's line id is not found (no IDOR). */
async function ownLine(trx: Executor, owner: CartOwner, lineId: number) {
  const cartId = await findCartId(trx, owner);
  const line = cartId
    ? await trx('cart_items as i')
        .join('products as p', 'p.id', 'i.product_id')
        .where({ 'i.id': lineId, 'i.cart_id': cartId })
        .first('i.id', 'i.quantity', trx.raw(`${LINE_STOCK_SQL} AS stock`), 'p.name')
    : undefined;
  if (!line) throw new NotFound('Cart item not found');
  return line as { id: number; quantity: number; stock: number | null; name: string };
}

/**
 * Sets a line's quantity to a typed one, which must be a whole number from 1 to the product's
 * stock (400 otherwise: removing a line is its own action).
 */
export async function updateCartItem(
  db: Db,
  owner: CartOwner,
  lineId: number,
  typed: unknown,
): Promise<{ quantity: number }> {
  return db.transaction(async (trx) => {
    const line = await ownLine(trx, owner, lineId);
    const quantity = quantityFor(typed, line.stock);
    await trx('cart_items').where({ id: line.id }).update({ quantity, updated_at: trx.fn.now() });
    return { quantity };
  });
}

export async function removeCartItem(db: Db, owner: CartOwner, lineId: number): Promise<void> {
  await db.transaction(async (trx) => {
    const line = await ownLine(trx, owner, lineId);
    await trx('cart_items').where({ id: line.id }).delete();
  });
}

export async function clearCart(db: Executor, owner: CartOwner): Promise<void> {
  const cartId = await findCartId(db, owner);
  if (cartId) await db('cart_items').where({ cart_id: cartId }).delete();
}

/** A cart line taken for an order, with its product as it is now. */
export type TakenLine = {
  product_id: number;
  variant_id: number | null;
  /** The variant's label, 'Size: M'; null for a product without options. */
  variant: string | null;
  quantity: number;
  name: string;
  price: number;
  stock: number | null;
  status: string;
  /** Its tax rate may be its category's (a reduced rate for books). */
  category: string;
  /**
   * The order's id and this line's, taken from their sequences for a line the read finds on sale
   * and in stock (null otherwise), in the same statement.
   */
  order_id: number | null;
  line_id: number | null;
};

/**
 * Takes the owner's cart lines for an order (deleted here, back if the order is not placed) with
 * their products' (and variants') name, price, stock and status, and the order's new ids, in one
 * round trip (take_cart_lines, migration 202611298001). The cart row is locked first, as an add to
 * the cart locks it; the lines and products are read after the lock was granted, unlocked, so a
 * change committed while the lock was awaited is seen. A cart refused at this read takes no ids.
 */
export async function takeCartLines(trx: Knex.Transaction, owner: CartOwner): Promise<TakenLine[]> {
  if (!owner.userId && !owner.sessionId) return [];
  const { rows } = await compiledOnce<{ rows: TakenLine[] }>(
    trx,
    'takeCartLines',
    [owner.userId ?? null, owner.userId ? null : owner.sessionId],
    (userId, sessionId) => trx.raw('SELECT * FROM take_cart_lines(?, ?)', [userId, sessionId]),
  );
  return rows;
}

/** The cart of this request's visitor: the user's when signed in, else the guest session's. */
export function cartOwnerOf(state: RequestContext): CartOwner {
  return { userId: state.session.user?.id ?? null, sessionId: state.session.id };
}

/**
 * Adds to the visitor's cart (addToCart), starting a new guest's session. The line is tried under
 * the id that session will have, and the session written by the same statement when the line is
 * taken: a shopper refused (a drop's sold-out tail) leaves no session behind, and either costs one
 * statement. Answers the
 * session id too, and whether this add started the session.
 */
export async function addToVisitorCart(
  db: Db,
  state: RequestContext,
  productId: number,
  typed: unknown,
  variantId: number | null = null,
): Promise<{ line: Awaited<ReturnType<typeof addToCart>>; sessionId: string | null; started: boolean }> {
  const started = !state.session.user && !state.session.id;
  const upcoming = state.session.upcomingId();
  // An id the client chose is written first: it may be taken, and ensure() then picks another.
  if (started && !upcoming) await state.session.ensure();
  const owner = upcoming ? { userId: null, sessionId: upcoming } : cartOwnerOf(state);
  const line = await addToCart(db, owner, productId, typed, variantId, state.session.upcomingRow());
  if (upcoming) await state.session.ensure(line.sessionWritten ? upcoming : undefined);
  return { line, sessionId: state.session.id, started };
}
