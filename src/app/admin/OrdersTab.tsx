import { Link } from 'react-router';
import { FULFILMENT_STATUSES, NO_SHIPPING } from '../../orders/fulfilment.ts';
import { PAYMENT_METHOD_LABELS, paymentStatusLabel } from '../../orders/payment-labels.ts';
import type { OrderView } from '../../orders/presenters.ts';
import { formatPrice } from '../../shop/price.ts';
import { useCurrency } from '../currency.ts';
import { AdminFilters, AdminItems, AdminPages } from './AdminList.tsx';
import { formatDate } from './format.ts';

export const ORDER_STATUS_FILTERS = [
  'all',
  'pending',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
  'expired',
] as const;
export const PAYMENT_STATUS_FILTERS = ['all', 'unpaid', 'paid', 'partially_refunded', 'refunded'] as const;
export const FULFILMENT_FILTERS = ['all', ...FULFILMENT_STATUSES] as const;
type Filters = {
  q: string;
  status: (typeof ORDER_STATUS_FILTERS)[number];
  payment: (typeof PAYMENT_STATUS_FILTERS)[number];
  fulfilment: (typeof FULFILMENT_FILTERS)[number];
};

export function OrdersTab({
  orders,
  filters,
  pagination,
}: {
  orders: OrderView[];
  filters: Filters;
  pagination: { page: number; pages: number; total: number };
}) {
  const currency = useCurrency();
  return (
    <div className="admin-stack">
      <AdminFilters
        noun="order"
        params={{ tab: 'orders' }}
        searches={[{ name: 'q', label: 'Search by email or order number', value: filters.q }]}
        selects={[
          { name: 'status', label: 'Status', options: ORDER_STATUS_FILTERS, value: filters.status },
          { name: 'payment', label: 'Payment', options: PAYMENT_STATUS_FILTERS, value: filters.payment },
          { name: 'fulfilment', label: 'Fulfilment', options: FULFILMENT_FILTERS, value: filters.fulfilment },
        ]}
      />
      <AdminItems items={orders} empty="No orders found">
        {(order) => (
          <li key={order.id} className="card admin-item">
            <div className="admin-item-head">
              <h3>
                <Link to={`/admin/orders/${order.id}`}>Order #{order.id}</Link>
              </h3>
              <span>
                <span className={`badge badge-order-${order.status}`}>{order.status}</span>{' '}
                <span className="badge">{paymentStatusLabel(order.paymentStatus)}</span>
                {order.shippingMethod === NO_SHIPPING ? <span className="badge">digital</span> : null}
                {order.refundNeeded ? <span className="badge badge-order-cancelled">to refund</span> : null}
              </span>
            </div>
            <p className="muted admin-meta">
              <span>
                {order.firstName} {order.lastName}
              </span>
              <span>{order.email}</span>
              <span>{formatPrice(order.totalAmount, currency)}</span>
              {order.paymentMethod ? <span>{PAYMENT_METHOD_LABELS[order.paymentMethod]}</span> : null}
              <span>{formatDate(order.createdAt)}</span>
            </p>
          </li>
        )}
      </AdminItems>
      <AdminPages label="Order pages" params={{ tab: 'orders', ...filters }} pagination={pagination} />
    </div>
  );
}
