import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { requireAdmin } from '../identity/policy.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import { executeOrderCommand } from '../orders/changes.ts';
import { creditNoteNumberOf, pdfDisposition } from '../orders/document-numbers.ts';
import type { OrderStatus, PaymentStatus } from '../orders/domain.ts';
import {
  DOWNLOAD_MESSAGES,
  listDownloads,
  resendDownloads,
  resetDownloadLimit,
} from '../orders/downloads.ts';
import { FULFILMENT_STATUSES } from '../orders/fulfilment.ts';
import { creditNotePdf, invoicePdf } from '../orders/invoices.ts';
import { getOrder, getOrderWithHistory, listOrders } from '../orders/lists.ts';
import { cancelOrder, markOrderPaid, refundOrder } from '../orders/payments.ts';
import type { AppServices } from '../server/services.ts';
import { trackingFor } from '../shop/carriers.ts';
import { readJsonBody, SMALL_BODY } from './http.ts';

const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled', 'expired'] as const;
const PAYMENT_STATUSES = ['unpaid', 'paid', 'partially_refunded', 'refunded'] as const;

export const listQuery = z.object({
  status: z
    .enum([...ORDER_STATUSES, 'all'], { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
    .optional(),
  paymentStatus: z
    .enum([...PAYMENT_STATUSES, 'all'], {
      message: `paymentStatus must be one of ${PAYMENT_STATUSES.join(', ')}`,
    })
    .optional(),
  fulfilment: z
    .enum([...FULFILMENT_STATUSES, 'all'], {
      message: `fulfilment must be one of ${FULFILMENT_STATUSES.join(', ')}`,
    })
    .optional(),
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
  page: z.coerce.number({ message: 'page must be a positive integer' }).int().min(1).max(100_000).optional(),
});

export const markPaidBody = z.object({
  reference: z.string().trim().max(200, 'The reference must be at most 200 characters').nullish(),
});
export const refundBody = z.object({
  amount: z
    .number({ message: 'amount must be a whole number of cents' })
    .int('amount must be a whole number of cents')
    .min(1, 'amount must be at least 1 cent'),
  restock: z.boolean({ message: 'restock must be true or false' }).default(false),
  reason: z.string().trim().max(500).optional(),
});
export const cancelBody = z.object({ reason: z.string().trim().max(500).optional() });
export const shipBody = z.object({
  carrier: z.string({ message: 'carrier is required' }).trim().min(1, 'carrier is required').max(100),
  trackingNumber: z
    .string({ message: 'A tracking number is required to ship an order.' })
    .trim()
    .min(1, 'A tracking number is required to ship an order.')
    .max(100, 'The tracking number must be at most 100 characters'),
});
export const resetDownloadBody = z.object({
  grantId: z
    .number({ message: 'grantId must be the id of one of the order’s downloads' })
    .int('grantId must be the id of one of the order’s downloads')
    .min(1, 'grantId must be the id of one of the order’s downloads')
    .max(2_147_483_647, 'grantId must be the id of one of the order’s downloads'),
});

/** A document's PDF, named by its number, never cached (it carries the customer's details). */
function sendPdf(ctx: Context, document: { number: string; pdf: Buffer }) {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Disposition', pdfDisposition(document.number));
  ctx.type = 'application/pdf';
  ctx.body = document.pdf;
}

function orderIdOf(ctx: Context): number {
  const raw = ctx.params.id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw new NotFound('Order not found');
  return id;
}

/** Single query values only: ?status=a&status=b has no one meaning. */
function singleQuery(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw new Invalid(`Query parameter ${key} must be given once`);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** /api/admin/orders: the orders with their payments, and the admin's commands on them. */
export function ordersAdminRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();

  router.get('/admin/orders', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    const query = parseInput(listQuery, singleQuery(ctx));
    ctx.body = await listOrders(db, {
      status: query.status as OrderStatus | 'all' | undefined,
      paymentStatus: query.paymentStatus as PaymentStatus | 'all' | undefined,
      fulfilment: query.fulfilment,
      search: query.search,
      page: query.page,
    });
  });

  /** The order with its history and its download grants (absolute links, counts, expiry). */
  async function orderWithDownloads(id: number) {
    const found = await getOrderWithHistory(db, id);
    if (!found) throw new NotFound('Order not found');
    const downloads = (await listDownloads(db, id)).map(({ path, ...grant }) => ({
      ...grant,
      url: `${services.publicUrl}${path}`,
    }));
    return { ...found, downloads };
  }

  router.get('/admin/orders/:id', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await orderWithDownloads(orderIdOf(ctx));
  });

  router.get('/admin/orders/:id/invoice.pdf', async (ctx) => {
    requireAdmin(ctx.state);
    sendPdf(ctx, await invoicePdf(db, orderIdOf(ctx)));
  });

  router.get('/admin/orders/:id/credit-notes/:file', async (ctx) => {
    requireAdmin(ctx.state);
    sendPdf(ctx, await creditNotePdf(db, orderIdOf(ctx), creditNoteNumberOf(ctx.params.file)));
  });

  router.post('/admin/orders/:id', async (ctx) => {
    const user = requireAdmin(ctx.state);
    const id = orderIdOf(ctx);
    const action = ctx.query.action;
    const body = await readJsonBody(ctx, SMALL_BODY);
    if (!(await getOrder(db, id))) throw new NotFound('Order not found');
    const metadata = { actor: 'admin', userId: user.id, requestId: ctx.state.requestId };
    if (action === 'mark-paid') {
      const { reference } = parseInput(markPaidBody, body);
      await markOrderPaid(db, id, reference ?? null, metadata);
    } else if (action === 'refund') {
      const input = parseInput(refundBody, body);
      await refundOrder(services, id, input, metadata);
    } else if (action === 'cancel') {
      const { reason } = parseInput(cancelBody, body);
      await cancelOrder(services, id, reason, metadata);
    } else if (action === 'ship') {
      const { carrier, trackingNumber } = parseInput(shipBody, body);
      await executeOrderCommand(
        db,
        id,
        { type: 'ShipOrder', trackingNumber, ...(await trackingFor(db, carrier, trackingNumber)) },
        metadata,
      );
    } else if (action === 'deliver') {
      await executeOrderCommand(db, id, { type: 'MarkDelivered' }, metadata);
    } else if (action === 'resend-downloads') {
      await resendDownloads(db, id);
    } else if (action === 'reset-download') {
      const { grantId } = parseInput(resetDownloadBody, body);
      if (!(await resetDownloadLimit(db, id, grantId))) throw new NotFound(DOWNLOAD_MESSAGES.notFound);
    } else {
      throw new Invalid(
        'Unknown action: use mark-paid, refund, cancel, ship, deliver, resend-downloads or reset-download',
      );
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await orderWithDownloads(id);
  });

  return router;
}
