import type { RouterContextProvider } from 'react-router';
import { rememberPostBySlug } from '../analytics/attribution.ts';
import { Conflict, Invalid, NotFound } from '../kernel/errors.ts';
import { addToVisitorCart } from '../shop/cart.ts';
import { addedMessage, SHOP_MESSAGES } from '../shop/messages.ts';
import { variantChosen } from '../shop/products.ts';
import { getApp } from './context.ts';

export type AddToCartResult = { ok: boolean; title: string; description: string };

/** Adds to the visitor's cart (starting their session) and says how it went in the SPEC's words. */
export async function addToCartFor(
  context: Readonly<RouterContextProvider>,
  productId: number | null,
  /** As typed or posted: the cart checks it against the product's stock. */
  quantity: unknown,
  /** The slug of the post the product page was opened from (shop attribution). */
  fromPost?: FormDataEntryValue | null,
  /** The product page's choice of a value per option (Size: M), for a product with variants. */
  chosen: Record<string, string> = {},
): Promise<AddToCartResult> {
  const { services, state } = getApp(context);
  if (!productId)
    return { ok: false, title: SHOP_MESSAGES.errorTitle, description: SHOP_MESSAGES.productNotFound };
  try {
    const variantId = await variantChosen(services.db, productId, chosen);
    const { line, sessionId } = await addToVisitorCart(services.db, state, productId, quantity, variantId);
    if (typeof fromPost === 'string' && fromPost && sessionId)
      await rememberPostBySlug(services.db, sessionId, fromPost);
    return { ok: true, title: SHOP_MESSAGES.addedTitle, description: addedMessage(line.added) };
  } catch (error) {
    if (error instanceof Conflict)
      return {
        ok: false,
        title: error.title ?? SHOP_MESSAGES.stockLimitTitle,
        description: error.message,
      };
    if (error instanceof NotFound || error instanceof Invalid)
      return { ok: false, title: SHOP_MESSAGES.errorTitle, description: error.message };
    state.log.error({ err: error }, 'add to cart failed');
    return { ok: false, title: SHOP_MESSAGES.errorTitle, description: SHOP_MESSAGES.addFailed };
  }
}
