import type { ReactNode } from 'react';
import { data, Form, Link, useNavigation } from 'react-router';
import type { AdminOrderCommand } from '../../orders/domain.ts';
import { executeOrderCommand, getOrderWithHistory, type OrderHistoryEvent } from '../../orders/service.ts';
import { HttpError } from '../../server/middleware.ts';
import { formatPrice } from '../../shop/price.ts';
import { formatDateTime } from '../admin/format.ts';
import { requireAdminUser } from '../admin/guard.server.ts';
import { Notice } from '../admin/Notice.tsx';
import { getApp } from '../context.ts';
import '../styles/admin.css';
import type { Route } from './+types/admin.orders.detail';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Order #${loaderData?.order.id ?? ''} — Admin` },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

function orderId(raw: string): number {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw data('Order not found', 404);
  return id;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  const found = await getOrderWithHistory(getApp(context).services.db, orderId(params.id));
  if (!found) throw data('Order not found', 404);
  return found;
}

const DONE: Record<AdminOrderCommand['type'], string> = {
  RecordPayment: 'Payment recorded',
  ShipOrder: 'Order shipped',
  MarkDelivered: 'Order marked delivered',
  CancelOrder: 'Order cancelled',
};

function commandFrom(form: FormData): AdminOrderCommand | null {
  switch (form.get('intent')) {
    case 'record-payment':
      return { type: 'RecordPayment' };
    case 'ship':
      return { type: 'ShipOrder', trackingNumber: String(form.get('trackingNumber') ?? '') };
    case 'deliver':
      return { type: 'MarkDelivered' };
    case 'cancel':
      return { type: 'CancelOrder', reason: String(form.get('reason') ?? '') || undefined };
    default:
      return null;
  }
}

/** Order commands; the order service decides what is allowed and says why not. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireAdminUser(context, request);
  const { services } = getApp(context);
  const command = commandFrom(await request.formData());
  if (!command) return { ok: false as const, title: 'Error', message: 'Unknown action' };
  try {
    await executeOrderCommand(services.db, orderId(params.id), command, { actor: 'admin', userId: user.id });
    return { ok: true as const, title: DONE[command.type] };
  } catch (err) {
    if (err instanceof HttpError && err.status < 500)
      return { ok: false as const, title: 'Error', message: err.message };
    throw err;
  }
}

const ACTION_LABELS: Record<AdminOrderCommand['type'], string> = {
  RecordPayment: 'Record Payment',
  ShipOrder: 'Ship Order',
  MarkDelivered: 'Mark Delivered',
  CancelOrder: 'Cancel Order',
};

const EVENT_LABELS: Record<string, string> = {
  OrderPlaced: 'Order placed',
  PaymentRecorded: 'Payment recorded',
  OrderShipped: 'Shipped',
  OrderDelivered: 'Delivered',
  OrderCancelled: 'Cancelled',
  ConfirmationEmailSent: 'Confirmation email sent',
};

function eventDetail(event: OrderHistoryEvent): string | null {
  const d = (event.data ?? {}) as Record<string, unknown>;
  if (event.type === 'OrderShipped') return `Tracking number ${String(d.trackingNumber)}`;
  if (event.type === 'OrderCancelled')
    return (
      [d.reason ? `Reason: ${String(d.reason)}` : null, d.refunded ? 'Payment to refund' : null]
        .filter(Boolean)
        .join('. ') || null
    );
  if (event.type === 'ConfirmationEmailSent') return `To ${String(d.to)}`;
  return null;
}

/** One order command as a form: its intent, any fields it asks for, and its button. */
function OrderActionForm({
  intent,
  label,
  busy,
  danger,
  children,
}: {
  intent: string;
  label: string;
  busy: boolean;
  danger?: boolean;
  children?: ReactNode;
}) {
  return (
    <Form method="post" className={children ? 'admin-filters' : undefined}>
      <input type="hidden" name="intent" value={intent} />
      {children}
      <button
        className={danger ? 'button button-danger' : 'button button-secondary'}
        type="submit"
        disabled={busy}
      >
        {label}
      </button>
    </Form>
  );
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, items, events, actions } = loaderData;
  const unavailable = (Object.keys(actions) as AdminOrderCommand['type'][]).flatMap((type) => {
    const option = actions[type];
    return option.allowed ? [] : [[type, option.reason] as const];
  });
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  return (
    <div className="container admin admin-editor">
      <p>
        <Link to="/admin?tab=orders">← Back to Admin</Link>
      </p>
      <h1>Order #{order.id}</h1>
      <Notice result={actionData ?? null} />
      <p>
        <span className={`badge badge-order-${order.status}`}>{order.status}</span>{' '}
        <span className="badge">{order.paymentStatus}</span>
        {order.trackingNumber ? <span className="muted"> Tracking: {order.trackingNumber}</span> : null}
      </p>
      <div className="admin-columns">
        <section className="card" aria-labelledby="order-lines">
          <h2 id="order-lines">Items</h2>
          <ul className="admin-list">
            {items.map((item) => (
              <li key={item.id}>
                <span>
                  {item.productName} × {item.quantity}
                </span>
                <span>{formatPrice(item.priceAtTime * item.quantity)}</span>
              </li>
            ))}
            <li>
              <strong>Total</strong>
              <strong>{formatPrice(order.totalAmount)}</strong>
            </li>
          </ul>
        </section>
        <section className="card" aria-labelledby="order-customer">
          <h2 id="order-customer">Customer</h2>
          <p>
            {order.firstName} {order.lastName}
            <br />
            {order.email}
            {order.phone ? (
              <>
                <br />
                {order.phone}
              </>
            ) : null}
          </p>
          <p>
            {order.address}
            <br />
            {order.postalCode} {order.city}
            <br />
            {order.country}
          </p>
          <p className="muted">Shipping: {order.shippingMethod}</p>
        </section>
      </div>
      <section className="card" aria-labelledby="order-actions">
        <h2 id="order-actions">Actions</h2>
        <div className="admin-stack">
          {actions.RecordPayment.allowed && (
            <OrderActionForm intent="record-payment" label="Record Payment" busy={busy} />
          )}
          {actions.ShipOrder.allowed && (
            <OrderActionForm intent="ship" label="Ship Order" busy={busy}>
              <div className="field">
                <label htmlFor="trackingNumber">Tracking number</label>
                <input id="trackingNumber" name="trackingNumber" required />
              </div>
            </OrderActionForm>
          )}
          {actions.MarkDelivered.allowed && (
            <OrderActionForm intent="deliver" label="Mark Delivered" busy={busy} />
          )}
          {actions.CancelOrder.allowed && (
            <OrderActionForm intent="cancel" label="Cancel Order" busy={busy} danger>
              <div className="field">
                <label htmlFor="reason">Cancellation reason (optional)</label>
                <input id="reason" name="reason" />
              </div>
            </OrderActionForm>
          )}
          {unavailable.length > 0 && (
            <div>
              <h3 className="admin-sub-heading">Not available now</h3>
              <ul className="admin-unavailable">
                {unavailable.map(([type, reason]) => (
                  <li key={type}>
                    <strong>{ACTION_LABELS[type]}</strong>: <span className="muted">{reason}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </section>
      <section className="card" aria-labelledby="order-history">
        <h2 id="order-history">History</h2>
        <ol className="admin-timeline">
          {events.map((event) => (
            <li key={event.version}>
              <strong>{EVENT_LABELS[event.type] ?? event.type}</strong>{' '}
              <span className="muted">{formatDateTime(event.createdAt)}</span>
              {eventDetail(event) ? <p>{eventDetail(event)}</p> : null}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
