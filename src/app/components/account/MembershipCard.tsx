import { formatDate } from '../../../blog/reading.ts';
import type { Membership } from '../../../identity/membership.ts';

const STATUS_WORDS: Record<Membership['status'], string> = {
  free: 'You are a free member.',
  paid: 'You are a paying member.',
  comped: 'You have a complimentary membership.',
  past_due: 'Your last payment failed: update your card to keep reading.',
};

/** The Account page's membership: its state, and Stripe's billing portal (a plain form) or the tiers. */
export function MembershipCard({
  membership,
  tierName,
  privateFeed,
}: {
  membership: Membership;
  tierName: string | null;
  /** The member's private podcast feed, once asked for. */
  privateFeed: string | null;
}) {
  const end = membership.currentPeriodEnd;
  return (
    <section className="card" aria-labelledby="membership-heading" id="membership">
      <h2 id="membership-heading">Membership</h2>
      <p>{`${STATUS_WORDS[membership.status]}${tierName ? ` Tier: ${tierName}.` : ''}`}</p>
      {end && (
        <p className="muted">
          {membership.status === 'comped'
            ? `Until ${formatDate(end)}.`
            : membership.cancelAtPeriodEnd
              ? `Cancelled: you keep reading until ${formatDate(end)}.`
              : `Renews on ${formatDate(end)}.`}
        </p>
      )}
      {membership.status === 'paid' || membership.status === 'past_due' ? (
        <form method="post">
          <input type="hidden" name="intent" value="billing-portal" />
          <button type="submit" className="button">
            Manage billing
          </button>
        </form>
      ) : (
        membership.status === 'free' && (
          <a className="button" href="/membership">
            Become a paying member
          </a>
        )
      )}
      {membership.status !== 'free' && (
        <>
          <h3>Private podcast feed</h3>
          <p className="muted">
            Your members’ episodes in your podcast app. Keep the address to yourself; a new one stops the old.
          </p>
          {privateFeed && (
            <p>
              <code className="private-feed">{privateFeed}</code>
            </p>
          )}
          <form method="post">
            <input type="hidden" name="intent" value="private-feed" />
            <button type="submit" className="button button-secondary">
              {privateFeed ? 'Revoke and make a new address' : 'Get my private feed'}
            </button>
          </form>
        </>
      )}
    </section>
  );
}
