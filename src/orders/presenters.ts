import { taxAdded } from '../shop/tax-rules.ts';
import type { OrderStatus, PaymentMethod, PaymentStatus } from './domain.ts';
import type { StoredEvent } from './store.ts';

export type OrderSummary = {
  id: number;
  totalAmount: number;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  customerName: string;
  customerEmail: string;
};

export type OrderView = {
  id: number;
  userId: number | null;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  totalAmount: number;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  shippingMethod: string;
  /** Cents, included in totalAmount. */
  shippingCost: number;
  /** The discount code applied, and what it took off (cents, out of totalAmount). */
  discountCode: string | null;
  discountAmount: number;
  /** The lines' tax (cents): added to the total, or a part of it when taxIncluded. */
  taxAmount: number;
  taxIncluded: boolean;
  /** The tax given back by refunds (cents, a part of refundedAmount). */
  refundedTax: number;
  /** The invoice of its payment (2026-0001); null until paid, and for a free order. */
  invoiceNumber: string | null;
  /** The order's sums (cents): total = subtotal − discount + shipping (+ tax unless included). */
  subtotal: number;
  tax: number;
  shipping: number;
  discount: number;
  total: number;
  trackingNumber: string | null;
  carrier: string | null;
  /** The carrier's tracking page for this order, as mailed to the customer. */
  trackingUrl: string | null;
  notes: string | null;
  confirmationSent: boolean;
  paymentMethod: PaymentMethod | null;
  /** Stripe's payment intent id, or the admin's reference for a manual payment. */
  paymentReference: string | null;
  paidAmount: number;
  refundedAmount: number;
  /** Until when an unpaid order holds its stock; null when it never expires. */
  holdUntil: string | null;
  refundNeeded: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
};

export type OrderItemView = {
  id: number;
  productId: number | null;
  productName: string;
  /** The variant's label, 'Size: M'; null for a product without options. */
  variant: string | null;
  quantity: number;
  priceAtTime: number;
  /** Cents: the line's tax. */
  taxAmount: number;
};

export type OrderHistoryEvent = {
  version: number;
  type: StoredEvent['type'];
  data: unknown;
  metadata: Record<string, unknown>;
  createdAt: string;
};

export type OrderRow = {
  id: number;
  user_id: number | null;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  address: string;
  city: string;
  postal_code: string;
  country: string;
  total_amount: number;
  status: OrderStatus;
  payment_status: PaymentStatus;
  shipping_method: string;
  shipping_cost: number;
  discount_code: string | null;
  discount_amount: number;
  tax_amount: number;
  tax_included: boolean;
  refunded_tax: number;
  invoice_number: string | null;
  tracking_number: string | null;
  carrier: string | null;
  tracking_url: string | null;
  notes: string | null;
  confirmation_sent: boolean;
  payment_method: PaymentMethod | null;
  payment_reference: string | null;
  paid_amount: number;
  refunded_amount: number;
  hold_until: Date | null;
  refund_needed: boolean;
  version: number;
  session_id: string | null;
  created_at: Date;
  updated_at: Date;
};

export const ORDER_COLUMNS = [
  'id',
  'user_id',
  'session_id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'address',
  'city',
  'postal_code',
  'country',
  'total_amount',
  'status',
  'payment_status',
  'shipping_method',
  'shipping_cost',
  'discount_code',
  'discount_amount',
  'tax_amount',
  'tax_included',
  'refunded_tax',
  'invoice_number',
  'tracking_number',
  'carrier',
  'tracking_url',
  'notes',
  'confirmation_sent',
  'payment_method',
  'payment_reference',
  'paid_amount',
  'refunded_amount',
  'hold_until',
  'refund_needed',
  'version',
  'created_at',
  'updated_at',
];

export function presentOrder(row: OrderRow): OrderView {
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    address: row.address,
    city: row.city,
    postalCode: row.postal_code,
    country: row.country,
    totalAmount: row.total_amount,
    status: row.status,
    paymentStatus: row.payment_status,
    shippingMethod: row.shipping_method,
    shippingCost: row.shipping_cost,
    discountCode: row.discount_code,
    discountAmount: row.discount_amount,
    taxAmount: row.tax_amount,
    taxIncluded: row.tax_included,
    refundedTax: row.refunded_tax,
    invoiceNumber: row.invoice_number,
    subtotal:
      row.total_amount - row.shipping_cost + row.discount_amount - taxAdded(row.tax_amount, row.tax_included),
    tax: row.tax_amount,
    shipping: row.shipping_cost,
    discount: row.discount_amount,
    total: row.total_amount,
    trackingNumber: row.tracking_number,
    carrier: row.carrier,
    trackingUrl: row.tracking_url,
    notes: row.notes,
    confirmationSent: row.confirmation_sent,
    paymentMethod: row.payment_method,
    paymentReference: row.payment_reference,
    paidAmount: row.paid_amount,
    refundedAmount: row.refunded_amount,
    holdUntil: row.hold_until ? row.hold_until.toISOString() : null,
    refundNeeded: row.refund_needed,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function summarize(
  order: Pick<
    OrderView,
    'id' | 'totalAmount' | 'status' | 'paymentStatus' | 'firstName' | 'lastName' | 'email'
  >,
): OrderSummary {
  return {
    id: order.id,
    totalAmount: order.totalAmount,
    status: order.status,
    paymentStatus: order.paymentStatus,
    customerName: [order.firstName, order.lastName].filter(Boolean).join(' '),
    customerEmail: order.email,
  };
}
