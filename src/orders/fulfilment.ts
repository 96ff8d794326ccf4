import type { OrderStatus } from './domain.ts';

/** The shipping method of an order with nothing to ship: every line is a download. */
export const NO_SHIPPING = 'none';

/**
 * The Orders tab's fulfilment filter. Physical orders by how far their parcel has gone;
 * digital-only orders apart, since they complete when paid.
 */
export const FULFILMENT_STATUSES = ['unfulfilled', 'shipped', 'delivered', 'digital'] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];

/** The order statuses of a physical order at each step; cancelled and expired orders are at none. */
export const FULFILMENT_ORDER_STATUSES: Record<Exclude<FulfilmentStatus, 'digital'>, OrderStatus[]> = {
  unfulfilled: ['pending', 'processing'],
  shipped: ['shipped'],
  delivered: ['delivered'],
};
