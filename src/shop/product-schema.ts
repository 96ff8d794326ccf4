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

export const MAX_PRODUCT_IMAGES = 12;

const trimmed = (label: string) => z.string().trim().min(1, `${label} is required`);

const imageRef = z
  .string()
  .trim()
  .max(2000)
  .refine(isMediaReference, 'Image must be a URL or an image of this site (/uploads/ or /demo/)');

/** Each field as sent, without the defaults a new product gets. */
const productFields = {
  name: trimmed('Name').max(200),
  description: trimmed('Description').max(10_000),
  category: z.enum(PRODUCT_CATEGORIES, 'Category is required'),
  price: z
    .number('Price must be a whole number of cents')
    .int('Price must be a whole number of cents')
    .min(0, 'Price cannot be negative')
    .max(100_000_000),
  stock: z.number().int('Stock must be a whole number').min(0, 'Stock cannot be negative').nullable(),
  status: z.enum(PRODUCT_STATUSES),
  featured: z.boolean(),
  image: z.union([imageRef, z.literal('').transform(() => null), z.null()]),
  /** The gallery, in order; when sent, its first image becomes `image`. */
  images: z
    .array(imageRef, 'Images must be a list of image links')
    .max(MAX_PRODUCT_IMAGES, `A product can have at most ${MAX_PRODUCT_IMAGES} images`)
    .optional(),
};

/** The one product schema: the API, the admin editor and tests parse with it. */
export const productSchema = z.object({
  ...productFields,
  stock: productFields.stock.default(null),
  status: productFields.status.default('active'),
  featured: productFields.featured.default(false),
  image: productFields.image.optional().default(null),
});

export type ProductInput = z.input<typeof productSchema>;
export type ProductData = z.output<typeof productSchema>;

/** Updates may send any subset of the fields; what is left out stays as it is (no defaults). */
export const productUpdateSchema = z.object(productFields).partial();
