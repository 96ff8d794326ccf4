import { z } from '../zod.ts';
import { formatPrice, moneyMessage } from './price.ts';
import { PRODUCT_CATEGORIES } from './product-enums.ts';

/** A code applied to an order, and what it took off the items (cents). */
export type OrderDiscount = { discountId: number; code: string; amount: number };

/** Discount codes' words: checkout, the admin screen, the API and tests use these. */
export const DISCOUNT_MESSAGES = {
  unknown: 'This discount code is not valid',
  notStarted: 'This code is not active yet',
  expired: 'This code has expired',
  usageLimit: 'This code has reached its usage limit',
  perEmailLimit: 'This code has already been used with this email address',
  notApplicable: 'This code does not apply to the items in your cart',
  minSubtotal: (min: string) => `This code needs a subtotal of at least ${min}`,
  code: 'Code must be 1 to 50 letters, digits, "-" or "_"',
  codeTaken: 'Another discount has this code',
  type: 'Type must be percent or fixed',
  value: 'Value must be a whole number above 0 (cents for a fixed amount)',
  percent: 'A percentage must be between 1 and 100',
  limit: 'Limits must be empty or a whole number above 0',
  minSubtotalField: 'Minimum subtotal must be empty or a whole number of cents',
  /** The admin form's words: its amounts are typed in the shop's currency. */
  valueAmount: moneyMessage('A fixed amount'),
  minSubtotalAmount: 'Minimum subtotal must be empty or an amount such as 25.00',
  date: 'Dates must be a date and time (YYYY-MM-DDTHH:mm, UTC)',
  endBeforeStart: 'The end must be after the start',
  productIds: 'Products must be a comma-separated list of product ids',
  categories: `Categories must be among ${PRODUCT_CATEGORIES.join(', ')}`,
  active: 'active must be true or false',
  created: 'Discount code created',
  deactivated: 'Discount code deactivated',
  notFound: 'Discount code not found',
  deleted: 'Discount code deleted',
  usedCannotDelete: 'This code has been used: deactivate it instead',
} as const;

export const DISCOUNT_TYPES = ['percent', 'fixed'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

const MAX_INT = 2_147_483_647;
const blank = (value: unknown) => value === undefined || value === null || value === '';
/** A whole number typed in a form ("25") or sent as JSON (25). */
const whole = (message: string, min: number) =>
  z
    .union(
      [
        z.number(message),
        z
          .string(message)
          .trim()
          .regex(/^\d{1,10}$/, message)
          .transform(Number),
      ],
      message,
    )
    .pipe(z.number().int(message).min(min, message).max(MAX_INT, message));
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (blank(v) ? null : v), schema.nullable());
/** An ISO time, or a form's datetime-local (read as UTC). */
const time = optional(
  z
    .string(DISCOUNT_MESSAGES.date)
    .trim()
    .max(40, DISCOUNT_MESSAGES.date)
    .transform((text, ctx) => {
      const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) ? `${text}Z` : text;
      const ms = Date.parse(local);
      if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(text)) {
        ctx.addIssue({ code: 'custom', message: DISCOUNT_MESSAGES.date });
        return z.NEVER;
      }
      return new Date(ms).toISOString();
    }),
);
/** A list given as JSON, several form values, or one comma-separated text; empty: none. */
const list = (value: unknown) => {
  const items = (Array.isArray(value) ? value : blank(value) ? [] : [value]).flatMap((v) =>
    typeof v === 'string' ? v.split(',').map((s) => s.trim()) : [v],
  );
  const kept = items.filter((v) => v !== '');
  return kept.length ? kept : null;
};

/** The one schema of a discount code: the admin form and POST/PATCH /api/admin/discounts. */
export const discountSchema = z
  .object({
    code: z
      .string(DISCOUNT_MESSAGES.code)
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,50}$/, DISCOUNT_MESSAGES.code),
    type: z.enum(DISCOUNT_TYPES, DISCOUNT_MESSAGES.type),
    value: whole(DISCOUNT_MESSAGES.value, 1),
    usageLimit: optional(whole(DISCOUNT_MESSAGES.limit, 1)),
    perEmailLimit: optional(whole(DISCOUNT_MESSAGES.limit, 1)),
    startsAt: time,
    endsAt: time,
    minSubtotal: z.preprocess((v) => (blank(v) ? 0 : v), whole(DISCOUNT_MESSAGES.minSubtotalField, 0)),
    productIds: z.preprocess(
      list,
      z.array(whole(DISCOUNT_MESSAGES.productIds, 1), DISCOUNT_MESSAGES.productIds).max(100).nullable(),
    ),
    categories: z.preprocess(
      list,
      z
        .array(z.enum(PRODUCT_CATEGORIES, DISCOUNT_MESSAGES.categories), DISCOUNT_MESSAGES.categories)
        .nullable(),
    ),
    active: z.boolean(DISCOUNT_MESSAGES.active).default(true),
  })
  .superRefine((d, ctx) => {
    if (d.type === 'percent' && d.value > 100)
      ctx.addIssue({ code: 'custom', path: ['value'], message: DISCOUNT_MESSAGES.percent });
    if (d.startsAt && d.endsAt && d.endsAt <= d.startsAt)
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: DISCOUNT_MESSAGES.endBeforeStart });
  });

export type DiscountInput = z.output<typeof discountSchema>;

/** What a code takes off, and from which lines. */
export type DiscountRule = Pick<
  DiscountInput,
  'type' | 'value' | 'minSubtotal' | 'productIds' | 'categories'
>;
export type DiscountLine = { productId: number; category: string; quantity: number; unitPrice: number };

/**
 * The cents a code takes off these lines: a percentage of (or a fixed amount up to) the lines it
 * applies to, the products or categories it names (all lines when it names none). Shipping is
 * never discounted; the minimum is the whole cart's subtotal.
 */
export function discountAmount(
  rule: DiscountRule,
  lines: DiscountLine[],
  currency: string,
): { amount: number } | { error: string } {
  const total = (of: DiscountLine[]) => of.reduce((n, l) => n + l.quantity * l.unitPrice, 0);
  if (total(lines) < rule.minSubtotal)
    return { error: DISCOUNT_MESSAGES.minSubtotal(formatPrice(rule.minSubtotal, currency)) };
  const limited = rule.productIds !== null || rule.categories !== null;
  const eligible = total(
    lines.filter(
      (l) =>
        !limited ||
        rule.productIds?.includes(l.productId) ||
        (rule.categories as readonly string[] | null)?.includes(l.category),
    ),
  );
  if (eligible === 0) return { error: DISCOUNT_MESSAGES.notApplicable };
  return {
    amount:
      rule.type === 'percent' ? Math.round((eligible * rule.value) / 100) : Math.min(rule.value, eligible),
  };
}
