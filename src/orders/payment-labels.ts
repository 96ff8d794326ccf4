import type { OrderStatus, PaymentMethod, PaymentStatus } from './domain.ts';

export function isAwaitingPayment(order: { status: OrderStatus; paymentStatus: PaymentStatus }): boolean {
  return order.status === 'pending' && order.paymentStatus === 'unpaid';
}

/** The admin's words for how an order was paid (the Orders tab, the order's page). */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  stripe: 'Card (Stripe)',
  manual: 'Manual',
  free: 'Free order',
};

/** The admin's words for a payment status: 'partially_refunded' → 'Partially refunded'. */
export function paymentStatusLabel(status: PaymentStatus): string {
  return status[0].toUpperCase() + status.slice(1).replace('_', ' ');
}

/** The customer's words for where their payment stands (the order page, the lookup, the API). */
export function paymentStateLabel(
  order: { status: OrderStatus; paymentStatus: PaymentStatus },
  returnedFromPayment: boolean,
): string {
  if (order.paymentStatus === 'refunded') return 'Refunded';
  if (order.paymentStatus === 'partially_refunded') return 'Payment received (partly refunded)';
  if (order.paymentStatus === 'paid') return 'Payment received';
  if (order.status === 'expired') return 'Expired: not paid in time';
  if (order.status === 'cancelled') return 'Cancelled';
  return returnedFromPayment ? 'Waiting for payment confirmation' : 'Awaiting payment';
}
