import { NO_SHIPPING } from '../../../orders/fulfilment.ts';
import { lineName } from '../../../shop/line-name.ts';
import { formatPrice } from '../../../shop/price.ts';
import { useCurrency } from '../../currency.ts';

export type OrderLineView = { id: number; name: string; quantity: number; unitPrice: number };

/** An order's discount for its summary; undefined when it was placed without a code. */
export function orderDiscount(order: {
  discountCode: string | null;
  discountAmount: number;
}): { code: string; amount: number } | undefined {
  return order.discountCode ? { code: order.discountCode, amount: order.discountAmount } : undefined;
}

/** An order's shipping for its summary; undefined when it ships nothing (every line a download). */
export function orderShipping(order: {
  shippingMethod: string;
  shippingCost: number;
}): { method: string; cost: number } | undefined {
  return order.shippingMethod === NO_SHIPPING
    ? undefined
    : { method: order.shippingMethod, cost: order.shippingCost };
}

/** The order summary's discount line: the code and what it takes off. */
export function DiscountRow({ code, amount }: { code: string; amount: number }) {
  const currency = useCurrency();
  return (
    <p className="summary-row">
      <span>Discount ({code})</span>
      <span>−{formatPrice(amount, currency)}</span>
    </p>
  );
}

/** An order's lines and total, as the customer sees them (the order page, the look-up). */
export function OrderLines({
  lines,
  total,
  shipping,
  discount,
}: {
  lines: OrderLineView[];
  total: number;
  /** Absent for an order that ships nothing. */
  shipping?: { method: string; cost: number };
  /** Absent for an order placed without a code. */
  discount?: { code: string; amount: number };
}) {
  const currency = useCurrency();
  return (
    <>
      <ul className="checkout-lines">
        {lines.map((line) => (
          <li key={line.id} className="checkout-line">
            <span>
              {line.quantity} × {line.name}
            </span>
            <span>{formatPrice(line.quantity * line.unitPrice, currency)}</span>
          </li>
        ))}
      </ul>
      {shipping && (
        <p className="summary-row">
          <span>Shipping ({shipping.method})</span>
          <span>{shipping.cost === 0 ? 'Free' : formatPrice(shipping.cost, currency)}</span>
        </p>
      )}
      {discount && <DiscountRow code={discount.code} amount={discount.amount} />}
      <p className="summary-row summary-total">
        <span>Total</span>
        <span>{formatPrice(total, currency)}</span>
      </p>
    </>
  );
}

/** A placed order's summary from its stored rows: the customer's order page and 'My orders'. */
export function PlacedOrderLines({
  order,
  items,
}: {
  order: {
    totalAmount: number;
    shippingMethod: string;
    shippingCost: number;
    discountCode: string | null;
    discountAmount: number;
  };
  items: { id: number; productName: string; variant: string | null; quantity: number; priceAtTime: number }[];
}) {
  return (
    <OrderLines
      lines={items.map((i) => ({
        id: i.id,
        name: lineName(i.productName, i.variant),
        quantity: i.quantity,
        unitPrice: i.priceAtTime,
      }))}
      total={order.totalAmount}
      shipping={orderShipping(order)}
      discount={orderDiscount(order)}
    />
  );
}
