import { z } from 'zod';
import { isMediaReference } from '../media/media-reference.ts';
import { PRODUCT_CATEGORIES, PRODUCT_STATUSES } from './product-enums.ts';

// Re-exported for the API's query validation; browser code imports product-enums.ts (no zod).
export {
  PRODUCT_CATEGORIES,
  PRODUCT_STATUSES,
  type ProductCategory,
  type ProductStatus,
} from './product-enums.ts';

const trimmed = (label: string) => z.string().trim().min(1, `${label} is required`);

const imageRef = z
  .string()
  .trim()
  .max(2000)
  .refine(isMediaReference, 'Image must be a URL or an image of this site (/uploads/ or /demo/)');

/** The one product schema: the API, the admin editor and tests parse with it. */
export const productSchema = z.object({
  name: trimmed('Name').max(200),
  description: trimmed('Description').max(10_000),
  category: z.enum(PRODUCT_CATEGORIES, 'Category is required'),
  price: z
    .number('Price must be a whole number of cents')
    .int('Price must be a whole number of cents')
    .min(0, 'Price cannot be negative')
    .max(100_000_000),
  stock: z
    .number()
    .int('Stock must be a whole number')
    .min(0, 'Stock cannot be negative')
    .nullable()
    .default(null),
  status: z.enum(PRODUCT_STATUSES).default('active'),
  featured: z.boolean().default(false),
  image: z
    .union([imageRef, z.literal('').transform(() => null), z.null()])
    .optional()
    .default(null),
});

export type ProductInput = z.input<typeof productSchema>;
export type ProductData = z.output<typeof productSchema>;

/** Updates may send any subset of the fields. */
export const productUpdateSchema = productSchema.partial();
