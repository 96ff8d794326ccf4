import { PAYWALL_MESSAGES } from '../../../members/messages.ts';
import type { Tier } from '../../../shop/tiers.ts';
import { TierForms } from '../TierForms.tsx';

export type PaywallData = {
  visibility: 'members' | 'paid';
  signedIn: boolean;
  tiers: Tier[];
  stripe: boolean;
  /** The post's own path: a reader who signs in or subscribes comes back to it. */
  returnTo: string;
};

/** Below a gated post's preview: sign up, sign in, or the tiers' prices to subscribe (plain forms). */
export function PaywallCard({ paywall, currency }: { paywall: PaywallData; currency: string }) {
  const back = encodeURIComponent(paywall.returnTo);
  return (
    <section className="paywall card" aria-labelledby="paywall-heading">
      <h2 id="paywall-heading">
        {paywall.visibility === 'paid' ? PAYWALL_MESSAGES.paidHeading : PAYWALL_MESSAGES.membersHeading}
      </h2>
      {!paywall.signedIn && (
        <>
          <p>{PAYWALL_MESSAGES.signInToRead}</p>
          <p>
            <a className="button" href={`/signup?redirectTo=${back}`}>
              {PAYWALL_MESSAGES.signUp}
            </a>{' '}
            <a href={`/login?redirectTo=${back}`}>{PAYWALL_MESSAGES.signIn}</a>
          </p>
        </>
      )}
      {paywall.visibility === 'paid' && (
        <>
          {paywall.signedIn && <p>{PAYWALL_MESSAGES.upgrade}</p>}
          <TierForms
            tiers={paywall.tiers}
            currency={currency}
            stripe={paywall.stripe}
            returnTo={paywall.returnTo}
          />
        </>
      )}
    </section>
  );
}
