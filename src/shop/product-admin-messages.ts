/** Product editor strings of SPEC §5 and §8, shared by the admin UI and tests. */
export const PRODUCT_ADMIN_MESSAGES = {
  created: 'Product created successfully',
  updated: 'Product updated successfully',
  deleted: 'Product deleted successfully',
  saveFailed: 'Failed to save product',
  deleteFailed: 'Failed to delete product',
  confirmDelete: 'Are you sure you want to delete this product?',
  unlimited: 'Unlimited',
} as const;

/** Empty stock means unlimited (DESIGN: stock IS NULL); 0 is sold out, which the admin must see. */
export function stockLabel(stock: number | null): string {
  if (stock === null) return PRODUCT_ADMIN_MESSAGES.unlimited;
  return stock === 0 ? '0 (out of stock)' : String(stock);
}

/** The admin form's labels for the categories (SPEC §9: 'Digital Products', 'Physical Products'). */
export const CATEGORY_LABELS: Record<string, string> = {
  Digital: 'Digital Products',
  Physical: 'Physical Products',
  Courses: 'Courses',
  Books: 'Books',
  Merchandise: 'Merchandise',
};
