import { parseProductId } from '../../shop/products.ts';
import { addToCartFor } from '../add-to-cart.server.ts';
import { redirectWithToast } from '../toast.server.ts';
import type { Route } from './+types/cart.add';

/** Where to go back to: a path of this site, never another host ('//evil.example' or a URL). */
function returnPath(value: FormDataEntryValue | null): string {
  const path = typeof value === 'string' ? value : '';
  return /^\/(?![/\\])/.test(path) ? path.split('#')[0] : '/shop';
}

/**
 * 'Add to Cart' on a product card (the shop grid, featured and related products, a post's card):
 * one of the product, then back to the page it names (a 303: the page is fetched with GET), at
 * the card, with the answer as a toast. A plain form post, so it works without JavaScript. A
 * post's card names the post (`fromPost`) for the shop's attribution.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const productId = parseProductId(form.get('productId'));
  const result = await addToCartFor(context, productId, 1, form.get('fromPost'));
  return redirectWithToast(
    `${returnPath(form.get('returnTo'))}#product-${productId ?? ''}`,
    { title: result.title, description: result.description, type: result.ok ? 'success' : 'error' },
    { status: 303 },
  );
}

/** Only posted to: a visit goes to the shop. */
export function loader() {
  return new Response(null, { status: 303, headers: { Location: '/shop' } });
}
