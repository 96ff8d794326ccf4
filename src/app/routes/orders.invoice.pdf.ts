import { invoicePdf } from '../../orders/invoices.ts';
import { getApp } from '../context.ts';
import { documentResponse, visibleOrder } from '../order-access.server.ts';
import type { Route } from './+types/orders.invoice.pdf';

/** The order's invoice, to its customer: signed in, the same guest session, or its link's key. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const order = await visibleOrder(app, params.id, new URL(request.url).searchParams.get('key'));
  return documentResponse(() => invoicePdf(app.services.db, order.id));
}
