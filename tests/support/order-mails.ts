import type { Db } from '../../src/db/knex.ts';
import { customerMailOf } from '../../src/orders/changes.ts';
import type { OrderEvent } from '../../src/orders/domain.ts';
import { until } from './until.ts';

/**
 * The mails the orders' events call for that the worker has not recorded yet, as order:key: each
 * order's confirmation and each event's customer mail (customerMailOf; download mails, which
 * depend on the products' files, are not counted). An erased order's are left out: those not sent
 * before the erasure never will be.
 */
export async function mailsNotRecorded(db: Db): Promise<string[]> {
  const events: { order_id: number; version: number; type: string; data: Record<string, unknown> }[] =
    await db('order_events').orderBy(['order_id', 'version']).select('order_id', 'version', 'type', 'data');
  const due = new Set<string>();
  const recorded = new Set<string>();
  const erased = new Set(events.filter((e) => e.type === 'CustomerDataErased').map((e) => e.order_id));
  for (const e of events.filter((e) => !erased.has(e.order_id))) {
    const mail = (key: string) => `${e.order_id}:${key}`;
    if (e.type === 'OrderPlaced') due.add(mail('confirmation'));
    else if (e.type === 'ConfirmationEmailSent') recorded.add(mail('confirmation'));
    else if (e.type === 'OrderMailSent') recorded.add(mail(String(e.data.key)));
    else {
      const customerMail = customerMailOf(e as unknown as OrderEvent, e.version);
      if (customerMail) due.add(mail(customerMail.key));
    }
  }
  return [...due].filter((mail) => !recorded.has(mail));
}

/**
 * Waits until the worker has recorded every mail the orders' events call for: each record is an
 * event that moves its order's version, so projections compared before and after a rebuild must
 * be read once none is still coming.
 */
export async function untilOrderMailsRecorded(db: Db): Promise<void> {
  await until(async () => (await mailsNotRecorded(db)).length === 0, "the orders' mails recorded");
}

/** The kinds of mail recorded for an order: 'ConfirmationEmailSent', then each OrderMailSent's kind. */
export async function recordedMailKinds(db: Db, orderId: number): Promise<string[]> {
  const recorded: { type: string; data: { kind?: string } }[] = await db('order_events')
    .where({ order_id: orderId })
    .whereIn('type', ['ConfirmationEmailSent', 'OrderMailSent'])
    .select('type', 'data');
  return recorded.map((e) => (e.type === 'OrderMailSent' ? String(e.data.kind) : e.type));
}
