import type { Knex } from 'knex';
import { compiledOnce, compiledOnceFrom, type Db, prepared, SqlPart, withRawParts } from '../db/knex.ts';
import { type OutboxJob, outboxRow, outboxRowsWhen, writeOutboxJobs } from '../jobs/outbox.ts';
import { numberDocuments } from './document-numbers.ts';
import {
  ERASED_CUSTOMER,
  evolve,
  initialOrderState,
  type OrderEvent,
  type OrderPlacedData,
  type OrderState,
} from './domain.ts';

type Executor = Db | Knex.Transaction;

export type StoredEvent = OrderEvent & {
  orderId: number;
  version: number;
  metadata: Record<string, unknown>;
  createdAt: Date;
};

/** Another writer appended to the same order first: reload and decide again. */
export class ConcurrencyError extends Error {}

type EventRow = {
  order_id: number;
  version: number;
  type: OrderEvent['type'];
  data: OrderEvent['data'];
  metadata: Record<string, unknown>;
  created_at: Date;
};

function fromRow(row: EventRow): StoredEvent {
  return {
    type: row.type,
    data: row.data,
    orderId: row.order_id,
    version: row.version,
    metadata: row.metadata,
    createdAt: row.created_at,
  } as StoredEvent;
}

const EVENT_COLUMNS = ['order_id', 'version', 'type', 'data', 'metadata', 'created_at'];

export async function loadStream(db: Executor, orderId: number): Promise<StoredEvent[]> {
  const rows: EventRow[] = await prepared(
    db('order_events').where({ order_id: orderId }).orderBy('version').select(EVENT_COLUMNS),
  );
  return rows.map(fromRow);
}

/**
 * The orders' streams, each read under the transaction's advisory lock on (lockName, orderId), in
 * one round trip (migration 202611297003): a concurrent holder's commit is seen once its lock is
 * granted. The locks are taken in ascending order of the orders.
 */
export async function loadLockedStreams(
  trx: Knex.Transaction,
  lockName: string,
  orderIds: number[],
): Promise<Map<number, StoredEvent[]>> {
  const ascending = [...new Set(orderIds)].sort((a, b) => a - b);
  const { rows }: { rows: EventRow[] } = await prepared(
    trx.raw(
      `SELECT ${EVENT_COLUMNS.map((c) => `s.${c}`).join(', ')}
       FROM unnest(CAST(? AS int[])) WITH ORDINALITY AS o(id, n), LATERAL locked_order_stream(?, o.id) s
       ORDER BY o.n, s.version`,
      [ascending, lockName],
    ),
  );
  const streams = new Map<number, StoredEvent[]>();
  for (const row of rows) {
    const stream = streams.get(row.order_id) ?? [];
    stream.push(fromRow(row));
    streams.set(row.order_id, stream);
  }
  return streams;
}

export function stateOf(events: OrderEvent[]): OrderState {
  return events.reduce(evolve, initialOrderState);
}

/** Another writer appended this order's next version first. */
function lostAppend(orderId: number, expectedVersion: number): ConcurrencyError {
  return new ConcurrencyError(`order ${orderId} changed concurrently (expected version ${expectedVersion})`);
}

/**
 * Appends several events after expectedVersion, and the change's jobs to the outbox. The unique
 * (order_id, version) key is the guard: a concurrent append of the same version fails here
 * instead of forking the stream.
 */
async function appendEvents(
  trx: Knex.Transaction,
  orderId: number,
  expectedVersion: number,
  events: OrderEvent[],
  metadata: Record<string, unknown>,
  jobs: OutboxJob[],
): Promise<StoredEvent[]> {
  const rows = events.map((event, i) => eventRow(orderId, expectedVersion + i + 1, event, metadata));
  try {
    // A savepoint keeps the outer transaction usable when the append loses the race: without one
    // the rows before the conflicting one would stay.
    const stored: EventRow[] = await trx.transaction((sp) =>
      sp('order_events').insert(rows).returning(EVENT_COLUMNS),
    );
    if (jobs.length) await writeOutboxJobs(trx, jobs);
    return stored.map(fromRow);
  } catch (error) {
    if (
      (error as { code?: string }).code === '23505' &&
      /order_events_order_id_version/.test(String((error as { constraint?: string }).constraint))
    ) {
      throw lostAppend(orderId, expectedVersion);
    }
    throw error;
  }
}

function eventRow(orderId: number, version: number, event: OrderEvent, metadata: Record<string, unknown>) {
  return {
    order_id: orderId,
    version,
    type: event.type,
    data: JSON.stringify(event.data),
    metadata: JSON.stringify(metadata),
  };
}

/**
 * Appends one event with its jobs and its projection, in one statement: the event is appended or
 * not, atomically, and the jobs and the projection are written only when it is (CTEs reading the
 * append's row), so a lost race leaves the outer transaction usable without a savepoint. The
 * projection's time is the transaction's, `now()`, which is the event's own created_at.
 */
async function appendAndProject(
  trx: Knex.Transaction,
  orderId: number,
  state: OrderState,
  event: OrderEvent,
  metadata: Record<string, unknown>,
  jobs: OutboxJob[],
): Promise<OrderState> {
  const next = evolve(state, event);
  // The event's created_at as the rebuild reads it back (a JS Date, to the millisecond).
  const at = { orderId, version: next.version, createdAt: new SqlPart("date_trunc('milliseconds', now())") };
  const rows = {
    event: eventRow(orderId, next.version, event, metadata),
    order: orderWrite({ ...at, type: event.type }, next),
    lines: event.type === 'OrderPlaced' ? lineRows(at, event.data) : [],
    jobs: jobs.map(outboxRow),
  };
  // A placing, a payment, a mail's record: each the same text every time, compiled once.
  const stored = await compiledOnceFrom<EventRow[], typeof rows>(
    trx,
    `appendAndProject:${event.type}`,
    rows,
    (marked) => {
      let statement = trx
        .with(
          'appended',
          trx('order_events')
            .insert(marked.event)
            .onConflict(['order_id', 'version'])
            .ignore()
            .returning(EVENT_COLUMNS),
        )
        .with('projected', orderWriteQuery(trx, marked.order, 'appended'));
      if (event.type === 'OrderPlaced')
        statement = statement.with('lines', trx('order_items').insert(marked.lines));
      if (marked.jobs.length)
        statement = statement.with('jobs', outboxRowsWhen(trx, marked.jobs, 'appended'));
      return statement.select(EVENT_COLUMNS).from('appended');
    },
  );
  if (stored.length === 0) throw lostAppend(orderId, state.version);
  return next;
}

/** Where a projection writes: the order, the event's version and its time (a date, or now()). */
type ProjectionAt = { orderId: number; version: number; createdAt: Date | SqlPart };

/**
 * Applies one stored event to the orders/order_items projections. Uses nothing but the event
 * and the state it produced, so replaying the stream (rebuild) writes the same rows.
 */
export async function projectEvent(
  trx: Knex.Transaction,
  event: StoredEvent,
  state: OrderState,
): Promise<void> {
  const at = { orderId: event.orderId, version: event.version, createdAt: event.createdAt };
  const order = orderWriteQuery(trx, withRawParts(trx, orderWrite({ ...at, type: event.type }, state)));
  // The order and its lines in one statement (the lines' key on the order is checked at its end).
  await prepared(
    event.type === 'OrderPlaced'
      ? trx
          .with('placed', order)
          .insert(withRawParts(trx, lineRows(at, event.data)))
          .into('order_items')
      : order,
  );
}

/** The orders row an event writes, as values: inserted by OrderPlaced, updated by every later event. */
type OrderWrite = { insert: Record<string, unknown> } | { id: number; update: Record<string, unknown> };

function orderWrite(at: ProjectionAt & { type: OrderEvent['type'] }, state: OrderState): OrderWrite {
  if (at.type === 'OrderPlaced' && state.placed) {
    const o = state.placed;
    return {
      insert: {
        id: at.orderId,
        ...customerColumns(o),
        country: o.country,
        total_amount: o.totalAmount,
        status: state.status,
        payment_status: state.paymentStatus,
        shipping_method: o.shippingMethod,
        shipping_cost: o.shippingCost ?? 0,
        discount_code: o.discount?.code ?? null,
        discount_amount: o.discount?.amount ?? 0,
        tax_amount: o.taxAmount ?? 0,
        tax_included: o.taxIncluded ?? false,
        tracking_number: state.trackingNumber,
        idempotency_key: o.idempotencyKey,
        confirmation_sent: state.confirmationSent,
        ...paymentColumns(state),
        version: at.version,
        created_at: at.createdAt,
        updated_at: at.createdAt,
      },
    };
  }
  return {
    id: at.orderId,
    update: {
      status: state.status,
      payment_status: state.paymentStatus,
      tracking_number: state.trackingNumber,
      carrier: state.carrier,
      tracking_url: state.trackingUrl,
      confirmation_sent: state.confirmationSent,
      ...paymentColumns(state),
      ...(at.type === 'CustomerDataErased' && state.placed ? customerColumns(state.placed) : {}),
      // Stripe Tax's amount, known at payment: the order's total grows by it (unless included).
      ...(at.type === 'TaxAssessed' && state.placed
        ? { total_amount: state.placed.totalAmount, tax_amount: state.placed.taxAmount ?? 0 }
        : {}),
      version: at.version,
      updated_at: at.createdAt,
    },
  };
}

/**
 * The statement of an order's write (its parts made knex raws). With `when`, an update is made
 * only when the CTE so named returns a row (the event's append).
 */
function orderWriteQuery(trx: Knex.Transaction, write: OrderWrite, when?: string): Knex.QueryBuilder {
  if ('insert' in write) return trx('orders').insert(write.insert);
  const update = trx('orders').where({ id: write.id }).update(write.update);
  return when ? update.whereExists(trx.select(trx.raw('1')).from(when)) : update;
}

/** The order_items rows of a placed order. */
function lineRows(at: ProjectionAt, o: OrderPlacedData) {
  return o.items.map((line) => ({
    id: line.lineId,
    order_id: at.orderId,
    product_id:
      line.productId === null
        ? null
        : new SqlPart('(SELECT id FROM products WHERE id = ?)', [line.productId]),
    quantity: line.quantity,
    price_at_time: line.priceAtTime,
    tax_amount: line.tax?.amount ?? 0,
    product_name: line.productName,
    variant_id: line.variantId ?? null,
    variant: line.variant ?? null,
    created_at: at.createdAt,
    updated_at: at.createdAt,
  }));
}

/** The order's columns that say who its customer is (all of them erased by CustomerDataErased). */
function customerColumns(o: OrderPlacedData) {
  return {
    // A user deleted since keeps the order whole: the reference becomes null.
    user_id: o.userId === null ? null : new SqlPart('(SELECT id FROM users WHERE id = ?)', [o.userId]),
    session_id: o.sessionId,
    email: o.email,
    first_name: o.firstName,
    last_name: o.lastName,
    phone: o.phone,
    address: o.address,
    city: o.city,
    postal_code: o.postalCode,
    notes: o.notes,
  };
}

/**
 * The one rewrite of stored events (docs/decisions/013-account-deletion.md): the customer's
 * personal fields in the stream's earlier events (OrderPlaced, the mails' recipients) are
 * overwritten as CustomerDataErased erases them, so a rebuild projects the same erased row and
 * the event store keeps no copy of what the customer asked us to forget.
 */
export async function redactCustomerData(trx: Knex.Transaction, orderId: number): Promise<void> {
  await trx('order_events')
    .where({ order_id: orderId, type: 'OrderPlaced' })
    .update({ data: trx.raw('data || ?::jsonb', [JSON.stringify(ERASED_CUSTOMER)]) });
  await trx('order_events')
    .where({ order_id: orderId })
    .whereIn('type', ['OrderMailSent', 'ConfirmationEmailSent'])
    .update({ data: trx.raw(`jsonb_set(data, '{to}', '""')`) });
}

function paymentColumns(state: OrderState) {
  return {
    payment_method: state.paymentMethod,
    payment_reference: state.paymentReference,
    paid_amount: state.paidAmount,
    refunded_amount: state.refundedAmount,
    refunded_tax: state.refundedTax,
    invoice_number: state.invoiceNumber,
    hold_until: state.placed?.holdUntil ?? null,
    checkout_session_id: state.checkoutSessionId,
    refund_needed: state.refundNeeded,
  };
}

/** Appends (with the change's outbox jobs) and projects in the caller's transaction; returns the new state. */
export async function commitEvents(
  trx: Knex.Transaction,
  orderId: number,
  state: OrderState,
  events: OrderEvent[],
  metadata: Record<string, unknown>,
  jobs: OutboxJob[] = [],
): Promise<OrderState> {
  const numbered = await numberDocuments(trx, events);
  if (numbered.length === 0) {
    if (jobs.length) await writeOutboxJobs(trx, jobs);
    return state;
  }
  if (numbered.length === 1) return appendAndProject(trx, orderId, state, numbered[0], metadata, jobs);
  const stored = await appendEvents(trx, orderId, state.version, numbered, metadata, jobs);
  let next = state;
  for (const event of stored) {
    next = evolve(next, event);
    await projectEvent(trx, event, next);
  }
  return next;
}

/** A mail's record for appendRecordsNow: the order's state it was decided on, and its one event. */
export type MailRecord = { orderId: number; state: OrderState; event: OrderEvent };

/**
 * Several mails' records (each one event of its own order, numbering no document) appended with
 * their projections in one statement, committed as it ends: one round trip for a batch's records
 * instead of one each. The rows go as two JSON parameters read as rows of order_events and orders
 * (jsonb_populate_recordset), so the statement's text is the same for any number of records. An
 * order whose version moved meanwhile (a payment appended first) is left out: its id is among
 * those returned, to be decided again.
 */
export async function appendRecordsNow(
  db: Db,
  records: MailRecord[],
  metadata: Record<string, unknown>,
): Promise<number[]> {
  if (records.length === 0) return [];
  if (new Set(records.map((r) => r.orderId)).size !== records.length)
    throw new Error("one record per order: a second would expect the first's version");
  const events = [];
  const orders = [];
  for (const { orderId, state, event } of records) {
    // Their projection changes plain columns (none a subquery, as an erasure's user is).
    if (event.type !== 'ConfirmationEmailSent' && event.type !== 'OrderMailSent')
      throw new Error(`not a mail's record: ${event.type}`);
    const next = evolve(state, event);
    events.push({ order_id: orderId, version: next.version, type: event.type, data: event.data, metadata });
    const write = orderWrite(
      { orderId, version: next.version, createdAt: new Date(0), type: event.type },
      next,
    );
    if ('insert' in write) throw new Error('a record updates its order');
    const { updated_at: _, ...columns } = write.update;
    orders.push({ id: orderId, ...columns });
  }
  const columns = Object.keys(orders[0]).filter((c) => c !== 'id');
  if (orders.some((o) => Object.keys(o).length !== columns.length + 1))
    throw new Error("a batch's records write the same columns of their orders");
  const { rows } = await compiledOnce<{ rows: { order_id: number }[] }>(
    db,
    `appendRecordsNow:${columns.join(',')}`,
    [JSON.stringify(events), JSON.stringify(orders)],
    (eventRows, orderRows) =>
      db.raw(
        `WITH appended AS (
           INSERT INTO order_events (order_id, version, type, data, metadata)
           SELECT order_id, version, type, data, metadata
           FROM jsonb_populate_recordset(NULL::order_events, CAST(? AS jsonb))
           ON CONFLICT (order_id, version) DO NOTHING
           RETURNING order_id
         ), projected AS (
           UPDATE orders o SET ${columns.map((c) => `"${c}" = v."${c}"`).join(', ')},
             updated_at = date_trunc('milliseconds', now())
           FROM jsonb_populate_recordset(NULL::orders, CAST(? AS jsonb)) v
           WHERE o.id = v.id AND v.id IN (SELECT order_id FROM appended)
         )
         SELECT order_id FROM appended`,
        [eventRows, orderRows],
      ),
  );
  const stored = new Set(rows.map((row) => row.order_id));
  return records.map((r) => r.orderId).filter((id) => !stored.has(id));
}

/** Rebuilds orders and order_items from the events alone. */
export async function rebuildProjections(db: Db): Promise<{ orders: number; events: number }> {
  return db.transaction(async (trx) => {
    await trx.raw('LOCK TABLE order_events IN SHARE MODE');
    await trx.raw('TRUNCATE order_items, orders');
    const rows: EventRow[] = await trx('order_events')
      .orderBy([
        { column: 'order_id', order: 'asc' },
        { column: 'version', order: 'asc' },
      ])
      .select('order_id', 'version', 'type', 'data', 'metadata', 'created_at');
    let state = initialOrderState;
    let current = -1;
    let orders = 0;
    for (const row of rows) {
      const event = fromRow(row);
      if (event.orderId !== current) {
        current = event.orderId;
        state = initialOrderState;
        orders++;
      }
      state = evolve(state, event);
      await projectEvent(trx, event, state);
    }
    await trx.raw(
      "SELECT setval('order_items_id_seq', GREATEST((SELECT max(id) FROM order_items), (SELECT last_value FROM order_items_id_seq)))",
    );
    return { orders, events: rows.length };
  });
}
