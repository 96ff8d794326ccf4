/** The words of memberships, shared by the pages, the API and the tests. */
export const MEMBER_MESSAGES = {
  needsStripe: 'Paid tiers need Stripe: the site’s owner has not set up card payments yet.',
  tierNotFound: 'This tier is not offered any more.',
  alreadyPaid: 'You are already a paid member: manage your membership from your account.',
  noSubscription: 'You have no paid subscription to manage.',
  stripeUnreachable: 'Could not reach Stripe. Nothing was changed; please try again.',
  signInFirst: 'Sign in or create an account to become a member.',
  memberNotFound: 'Member not found',
  paysAlready:
    'This member pays through Stripe: cancel the subscription before giving a complimentary membership.',
  welcome: 'Welcome, member: thank you for your support.',
  comped: 'Complimentary membership given',
  noComp: 'This member has no complimentary membership',
  compEnded: 'Complimentary membership ended',
};

/** What a reader without access sees below a gated post's preview. */
export const PAYWALL_MESSAGES = {
  membersHeading: 'This post is for members',
  paidHeading: 'This post is for paying members',
  signUp: 'Sign up free',
  signIn: 'Sign in',
  upgrade: 'Become a paying member to read the whole post.',
  signInToRead: 'Sign in or sign up to read the whole post.',
  noTiers: 'Memberships are not open yet.',
};
