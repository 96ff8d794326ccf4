import { z } from '../zod.ts';
import { countryCodeOf, countryName, hasPostalCodes, postalCodeFits } from './countries.ts';
import { DISCOUNT_MESSAGES } from './discount-schema.ts';

const min = (n: number, message: string) => z.string(message).trim().min(n, message);
/** Said for text over a field's limit (without it, the field's own message would be used). */
export const tooLong = (label: string, max: number) => `${label} is too long (at most ${max} characters)`;

/** The address's words (issue 38: the country is chosen from a list, the postcode checked by its format). */
export const ADDRESS_MESSAGES = {
  country: 'Choose a country',
  zipText: 'ZIP code must be text',
  zipRequired: (country: string) => `Enter the ZIP code (required for ${country})`,
  zipInvalid: (country: string) => `This is not a ZIP code of ${country}`,
} as const;

/** The one checkout schema (SPEC §5): the form validates with it in the browser, the server again. */
export const CHECKOUT_MAX_LENGTH = {
  customerName: 200,
  customerEmail: 254,
  address: 500,
  city: 200,
  zipCode: 20,
  country: 100,
  shippingMethod: 100,
  discountCode: 50,
} as const;
const MAX = CHECKOUT_MAX_LENGTH;

const checkoutFields = z.object({
  customerName: min(2, 'Name must be at least 2 characters').max(
    MAX.customerName,
    tooLong('Name', MAX.customerName),
  ),
  customerEmail: z
    .string('Please enter a valid email')
    .trim()
    .max(MAX.customerEmail)
    .pipe(z.email('Please enter a valid email')),
  address: min(5, 'Address must be at least 5 characters').max(MAX.address, tooLong('Address', MAX.address)),
  city: min(2, 'City must be at least 2 characters').max(MAX.city, tooLong('City', MAX.city)),
  /** Checked against the country below: required where the country has postal codes. */
  zipCode: z
    .string(ADDRESS_MESSAGES.zipText)
    .trim()
    .max(MAX.zipCode, tooLong('ZIP code', MAX.zipCode))
    .default(''),
  /** Stored as its ISO 3166-1 code; the API also takes a country's English name. */
  country: z
    .string(ADDRESS_MESSAGES.country)
    .max(MAX.country, ADDRESS_MESSAGES.country)
    .transform((text, ctx) => {
      const code = countryCodeOf(text);
      if (!code) ctx.addIssue({ code: 'custom', message: ADDRESS_MESSAGES.country });
      return code ?? z.NEVER;
    }),
  /** A method's id or name; absent: the first that delivers to the country (SPEC: standard). */
  shippingMethod: z
    .string('Choose a shipping method')
    .trim()
    .max(MAX.shippingMethod, 'Choose a shipping method')
    .optional(),
  /** Judged by the server against the cart (the client never sends an amount); empty: none. */
  discountCode: z
    .string(DISCOUNT_MESSAGES.unknown)
    .trim()
    .max(MAX.discountCode, DISCOUNT_MESSAGES.unknown)
    .transform((code) => code || undefined)
    .optional(),
});

export const checkoutSchema = checkoutFields.superRefine((input, ctx) => {
  if (!hasPostalCodes(input.country)) return;
  const country = countryName(input.country);
  if (input.zipCode === '')
    ctx.addIssue({ code: 'custom', path: ['zipCode'], message: ADDRESS_MESSAGES.zipRequired(country) });
  else if (!postalCodeFits(input.country, input.zipCode))
    ctx.addIssue({ code: 'custom', path: ['zipCode'], message: ADDRESS_MESSAGES.zipInvalid(country) });
});

export type CheckoutInput = z.output<typeof checkoutSchema>;

/** The address fields: asked only when a line ships. */
export const ADDRESS_FIELDS = ['address', 'city', 'zipCode', 'country'] as const;
const NO_ADDRESS = { address: '', city: '', zipCode: '', country: '', shippingMethod: undefined };
const contactSchema = checkoutFields
  .pick({ customerName: true, customerEmail: true, discountCode: true })
  .transform((contact): CheckoutInput => ({ ...contact, ...NO_ADDRESS }));

/** A cart of digital products only needs a name and an email: no address is asked or kept. */
export function checkoutSchemaFor(digitalOnly: boolean) {
  return digitalOnly ? contactSchema : checkoutSchema;
}
export type CheckoutField = keyof CheckoutInput;
export const CHECKOUT_FIELDS = Object.keys(checkoutFields.shape) as CheckoutField[];

/** The first message per field, for forms and 400 answers. */
export function checkoutErrors(error: z.ZodError): Partial<Record<CheckoutField, string>> {
  const errors: Partial<Record<CheckoutField, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as CheckoutField;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** "Ada Lovelace King" → Ada Lovelace / King; a single word is all first name. */
export function splitName(full: string): { firstName: string; lastName: string } {
  const name = full.trim().replace(/\s+/g, ' ');
  const cut = name.lastIndexOf(' ');
  return cut === -1
    ? { firstName: name, lastName: '' }
    : { firstName: name.slice(0, cut), lastName: name.slice(cut + 1) };
}
