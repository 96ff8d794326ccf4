/**
 * The order's rules as pure functions: decide(state, command) → events, evolve(state, event).
 * No I/O here; the store folds events with evolve and asks decide what may happen next.
 */

export type OrderStatus = 'pending' | 'processing' | 'shipped' | 'delivered' | 'cancelled';
export type PaymentStatus = 'unpaid' | 'paid' | 'refunded';

export type OrderLine = {
  /** The projection's order_items id, fixed when the order is placed so a rebuild reproduces it. */
  lineId: number;
  productId: number | null;
  productName: string;
  quantity: number;
  /** Unit price in cents at the time of the order. */
  priceAtTime: number;
};

export type OrderPlacedData = {
  userId: number | null;
  sessionId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  shippingMethod: string;
  notes: string | null;
  idempotencyKey: string | null;
  items: OrderLine[];
  totalAmount: number;
};

export type OrderEvent =
  | { type: 'OrderPlaced'; data: OrderPlacedData }
  | { type: 'PaymentRecorded'; data: Record<string, never> }
  | { type: 'OrderShipped'; data: { trackingNumber: string } }
  | { type: 'OrderDelivered'; data: Record<string, never> }
  | { type: 'OrderCancelled'; data: { reason: string | null; refunded: boolean } }
  | { type: 'ConfirmationEmailSent'; data: { to: string } };

export type OrderEventType = OrderEvent['type'];

export type OrderCommand =
  | { type: 'PlaceOrder'; order: OrderPlacedData }
  | { type: 'RecordPayment' }
  | { type: 'ShipOrder'; trackingNumber: string }
  | { type: 'MarkDelivered' }
  | { type: 'CancelOrder'; reason?: string }
  | { type: 'RecordConfirmationSent'; to: string };

/** The commands the admin area may send. */
export type AdminOrderCommand = Extract<
  OrderCommand,
  { type: 'RecordPayment' | 'ShipOrder' | 'MarkDelivered' | 'CancelOrder' }
>;

export type OrderState = {
  version: number;
  placed: OrderPlacedData | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  trackingNumber: string | null;
  confirmationSent: boolean;
  cancelReason: string | null;
};

export const initialOrderState: OrderState = {
  version: 0,
  placed: null,
  status: 'pending',
  paymentStatus: 'unpaid',
  trackingNumber: null,
  confirmationSent: false,
  cancelReason: null,
};

/** A command the rules refuse: 409 when the order's state forbids it, 422 when the input is unusable. */
export class OrderRuleError extends Error {
  readonly status: 409 | 422 | 404;
  constructor(status: 409 | 422 | 404, message: string) {
    super(message);
    this.status = status;
  }
}

export function evolve(state: OrderState, event: OrderEvent): OrderState {
  const version = state.version + 1;
  switch (event.type) {
    case 'OrderPlaced':
      return { ...initialOrderState, version, placed: event.data };
    case 'PaymentRecorded':
      return { ...state, version, paymentStatus: 'paid', status: 'processing' };
    case 'OrderShipped':
      return { ...state, version, status: 'shipped', trackingNumber: event.data.trackingNumber };
    case 'OrderDelivered':
      return { ...state, version, status: 'delivered' };
    case 'OrderCancelled':
      return {
        ...state,
        version,
        status: 'cancelled',
        paymentStatus: event.data.refunded ? 'refunded' : state.paymentStatus,
        cancelReason: event.data.reason,
      };
    case 'ConfirmationEmailSent':
      return { ...state, version, confirmationSent: true };
  }
}

export function fold(events: OrderEvent[]): OrderState {
  return events.reduce(evolve, initialOrderState);
}

export function decide(state: OrderState, command: OrderCommand): OrderEvent[] {
  if (command.type === 'PlaceOrder') {
    if (state.placed) throw new OrderRuleError(409, 'This order has already been placed.');
    const { items, totalAmount } = command.order;
    if (items.length === 0) throw new OrderRuleError(422, 'An order needs at least one item.');
    const sum = items.reduce((n, i) => n + i.quantity * i.priceAtTime, 0);
    if (sum !== totalAmount) throw new OrderRuleError(422, 'The order total does not match its lines.');
    return [{ type: 'OrderPlaced', data: command.order }];
  }
  if (!state.placed) throw new OrderRuleError(404, 'Order not found');
  switch (command.type) {
    case 'RecordPayment':
      if (state.status === 'cancelled') throw new OrderRuleError(409, 'A cancelled order cannot be paid.');
      if (state.paymentStatus !== 'unpaid')
        throw new OrderRuleError(409, 'Payment has already been recorded.');
      return [{ type: 'PaymentRecorded', data: {} }];
    case 'ShipOrder': {
      const trackingNumber = command.trackingNumber.trim();
      if (!trackingNumber) throw new OrderRuleError(422, 'A tracking number is required to ship an order.');
      if (state.status !== 'processing')
        throw new OrderRuleError(
          409,
          state.status === 'pending'
            ? 'Record the payment before shipping the order.'
            : `An order that is ${state.status} cannot be shipped.`,
        );
      return [{ type: 'OrderShipped', data: { trackingNumber } }];
    }
    case 'MarkDelivered':
      if (state.status !== 'shipped')
        throw new OrderRuleError(409, 'Only a shipped order can be marked delivered.');
      return [{ type: 'OrderDelivered', data: {} }];
    case 'CancelOrder':
      if (state.status !== 'pending' && state.status !== 'processing')
        throw new OrderRuleError(409, `An order that is ${state.status} cannot be cancelled.`);
      return [
        {
          type: 'OrderCancelled',
          data: { reason: command.reason?.trim() || null, refunded: state.paymentStatus === 'paid' },
        },
      ];
    case 'RecordConfirmationSent':
      if (state.confirmationSent)
        throw new OrderRuleError(409, 'The confirmation email has already been sent.');
      return [{ type: 'ConfirmationEmailSent', data: { to: command.to } }];
  }
}

export type CommandOption = { allowed: true } | { allowed: false; reason: string };

/** Each admin command with a representative input: what decide() is asked about. */
const ADMIN_COMMAND_SAMPLES: AdminOrderCommand[] = [
  { type: 'RecordPayment' },
  // Any non-empty tracking number: the question is whether the order's state allows shipping.
  { type: 'ShipOrder', trackingNumber: 'sample' },
  { type: 'MarkDelivered' },
  { type: 'CancelOrder' },
];

/**
 * Which admin commands the order's state allows, and for the others the rule that forbids
 * them, in decide()'s own words: the admin page offers exactly what decide() would accept.
 */
export function adminCommandOptions(state: OrderState): Record<AdminOrderCommand['type'], CommandOption> {
  const options = {} as Record<AdminOrderCommand['type'], CommandOption>;
  for (const command of ADMIN_COMMAND_SAMPLES) {
    try {
      decide(state, command);
      options[command.type] = { allowed: true };
    } catch (error) {
      if (!(error instanceof OrderRuleError)) throw error;
      options[command.type] = { allowed: false, reason: error.message };
    }
  }
  return options;
}
