import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { requireAdmin } from '../identity/policy.ts';
import type { OrderStatus, PaymentStatus } from '../orders/domain.ts';
import { cancelOrder, markOrderPaid, refundOrder } from '../orders/payments.ts';
import { getOrder, getOrderWithHistory, listOrders } from '../orders/service.ts';
import { HttpError } from '../server/middleware.ts';
import type { AppServices } from '../server/services.ts';
import { parseOr400, readJsonBody, SMALL_BODY } from './http.ts';

const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled', 'expired'] as const;
const PAYMENT_STATUSES = ['unpaid', 'paid', 'partially_refunded', 'refunded'] as const;

const listQuery = z.object({
  status: z
    .enum([...ORDER_STATUSES, 'all'], { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
    .optional(),
  paymentStatus: z
    .enum([...PAYMENT_STATUSES, 'all'], {
      message: `paymentStatus must be one of ${PAYMENT_STATUSES.join(', ')}`,
    })
    .optional(),
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
  page: z.coerce.number({ message: 'page must be a positive integer' }).int().min(1).max(100_000).optional(),
});

const markPaidBody = z.object({
  reference: z.string().trim().max(200, 'The reference must be at most 200 characters').nullish(),
});
const refundBody = z.object({
  amount: z
    .number({ message: 'amount must be a whole number of cents' })
    .int('amount must be a whole number of cents')
    .min(1, 'amount must be at least 1 cent'),
  restock: z.boolean({ message: 'restock must be true or false' }).default(false),
  reason: z.string().trim().max(500).optional(),
});
const cancelBody = z.object({ reason: z.string().trim().max(500).optional() });

function orderIdOf(ctx: Context): number {
  const raw = ctx.params.id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw new HttpError(404, 'Order not found');
  return id;
}

/** Single query values only: ?status=a&status=b has no one meaning. */
function singleQuery(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw new HttpError(400, `Query parameter ${key} must be given once`);
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
    const query = parseOr400(listQuery, singleQuery(ctx));
    ctx.body = await listOrders(db, {
      status: query.status as OrderStatus | 'all' | undefined,
      paymentStatus: query.paymentStatus as PaymentStatus | 'all' | undefined,
      search: query.search,
      page: query.page,
    });
  });

  router.get('/admin/orders/:id', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    const found = await getOrderWithHistory(db, orderIdOf(ctx));
    if (!found) throw new HttpError(404, 'Order not found');
    ctx.body = found;
  });

  router.post('/admin/orders/:id', async (ctx) => {
    const user = requireAdmin(ctx.state);
    const id = orderIdOf(ctx);
    const action = ctx.query.action;
    const body = await readJsonBody(ctx, SMALL_BODY);
    if (!(await getOrder(db, id))) throw new HttpError(404, 'Order not found');
    const metadata = { actor: 'admin', userId: user.id, requestId: ctx.state.requestId };
    if (action === 'mark-paid') {
      const { reference } = parseOr400(markPaidBody, body);
      await markOrderPaid(db, id, reference ?? null, metadata);
    } else if (action === 'refund') {
      const input = parseOr400(refundBody, body);
      await refundOrder(services, id, input, metadata);
    } else if (action === 'cancel') {
      const { reason } = parseOr400(cancelBody, body);
      await cancelOrder(services, id, reason, metadata);
    } else {
      throw new HttpError(400, 'Unknown action: use mark-paid, refund or cancel');
    }
    ctx.body = await getOrderWithHistory(db, id);
  });

  return router;
}
