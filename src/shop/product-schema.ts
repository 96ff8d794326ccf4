import { z } from 'zod';
import { isMediaReference } from '../media/media-reference.ts';
import { PRODUCT_CATEGORIES, PRODUCT_STATUSES } from './product-enums.ts';
import { type ProductOption, variantLabel } from './variants.ts';

// Re-exported for the API's query validation; browser code imports product-enums.ts (no zod).
export {
  PRODUCT_CATEGORIES,
  PRODUCT_STATUSES,
  type ProductCategory,
  type ProductStatus,
} from './product-enums.ts';
export type { ProductOption } from './variants.ts';

export const MAX_PRODUCT_IMAGES = 12;
export const MAX_PRODUCT_OPTIONS = 3;
export const MAX_PRODUCT_VARIANTS = 100;

const trimmed = (label: string) => z.string().trim().min(1, `${label} is required`);

const imageRef = z
  .string()
  .trim()
  .max(2000)
  .refine(isMediaReference, 'Image must be a URL or an image of this site (/uploads/ or /demo/)');

const price = z
  .number('Price must be a whole number of cents')
  .int('Price must be a whole number of cents')
  .min(0, 'Price cannot be negative')
  .max(100_000_000);
const stock = z.number().int('Stock must be a whole number').min(0, 'Stock cannot be negative').nullable();

/** An option (Size, Colour…) and its values, in the order the product page shows them. */
const optionSchema = z.object({
  name: trimmed('Option name').max(40),
  values: z
    .array(trimmed('Option value').max(40), 'Values must be a list')
    .min(1, 'An option needs at least one value')
    .max(50),
});

/** One combination of the options' values, with its own stock (null: unlimited), SKU, price and image. */
const variantSchema = z.object({
  options: z.record(z.string(), z.string(), 'A variant names a value for each option'),
  stock: stock.default(null),
  sku: z.string().trim().max(64).default(''),
  price: price.nullable().default(null),
  image: z.union([imageRef, z.literal('').transform(() => null), z.null()]).default(null),
});

export type VariantData = z.output<typeof variantSchema>;

/** Why these options and variants do not fit together, or null: each variant one distinct combination. */
export function variantsProblem(options: ProductOption[], variants: VariantData[]): string | null {
  if (options.length > MAX_PRODUCT_OPTIONS)
    return `A product can have at most ${MAX_PRODUCT_OPTIONS} options`;
  const names = options.map((o) => o.name.toLowerCase());
  if (new Set(names).size < names.length) return 'Each option needs its own name';
  if (options.length > 0 && variants.length === 0) return 'A product with options needs at least one variant';
  if (options.length === 0 && variants.length > 0) return 'Variants need the options they choose from';
  const seen = new Set<string>();
  for (const variant of variants) {
    const keys = Object.keys(variant.options);
    const fits =
      keys.length === options.length && options.every((o) => o.values.includes(variant.options[o.name]));
    if (!fits)
      return `Each variant chooses one listed value of every option (${options.map((o) => o.name).join(', ')})`;
    const label = variantLabel(options, variant.options);
    if (seen.has(label)) return `Two variants are the same: ${label}`;
    seen.add(label);
  }
  return null;
}

/** Each field as sent, without the defaults a new product gets. */
const productFields = {
  name: trimmed('Name').max(200),
  description: trimmed('Description').max(10_000),
  category: z.enum(PRODUCT_CATEGORIES, 'Category is required'),
  price,
  stock,
  status: z.enum(PRODUCT_STATUSES),
  featured: z.boolean(),
  image: z.union([imageRef, z.literal('').transform(() => null), z.null()]),
  /** The gallery, in order; when sent, its first image becomes `image`. */
  images: z
    .array(imageRef, 'Images must be a list of image links')
    .max(MAX_PRODUCT_IMAGES, `A product can have at most ${MAX_PRODUCT_IMAGES} images`)
    .optional(),
  options: z
    .array(optionSchema, 'Options must be a list')
    .max(MAX_PRODUCT_OPTIONS, `A product can have at most ${MAX_PRODUCT_OPTIONS} options`),
  variants: z
    .array(variantSchema, 'Variants must be a list')
    .max(MAX_PRODUCT_VARIANTS, `A product can have at most ${MAX_PRODUCT_VARIANTS} variants`),
};

/** Options and variants are judged together: sent together, or neither. */
const fitVariants = (data: { options?: ProductOption[]; variants?: VariantData[] }, ctx: z.RefinementCtx) => {
  if (data.options === undefined && data.variants === undefined) return;
  const problem = variantsProblem(data.options ?? [], data.variants ?? []);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['variants'] });
};

/** The one product schema: the API, the admin editor and tests parse with it. */
export const productSchema = z
  .object({
    ...productFields,
    stock: productFields.stock.default(null),
    status: productFields.status.default('active'),
    featured: productFields.featured.default(false),
    image: productFields.image.optional().default(null),
    options: productFields.options.default([]),
    variants: productFields.variants.default([]),
  })
  .superRefine(fitVariants);

export type ProductInput = z.input<typeof productSchema>;
export type ProductData = z.output<typeof productSchema>;

/** Updates may send any subset of the fields; what is left out stays as it is (no defaults). */
export const productUpdateSchema = z.object(productFields).partial().superRefine(fitVariants);
