import { z } from 'zod';
import { PRODUCT_CATEGORIES, PRODUCT_STATUSES } from '../shop/product-schema.ts';

/**
 * The shapes of the API's answers, for the OpenAPI document only (src/api/openapi.ts): the
 * presenters build them, and tests/integration/openapi.test.ts checks real answers against them.
 * Each has an id, so the document names it once under components.schemas.
 */

const named = <S extends z.ZodType>(id: string, description: string, schema: S) =>
  schema.meta({ id, description });
/** An answer the reference describes in words only (reports, exports' progress, provider data). */
const described = (id: string, description: string) => named(id, description, z.looseObject({}));

const timestamp = z.string().meta({ description: 'ISO 8601 date and time' });

export const ApiError = named(
  'ApiError',
  'Every refusal and failure: a message a reader can act on; the checkout adds one message per field.',
  z.object({
    message: z.string(),
    errors: z.record(z.string(), z.string()).optional(),
  }),
);
export const Message = named('Message', 'A confirmation to show.', z.object({ message: z.string() }));

const pagination = z.object({ page: z.int(), limit: z.int(), total: z.int(), pages: z.int() });

const postAuthor = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  username: z.string().nullable(),
  importedByline: z.boolean().optional(),
});
export const PostSummary = named(
  'PostSummary',
  'A post as lists show it (never the author’s email).',
  z.object({
    id: z.int(),
    title: z.string(),
    slug: z.string(),
    excerpt: z.string(),
    category: z.string(),
    tags: z.array(z.string()),
    featuredImage: z.string().nullable(),
    featuredImageFile: z.string().nullable(),
    youtubeVideoId: z.string().nullable(),
    podcastUrl: z.string().nullable(),
    status: z.string(),
    viewCount: z.int(),
    createdAt: timestamp,
    updatedAt: timestamp,
    publishedAt: timestamp.nullable(),
    version: z.int().meta({ description: 'Moves on with every save; send it back as baseVersion.' }),
    visibility: z.enum(['public', 'members', 'paid']),
    visibilityTiers: z
      .array(z.int())
      .meta({ description: 'For a paid post, the tiers that read it (none: every tier).' }),
    author: postAuthor,
  }),
);
export const Post = named(
  'Post',
  'One post with its body (markdown and rendered HTML) and its search and social overrides.',
  PostSummary.extend({
    content: z.string(),
    contentHtml: z.string(),
    metaTitle: z.string().nullable(),
    metaDescription: z.string().nullable(),
    canonicalUrl: z.string().nullable(),
    socialImage: z.string().nullable(),
    locked: z.boolean().meta({
      description: 'The reader may not read the whole post: content and contentHtml are its public preview.',
    }),
  }),
);
export const PostList = named(
  'PostList',
  'A page of posts, newest first.',
  z.object({ posts: z.array(PostSummary), pagination }),
);
export const PostOne = named('PostOne', 'One post, by id or slug.', z.object({ post: Post }));
export const PostSaved = named(
  'PostSaved',
  'The post as saved.',
  z.object({ message: z.string(), post: Post }),
);
export const Categories = named(
  'Categories',
  'Category names.',
  z.object({ categories: z.array(z.string()) }),
);
export const Tags = named('Tags', 'Tags in use.', z.object({ tags: z.array(z.string()) }));
export const Autosaved = named(
  'Autosaved',
  'The editor’s draft copy was kept; the post itself is unchanged.',
  z.object({ version: z.int(), savedAt: timestamp }),
);
export const Revisions = described(
  'Revisions',
  '{ revisions: [{ id, kind, version, author, title, excerpt, content, settings, createdAt, savedAt }] }, newest first.',
);
export const PreviewLink = named(
  'PreviewLink',
  'A secret link to the post as saved.',
  z.object({ url: z.string(), expiresAt: timestamp }),
);

const publicComment = z.object({
  id: z.int(),
  postId: z.int(),
  parentId: z.int().nullable(),
  author: z.string(),
  content: z.string(),
  likes: z.int(),
  byAuthor: z.boolean(),
  createdAt: timestamp,
});
export const CommentPage = named(
  'CommentPage',
  'A post’s approved comments, newest first, each with its approved replies (oldest first).',
  z.object({
    comments: z.array(publicComment.extend({ replies: z.array(publicComment) })),
    total: z.int(),
    nextBefore: z
      .int()
      .nullable()
      .meta({ description: 'Pass as before for the next page; null on the last.' }),
  }),
);
export const CommentCreated = named(
  'CommentCreated',
  'The comment as received; pending until approved unless it is an admin’s reply.',
  z.object({
    comment: z.object({
      id: z.int(),
      postId: z.int(),
      parentId: z.int().nullable(),
      author: z.string(),
      content: z.string(),
      approved: z.boolean(),
    }),
    message: z.string(),
  }),
);
export const CommentLikes = named(
  'CommentLikes',
  'The comment’s likes.',
  z.object({ id: z.int(), likes: z.int() }),
);
export const ModerationList = described(
  'ModerationList',
  '{ comments: [comment with email and post { id, title }], pagination { total, pages } } (pending: comments only).',
);

export const Product = named(
  'Product',
  'A product; prices are integer cents, stock null means unlimited. A product with options sells its variants (a variant’s price null: the product’s), and its stock is theirs together.',
  z.object({
    id: z.int(),
    name: z.string(),
    description: z.string(),
    price: z.int(),
    image: z.string().nullable(),
    images: z.array(z.string()),
    category: z.enum(PRODUCT_CATEGORIES),
    stock: z.int().nullable(),
    featured: z.boolean(),
    status: z.enum(PRODUCT_STATUSES),
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    variants: z.array(
      z.object({
        id: z.int(),
        options: z.record(z.string(), z.string()),
        label: z.string().meta({ description: 'e.g. Size: M, Colour: Black' }),
        stock: z.int().nullable(),
        sku: z.string(),
        price: z.int().nullable(),
        image: z.string().nullable(),
      }),
    ),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export const ProductList = named(
  'ProductList',
  'A page of products.',
  z.object({ products: z.array(Product), pagination }),
);
export const FeaturedProducts = named(
  'FeaturedProducts',
  'Featured products.',
  z.object({ products: z.array(Product) }),
);
export const ProductFile = described(
  'ProductFile',
  'A downloadable file: { id, name, fileName, contentType, size, createdAt }.',
);
export const ProductFiles = described('ProductFiles', '{ files: [ProductFile] }.');

const cartLine = z.object({
  id: z.int(),
  productId: z.int(),
  variantId: z.int().nullable(),
  variant: z.string().nullable().meta({ description: 'The variant’s label, e.g. Size: M' }),
  quantity: z.int(),
  product: z.object({
    image: z.string().nullable(),
    name: z.string(),
    category: z.enum(PRODUCT_CATEGORIES),
    price: z.int(),
    stock: z.int().nullable(),
    digital: z.boolean(),
  }),
});
const notices = z.array(z.string()).meta({ description: 'Lines dropped since they were added.' });
export const Cart = named(
  'Cart',
  'The visitor’s own cart; amounts in integer cents.',
  z.object({
    cart: z.object({ items: z.array(cartLine) }),
    summary: z.object({ totalItems: z.int(), totalPrice: z.int(), digitalOnly: z.boolean() }),
    notices,
  }),
);
export const CartItems = named(
  'CartItems',
  'The cart’s lines only.',
  z.object({ items: z.array(cartLine), notices }),
);
export const CartCount = named('CartCount', 'How many items the cart holds.', z.object({ count: z.int() }));
export const CartAdded = named(
  'CartAdded',
  'The line the product is now on.',
  z.object({
    title: z.string(),
    message: z.string(),
    item: z.object({ id: z.int(), productId: z.int(), variantId: z.int().nullable(), quantity: z.int() }),
  }),
);
export const CartLineQuantity = named(
  'CartLineQuantity',
  'The line’s quantity now.',
  z.object({ id: z.int(), quantity: z.int() }),
);

export const OrderPlaced = described(
  'OrderPlaced',
  'The order (id, totalAmount in cents, status, customerName, customerEmail, lines…) and the payment’s next step (e.g. a Stripe checkout URL).',
);
export const MyOrders = described(
  'MyOrders',
  '{ orders: [order with its lines (each with its variant’s label or null), payment state and tracking] }.',
);
export const AdminOrders = described(
  'AdminOrders',
  '{ orders, pagination }: orders with their payment state.',
);
export const AdminOrder = described(
  'AdminOrder',
  'The order (with subtotal, tax, shipping, discount and total in cents, and invoiceNumber once paid), its lines (each with `variant`, the variant’s label such as Size: M, or null, and its taxAmount), its events, its currency and its download grants (absolute links, counts, expiry).',
);
export const Discount = described(
  'Discount',
  'A discount code: { id, code, type, value, usageLimit, perEmailLimit, startsAt, endsAt, minSubtotal, productIds, active, uses, revenue }.',
);
export const Discounts = described('Discounts', '{ discounts: [Discount] }.');
export const TaxRate = described(
  'TaxRate',
  'A tax rate: { id, country (ISO 3166-1 code), category (a product category, or null: every other product), rate (percent), name }.',
);
export const TaxRates = described('TaxRates', '{ taxRates: [TaxRate] }.');

export const Settings = described(
  'Settings',
  '{ settings }: the blog settings in the shape PUT /api/settings takes (socialLinks as an object).',
);
export const SettingsSaved = described('SettingsSaved', '{ message, settings }.');

export const Health = named(
  'Health',
  'The state of the database and the queue.',
  z.object({
    status: z.enum(['ok', 'unavailable']),
    database: z.object({ status: z.enum(['up', 'down']), error: z.string().optional() }),
    queue: z.object({ status: z.enum(['up', 'down']), error: z.string().optional(), backend: z.string() }),
  }),
);

export const SignedIn = described(
  'SignedIn',
  '{ token, user }: the session token (send as Authorization: Bearer) and the signed-in user.',
);
export const TwoFactorChallenge = named(
  'TwoFactorChallenge',
  'The password was right; send the code with action=login-2fa.',
  z.object({ message: z.string(), challenge: z.literal('totp'), challengeId: z.string() }),
);
export const SignedUp = named(
  'SignedUp',
  'The account waits for its emailed code (action=confirm).',
  z.object({ userId: z.string(), userConfirmed: z.boolean(), message: z.string() }),
);
export const CurrentUser = described(
  'CurrentUser',
  '{ user, membership }: the signed-in user, and their membership { status: free|paid|comped|past_due, tierId, interval, currentPeriodEnd, cancelAtPeriodEnd }.',
);
export const Users = described('Users', '{ users }: every account.');
export const Passkeys = described('Passkeys', '{ passkeys: [{ id, name, createdAt, lastUsedAt }] }.');
export const PasskeyOptions = described('PasskeyOptions', '{ options }: WebAuthn options for the browser.');
export const PasskeyRegistered = described('PasskeyRegistered', '{ passkey }: the passkey registered.');
export const TwoFactorSetup = described(
  'TwoFactorSetup',
  '{ secret, otpauthUrl }: for the authenticator app.',
);
export const TwoFactorEnabled = described(
  'TwoFactorEnabled',
  '{ recoveryCodes, token }: the codes shown once, and the session’s new token.',
);
export const TwoFactorDisabled = described('TwoFactorDisabled', '{ message, token }.');
export const Uploaded = named('Uploaded', 'Where the upload is served.', z.object({ url: z.string() }));
export const AvatarSaved = named(
  'AvatarSaved',
  'The new avatar.',
  z.object({ url: z.string(), message: z.string() }),
);

export const Dashboard = described('Dashboard', '{ stats, recentActivity } of the admin’s dashboard.');
export const DashboardStats = described(
  'DashboardStats',
  '{ stats }: posts, products, orders, revenue, users, comments.',
);
export const DashboardAnalytics = described('DashboardAnalytics', 'The dashboard’s analytics figures.');
export const RecentActivity = described(
  'RecentActivity',
  '{ recentActivity: { popularPosts, lowStockProducts } }.',
);
export const AdminTest = described(
  'AdminTest',
  '{ stats: { posts, products, comments } } (the older admin).',
);
export const AuditLog = described('AuditLog', '{ entries, pagination }: every admin write, newest first.');
export const AnalyticsReport = described(
  'AnalyticsReport',
  'Views, visitors and sales of the range, by day and by page.',
);
export const ImportPreview = described(
  'ImportPreview',
  '{ id, status, … }: the dry run’s preview (201), or its refusal with a message (422).',
);
export const ImportJob = described(
  'ImportJob',
  '{ state: running|done|failed, done, total, report, message }.',
);
export const SiteExport = described('SiteExport', 'The whole site as the JSON document of npm run export.');
export const NewsletterProgress = described(
  'NewsletterProgress',
  'A post’s newsletter: its state (null until sent) and its counts.',
);
export const StripeReceipt = described('StripeReceipt', '{ received: true, outcome, message? }.');
export const OpenApiDocument = described('OpenApiDocument', 'This document.');
export const Bookmark = named(
  'Bookmark',
  'What a bookmark card shows of a page: empty strings where the page says nothing.',
  z.object({ url: z.string(), title: z.string(), description: z.string(), image: z.string() }),
);

const tier = z.object({
  id: z.int(),
  name: z.string(),
  description: z.string(),
  monthlyPrice: z.int().meta({ description: 'Cents of the shop’s currency.' }),
  yearlyPrice: z.int(),
  active: z.boolean(),
});
export const Tiers = named(
  'Tiers',
  'Membership tiers with their prices.',
  z.object({ tiers: z.array(tier) }),
);
export const TierOne = named('TierOne', 'One membership tier.', z.object({ tier }));
export const PaymentUrl = named(
  'PaymentUrl',
  'Stripe Checkout’s page for the subscription.',
  z.object({ paymentUrl: z.string() }),
);
export const PortalUrl = named(
  'PortalUrl',
  'Stripe’s billing portal for the member.',
  z.object({ url: z.string() }),
);
export const Members = described(
  'Members',
  '{ members: [{ userId, email, name, status, tierId, tierName, interval, currentPeriodEnd, createdAt }], totals: { free, paid, comped, mrr } } (mrr in cents, a yearly price as a twelfth).',
);
export const MemberHistory = described(
  'MemberHistory',
  '{ email, name, membership, history: [{ type, status, tierId, at, fromPost: { slug, title } | null }] }: the member, the membership now and its changes, newest first; fromPost is the post whose paywall a paid sign-up came from.',
);
export const MembershipOne = described('MembershipOne', '{ membership }: the membership as it holds now.');
