import type { OrderStatus, PaymentStatus } from './domain.ts';

export function isAwaitingPayment(order: { status: OrderStatus; paymentStatus: PaymentStatus }): boolean {
  return order.status === 'pending' && order.paymentStatus === 'unpaid';
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
