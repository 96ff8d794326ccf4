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

/** An order's tax for its summary; undefined when it was charged none. */
export function orderTax(order: { taxAmount: number; taxIncluded: boolean }): OrderTaxView | undefined {
  return order.taxAmount > 0 ? { amount: order.taxAmount, included: order.taxIncluded } : undefined;
}
export type OrderTaxView = { amount: number; included: boolean; label?: string };

/** The tax line: added to the total, or (prices entered with tax) the part of it that is tax. */
export function TaxRow({ amount, included, label }: OrderTaxView) {
  const currency = useCurrency();
  const named = label ? ` (${label})` : '';
  return (
    <p className="summary-row">
      <span>{included ? `Including tax${named}` : `Tax${named}`}</span>
      <span>{formatPrice(amount, currency)}</span>
    </p>
  );
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
  tax,
}: {
  lines: OrderLineView[];
  total: number;
  /** Absent for an order charged no tax. */
  tax?: OrderTaxView;
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
      {tax && !tax.included && <TaxRow {...tax} />}
      <p className="summary-row summary-total">
        <span>Total</span>
        <span>{formatPrice(total, currency)}</span>
      </p>
      {tax?.included && <TaxRow {...tax} />}
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
    taxAmount: number;
    taxIncluded: boolean;
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
      tax={orderTax(order)}
    />
  );
}
