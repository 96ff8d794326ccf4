import { formatPrice } from '../../../shop/price.ts';
import { useCurrency } from '../../currency.ts';

export type OrderLineView = { id: number; name: string; quantity: number; unitPrice: number };

/** An order's lines and total, as the customer sees them (the order page, the look-up). */
export function OrderLines({
  lines,
  total,
  shipping,
}: {
  lines: OrderLineView[];
  total: number;
  /** Absent for an order that ships nothing. */
  shipping?: { method: string; cost: number };
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
      <p className="summary-row summary-total">
        <span>Total</span>
        <span>{formatPrice(total, currency)}</span>
      </p>
    </>
  );
}
