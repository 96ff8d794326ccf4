/** The words of memberships, shared by the pages, the API and the tests. */
export const MEMBER_MESSAGES = {
  needsStripe: 'Paid tiers need Stripe: the site’s owner has not set up card payments yet.',
  tierNotFound: 'This tier is not offered any more.',
  alreadyPaid: 'You are already a paid member: manage your membership from your account.',
  noSubscription: 'You have no paid subscription to manage.',
  stripeUnreachable: 'Could not reach Stripe. Nothing was changed; please try again.',
  signInFirst: 'Sign in or create an account to become a member.',
  memberNotFound: 'Member not found',
  welcome: 'Welcome, member: thank you for your support.',
};
