import { data } from 'react-router';
import { isOrderAccessKey } from '../orders/access-key.ts';
import { pdfDisposition } from '../orders/document-numbers.ts';
import { getOrder } from '../orders/lists.ts';
import { httpStatusOf, isRefusal } from '../server/error-status.ts';
import type { AppContext } from './context.ts';

/** The order, to whoever holds its link (the key) or placed it in this session or account. */
export async function visibleOrder(app: AppContext, rawId: string, key: string | null) {
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : 0;
  const order = id ? await getOrder(app.services.db, id) : null;
  if (!order) throw data('Order not found', 404);
  const { session } = app.state;
  const owner =
    (session.user && order.userId === session.user.id) ||
    (session.id !== null &&
      (await app.services.db('orders').where({ id, session_id: session.id }).first('id')));
  if (!owner && !(await isOrderAccessKey(app.services.db, id, key))) throw data('Order not found', 404);
  return order;
}

/** An invoice's or credit note's PDF, never cached (it carries the customer's details); 404 when there is none. */
export async function documentResponse(
  draw: () => Promise<{ number: string; pdf: Buffer }>,
): Promise<Response> {
  let document: { number: string; pdf: Buffer };
  try {
    document = await draw();
  } catch (error) {
    if (isRefusal(error)) throw data(error.message, httpStatusOf(error));
    throw error;
  }
  return new Response(new Uint8Array(document.pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': pdfDisposition(document.number),
      'Cache-Control': 'no-store',
    },
  });
}
