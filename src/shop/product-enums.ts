/**
 * The product's fixed value sets, without zod: the shop's public pages list them in the browser,
 * and importing them from product-schema.ts would ship zod (about 25 KB gzip) to every reader.
 */
export const PRODUCT_CATEGORIES = ['Courses', 'Books', 'Digital', 'Merchandise', 'Physical'] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];
export const PRODUCT_STATUSES = ['active', 'inactive'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
