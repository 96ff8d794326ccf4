import { creditNoteNumberOf } from '../../orders/document-numbers.ts';
import { creditNotePdf } from '../../orders/invoices.ts';
import { getApp } from '../context.ts';
import { documentResponse, visibleOrder } from '../order-access.server.ts';
import type { Route } from './+types/orders.credit-note.pdf';

/** A refund's credit note (CN-2026-0001.pdf), to the order's customer as its invoice is. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const order = await visibleOrder(app, params.id, new URL(request.url).searchParams.get('key'));
  return documentResponse(() => creditNotePdf(app.services.db, order.id, creditNoteNumberOf(params.file)));
}
