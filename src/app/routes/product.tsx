import { useEffect, useState } from 'react';
import { data, Link, useActionData, useFetcher } from 'react-router';
import { rememberPostBySlug } from '../../analytics/attribution.ts';
import { HttpError } from '../../server/middleware.ts';
import { addToCart } from '../../shop/cart.ts';
import { cartOwnerOf } from '../../shop/checkout.ts';
import { addedMessage, inStockLabel, lowStockNote, SHOP_MESSAGES } from '../../shop/messages.ts';
import { formatPrice } from '../../shop/price.ts';
import { getPublicProduct, parseProductId, postsFeaturing } from '../../shop/products.ts';
import { Notice } from '../components/shop/Notice.tsx';
import { ProductImage } from '../components/shop/ProductImage.tsx';
import { getApp } from '../context.ts';
import { useCurrency } from '../currency.ts';
import '../styles/shop.css';
import type { Route } from './+types/product';

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const product = loaderData?.product;
  if (!product)
    return [{ title: `${SHOP_MESSAGES.productNotFound} — Penstand` }, { name: 'robots', content: 'noindex' }];
  return [
    { title: `${product.name} — Penstand` },
    { name: 'description', content: product.description.slice(0, 160) },
  ];
};

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseProductId(params.id);
  const { db } = getApp(context).services;
  const product = id ? await getPublicProduct(db, id) : null;
  if (!product) return data({ product: null, featuredIn: [] }, { status: 404 });
  // Tells the page view counter which product this page (stored or not) shows.
  return data(
    { product, featuredIn: await postsFeaturing(db, product.id) },
    { headers: { 'x-page-cache-view-product': String(product.id) } },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

type ActionResult =
  | { ok: true; title: string; description: string }
  | { ok: false; title: string; description: string };

export async function action({ request, params, context }: Route.ActionArgs): Promise<ActionResult> {
  const { services, state } = getApp(context);
  const form = await request.formData();
  const id = parseProductId(params.id);
  const quantity = Math.max(1, Number.parseInt(String(form.get('quantity') ?? '1'), 10) || 1);
  if (!id) return { ok: false, title: SHOP_MESSAGES.errorTitle, description: SHOP_MESSAGES.productNotFound };
  try {
    const sessionId = await state.session.ensure();
    await addToCart(services.db, cartOwnerOf(state), id, quantity);
    const fromPost = form.get('fromPost');
    if (typeof fromPost === 'string' && fromPost) await rememberPostBySlug(services.db, sessionId, fromPost);
    return { ok: true, title: SHOP_MESSAGES.addedTitle, description: addedMessage(quantity) };
  } catch (error) {
    if (error instanceof HttpError && error.status === 409)
      return { ok: false, title: SHOP_MESSAGES.stockLimitTitle, description: error.message };
    if (error instanceof HttpError && error.status === 404)
      return { ok: false, title: SHOP_MESSAGES.errorTitle, description: error.message };
    state.log.error({ err: error }, 'add to cart failed');
    return { ok: false, title: SHOP_MESSAGES.errorTitle, description: SHOP_MESSAGES.addFailed };
  }
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const currency = useCurrency();
  const { product, featuredIn } = loaderData;
  const fetcher = useFetcher<typeof action>();
  // Without JavaScript the form posts natively and the answer arrives as action data.
  const actionData = useActionData<typeof action>();
  const [quantity, setQuantity] = useState(1);
  const [fromPost, setFromPost] = useState('');
  // The post this page was opened from, for the shop's attribution (analytics): the stored page is
  // the same for every reader, so only the browser knows it.
  useEffect(() => {
    try {
      const from = new URL(document.referrer);
      const slug = from.origin === window.location.origin && /^\/post\/([^/]+)$/.exec(from.pathname)?.[1];
      if (slug) setFromPost(decodeURIComponent(slug));
    } catch {
      // No referrer, or not a URL: nothing to remember.
    }
  }, []);
  if (!product) {
    return (
      <div className="container empty-state">
        <h1>{SHOP_MESSAGES.productNotFound}</h1>
        <p>
          <Link to="/shop" className="button">
            ← Back to Shop
          </Link>
        </p>
      </div>
    );
  }
  const max = product.stock ?? Number.POSITIVE_INFINITY;
  const outOfStock = product.stock === 0;
  const pending = fetcher.state !== 'idle';
  const clamp = (n: number) => Math.min(Math.max(1, Number.isFinite(n) ? Math.trunc(n) : 1), max);
  const result = fetcher.data ?? actionData;
  return (
    <div className="container product-page">
      <p>
        <Link to="/shop">← Back to Shop</Link>
      </p>
      <div className="product-detail">
        <ProductImage src={product.image} alt={product.name} size="large" />
        <div className="product-info">
          <div className="product-badges">
            <span className="badge">{product.category}</span>
            {product.featured && <span className="badge badge-featured">Featured</span>}
            {outOfStock ? (
              <span className="badge badge-danger">{SHOP_MESSAGES.outOfStock}</span>
            ) : (
              <span className="badge badge-success">
                {product.stock === null ? 'In stock' : inStockLabel(product.stock)}
              </span>
            )}
          </div>
          <h1>{product.name}</h1>
          <p className="product-price product-price-large">{formatPrice(product.price, currency)}</p>
          <p>{product.description}</p>
          {outOfStock ? (
            <p className="stock-note stock-out">{SHOP_MESSAGES.outOfStockNote}</p>
          ) : (
            product.stock !== null &&
            product.stock <= 10 && <p className="stock-note">{lowStockNote(product.stock)}</p>
          )}
          <fetcher.Form method="post" className="add-to-cart">
            {fromPost && <input type="hidden" name="fromPost" value={fromPost} />}
            {/* Nothing to choose a quantity of: the stepper and the total only show what can be bought. */}
            {!outOfStock && (
              <>
                <div className="field">
                  <label htmlFor="quantity">Quantity</label>
                  <div className="stepper">
                    <button
                      type="button"
                      className="icon-button"
                      aria-label="Decrease quantity"
                      disabled={quantity <= 1}
                      onClick={() => setQuantity((q) => clamp(q - 1))}
                    >
                      −
                    </button>
                    <input
                      id="quantity"
                      name="quantity"
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={product.stock ?? undefined}
                      value={quantity}
                      onChange={(event) => setQuantity(clamp(Number.parseInt(event.target.value, 10)))}
                    />
                    <button
                      type="button"
                      className="icon-button"
                      aria-label="Increase quantity"
                      disabled={quantity >= max}
                      onClick={() => setQuantity((q) => clamp(q + 1))}
                    >
                      +
                    </button>
                  </div>
                </div>
                <p className="line-total">
                  Total: <strong>{formatPrice(product.price * quantity, currency)}</strong>
                </p>
              </>
            )}
            <div className="add-to-cart-actions">
              <button type="submit" className="button" disabled={outOfStock || pending}>
                {pending ? SHOP_MESSAGES.adding : SHOP_MESSAGES.addToCart}
              </button>
              {outOfStock && <span className="badge badge-danger">{SHOP_MESSAGES.outOfStockBadge}</span>}
            </div>
          </fetcher.Form>
          {result && (
            <Notice
              tone={result.ok ? 'success' : 'error'}
              title={result.title}
              description={result.description}
            />
          )}
          {result?.ok && (
            <p>
              <Link to="/cart">View cart</Link>
            </p>
          )}
          {featuredIn.length > 0 && (
            <section className="featured-in" aria-labelledby="featured-in-heading">
              <h2 id="featured-in-heading">Featured in</h2>
              <ul>
                {featuredIn.map((post) => (
                  <li key={post.slug}>
                    <Link to={`/post/${post.slug}`}>{post.title}</Link>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
    </div>
  );
}
