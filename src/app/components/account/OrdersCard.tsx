import type { AccountOrder } from '../../../orders/lists.ts';
import { isAwaitingPayment, paymentStateLabel } from '../../../orders/payment-labels.ts';
import { formatDate } from '../../admin/format.ts';
import { Downloads } from '../shop/Downloads.tsx';
import { OrderDocuments } from '../shop/OrderDocuments.tsx';
import { PlacedOrderLines } from '../shop/OrderLines.tsx';

/** 'My orders': each order's status, payment, lines, tracking and downloads; the order page for the rest. */
export function OrdersCard({ orders }: { orders: AccountOrder[] }) {
  return (
    <section className="card account-card" id="orders" aria-labelledby="orders-heading">
      <h2 id="orders-heading">My orders</h2>
      {orders.length === 0 ? (
        <p className="muted">
          No orders yet. <a href="/shop">Visit the shop</a>
        </p>
      ) : (
        <ul className="account-orders">
          {orders.map(({ order, items, downloads, key }) => (
            <li key={order.id} className="account-order" data-testid="account-order">
              <h3>
                <a href={`/orders/${order.id}?key=${key}`}>Order #{order.id}</a>{' '}
                <span className="muted account-order-date">
                  <time dateTime={order.createdAt}>{formatDate(order.createdAt)}</time>
                </span>
              </h3>
              <p className="account-order-state">
                <span>
                  Status: <strong>{order.status}</strong>
                </span>
                <span>
                  Payment: <strong>{paymentStateLabel(order, false)}</strong>
                  {isAwaitingPayment(order) && (
                    <>
                      {' '}
                      (<a href={`/orders/${order.id}?key=${key}`}>pay now</a>)
                    </>
                  )}
                </span>
                {order.trackingNumber && (
                  <span>
                    Tracking{order.carrier ? ` (${order.carrier})` : ''}:{' '}
                    {order.trackingUrl ? (
                      <a href={order.trackingUrl}>{order.trackingNumber}</a>
                    ) : (
                      order.trackingNumber
                    )}
                  </span>
                )}
              </p>
              <PlacedOrderLines order={order} items={items} />
              {order.invoiceNumber && (
                <OrderDocuments
                  base={`/orders/${order.id}`}
                  query={`?key=${key}`}
                  documents={[{ number: order.invoiceNumber, kind: 'invoice' }]}
                />
              )}
              <Downloads downloads={downloads} inOrder={order.id} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
