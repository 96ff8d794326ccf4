import { MEMBER_MESSAGES, PAYWALL_MESSAGES } from '../../members/messages.ts';
import { formatPrice } from '../../shop/price.ts';
import type { Tier } from '../../shop/tiers.ts';

/** Each tier with a plain form per price, posted to /membership: subscribing works without JavaScript. */
export function TierForms({
  tiers,
  currency,
  stripe,
  returnTo,
}: {
  tiers: Tier[];
  currency: string;
  stripe: boolean;
  returnTo: string;
}) {
  if (tiers.length === 0) return <p>{PAYWALL_MESSAGES.noTiers}</p>;
  return (
    <ul className="tiers">
      {tiers.map((tier) => (
        <li key={tier.id} className="tier card">
          <h3>{tier.name}</h3>
          {tier.description && <p>{tier.description}</p>}
          {stripe ? (
            (['month', 'year'] as const).map((interval) => (
              <form key={interval} method="post" action="/membership">
                <input type="hidden" name="tierId" value={tier.id} />
                <input type="hidden" name="interval" value={interval} />
                <input type="hidden" name="returnTo" value={returnTo} />
                <button type="submit">
                  {`${formatPrice(interval === 'month' ? tier.monthlyPrice : tier.yearlyPrice, currency)} a ${interval}`}
                </button>
              </form>
            ))
          ) : (
            <p className="muted">{`${formatPrice(tier.monthlyPrice, currency)} a month · ${formatPrice(tier.yearlyPrice, currency)} a year`}</p>
          )}
        </li>
      ))}
      {!stripe && <li className="muted">{MEMBER_MESSAGES.needsStripe}</li>}
    </ul>
  );
}
