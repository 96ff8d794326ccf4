import type { TaxNote } from './tax-rules.ts';

/** The shop's exact strings from SPEC.md §2, §5 and §8: UI, server and tests use these. */
export const SHOP_MESSAGES = {
  noProductsTitle: 'No products found',
  noProductsHint: 'Try adjusting your search or filter criteria.',
  productNotFound: 'Product not found',
  variantNotFound: 'This product has no such variant',
  outOfStock: 'Out of stock',
  outOfStockBadge: 'Out of Stock',
  outOfStockNote: 'This product is currently out of stock.',
  adding: 'Adding...',
  addToCart: 'Add to Cart',
  chooseOptions: 'Choose options',
  relatedProducts: 'Related Products',
  loadingCart: 'Loading cart...',
  cartEmptyTitle: 'Your cart is empty',
  cartEmptyHint: 'Add some products to your cart to get started.',
  continueShopping: 'Continue Shopping',
  clearCartConfirm: 'Are you sure you want to clear your cart?',
  shippingNote: 'Shipping: Calculated at checkout',
  taxIncludedNote: 'Including tax where it applies',
  taxAddedNote: 'Tax: Calculated at checkout',
  /** Checkout's summary with Stripe Tax: Stripe adds it on its payment page. */
  taxAtPaymentNote: 'Tax: Calculated at payment',
  stockLimitTitle: 'Stock limit reached',
  addedTitle: 'Added to cart',
  addedOne: 'Item successfully added to your cart',
  itemRemoved: 'Item removed',
  cartCleared: 'Cart cleared',
  errorTitle: 'Error',
  addFailed: 'Failed to add item to cart',
  updateFailed: 'Failed to update cart item',
  removeFailed: 'Failed to remove item from cart',
  clearFailed: 'Failed to clear cart',
  cartEmptyCheckoutTitle: 'Cart is Empty',
  cartEmptyCheckoutHint: 'Please add items to your cart before checkout.',
  noShippingNeeded: 'Everything in your cart is a download: no shipping address is needed.',
  addressNeeded: 'Your cart has changed: an item in it ships, please enter a shipping address.',
  orderConfirmed: 'Order Confirmed!',
  orderFailedTitle: 'Order Failed',
  orderFailedFallback: 'Something went wrong. Please try again.',
  orderCreateFailed: 'Failed to create order',
  placeAnotherOrder: 'Place Another Order',
  orderLookupNotFound: 'We could not find an order with that number and email address.',
} as const;

export function stockLimitMessage(available: number): string {
  return `Only ${available} items available in stock`;
}

export function addedMessage(quantity: number): string {
  return quantity === 1 ? SHOP_MESSAGES.addedOne : `${quantity} item(s) added to your cart`;
}

export function inStockLabel(stock: number): string {
  return `${stock} in stock`;
}

export function lowStockNote(stock: number): string {
  return `Only ${stock} left in stock!`;
}

export function cartLowStockNote(stock: number): string {
  return `Only ${stock} left in stock`;
}

export function noLongerAvailable(name: string): string {
  return `"${name}" is no longer available and was removed from your cart.`;
}

export function showingRange(from: number, to: number, total: number): string {
  return `Showing ${from}-${to} of ${total} products`;
}

/** A product with options added without a variant: 'Choose a size' (the first option, in lower case). */
export function chooseOption(optionName: string): string {
  return `Choose a ${optionName.toLowerCase()}`;
}

/** A product whose variants' prices differ: its lowest, 'from $12.00'. */
export function fromPriceLabel(price: string): string {
  return `from ${price}`;
}

/** Beside a price: whether tax is a part of it or comes on top at checkout; nothing where no tax is charged. */
export function taxNoteText(note: TaxNote): string | null {
  if (note === 'included') return SHOP_MESSAGES.taxIncludedNote;
  return note === 'added' ? SHOP_MESSAGES.taxAddedNote : null;
}
