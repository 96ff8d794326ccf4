import { parseProductId } from '../../shop/products.ts';
import { addToCartFor } from '../add-to-cart.server.ts';
import { redirectWithToast } from '../toast.server.ts';
import type { Route } from './+types/cart.add';

const SELF = 'http://return.invalid';
/** Longer is no page of ours, and would make a Location header over Node's 16 KB limit. */
const MAX_RETURN_PATH = 2_000;

/**
 * Where to go back to: a path of this site, never another host ('//evil.example', a URL, or one
 * the URL parser makes of '/\n/evil.example'), percent-encoded as a Location header needs it.
 */
function returnPath(value: FormDataEntryValue | null): string {
  const path = typeof value === 'string' ? value : '';
  if (!/^\/(?![/\\])/.test(path) || path.length > MAX_RETURN_PATH) return '/shop';
  const url = new URL(path, SELF);
  const back = `${url.pathname}${url.search}`;
  return url.origin === SELF && back.length <= MAX_RETURN_PATH ? back : '/shop';
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
