import { useEffect, useState } from 'react';
import { data, Link, useActionData, useFetcher, useRouteLoaderData } from 'react-router';
import { fromPriceLabel, inStockLabel, SHOP_MESSAGES, taxNoteText } from '../../shop/messages.ts';
import { formatPrice } from '../../shop/price.ts';
import { getPublicProduct, parseProductId, postsFeaturing, relatedProducts } from '../../shop/products.ts';
import { maxQuantity, readQuantity } from '../../shop/quantity.ts';
import { taxNoteOf } from '../../shop/tax-note.ts';
import { anyInStock, findVariant, fromPrice } from '../../shop/variants.ts';
import { type AddToCartResult, addToCartFor } from '../add-to-cart.server.ts';
import { Notice } from '../components/shop/Notice.tsx';
import { ProductCard, productCard } from '../components/shop/ProductCard.tsx';
import { ProductGallery } from '../components/shop/ProductGallery.tsx';
import { getApp } from '../context.ts';
import { useCurrency } from '../currency.ts';
import type { RouteHandle } from '../plain-page.ts';
import type { loader as rootLoader } from '../root.tsx';
import '../styles/shop.css';
import type { Route } from './+types/product';

/** Served to sessions from a template: the loader reads nothing of the session (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const product = loaderData?.product;
  if (!loaderData || !product)
    return [{ title: `${SHOP_MESSAGES.productNotFound} — Penstand` }, { name: 'robots', content: 'noindex' }];
  const { canonical, publicUrl, currency } = loaderData;
  return [
    { title: `${product.name} — Penstand` },
    { name: 'description', content: product.description.slice(0, 160) },
    { tagName: 'link', rel: 'canonical', href: canonical },
    {
      'script:ld+json': {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: product.name,
        description: product.description,
        category: product.category,
        sku: String(product.id),
        ...(product.images.length > 0
          ? { image: product.images.map((src) => (/^https?:\/\//.test(src) ? src : `${publicUrl}${src}`)) }
          : {}),
        offers: {
          '@type': 'Offer',
          url: canonical,
          // Prices are kept in hundredths of the currency (CURRENCY only accepts such currencies).
          price: (lowestPrice(product) / 100).toFixed(2),
          priceCurrency: currency.toUpperCase(),
          availability: `https://schema.org/${product.stock === 0 ? 'OutOfStock' : 'InStock'}`,
        },
      },
    },
  ];
};

/** The least the product sells at: its variants' lowest price when it has variants, else its own. */
function lowestPrice(product: { price: number; variants: { price: number | null }[] }): number {
  if (product.variants.length === 0) return product.price;
  return Math.min(...product.variants.map((v) => v.price ?? product.price));
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { services } = getApp(context);
  const id = parseProductId(params.id);
  const { db } = services;
  const product = id ? await getPublicProduct(db, id) : null;
  if (!product) return data({ product: null, featuredIn: [], related: [], taxNote: null }, { status: 404 });
  // Tells the page view counter which product this page (stored or not) shows.
  return data(
    {
      product,
      featuredIn: await postsFeaturing(db, product.id),
      related: (await relatedProducts(db, product)).map(productCard),
      taxNote: taxNoteText(await taxNoteOf(db, { cardPayments: Boolean(services.stripe) })),
      canonical: `${services.publicUrl}/product/${product.id}`,
      publicUrl: services.publicUrl,
      currency: services.config.currency,
    },
    { headers: { 'x-page-cache-view-product': String(product.id) } },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function action({ request, params, context }: Route.ActionArgs): Promise<AddToCartResult> {
  const form = await request.formData();
  return addToCartFor(
    context,
    parseProductId(params.id),
    form.get('quantity') ?? 1,
    form.get('fromPost'),
    chosenOptions(form),
  );
}

/** The radio buttons' field of an option: `option:Size`. */
const OPTION_FIELD = 'option:';

/** The values the form chose, by option name. */
function chosenOptions(form: FormData): Record<string, string> {
  const chosen: Record<string, string> = {};
  for (const [key, value] of form)
    if (key.startsWith(OPTION_FIELD) && typeof value === 'string')
      chosen[key.slice(OPTION_FIELD.length)] = value;
  return chosen;
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const currency = useCurrency();
  const settings = useRouteLoaderData<typeof rootLoader>('root')?.settings;
  const { product, featuredIn } = loaderData;
  const fetcher = useFetcher<typeof action>();
  // Without JavaScript the form posts natively and the answer arrives as action data.
  const actionData = useActionData<typeof action>();
  // As typed: the shared rule (readQuantity) reads it, so what the server would refuse is refused here too.
  const [quantity, setQuantity] = useState('1');
  const [refused, setRefused] = useState<string | null>(null);
  const [fromPost, setFromPost] = useState('');
  // The values chosen so far (Size: M): the chosen variant's price and stock show as soon as it is one.
  const [chosen, setChosen] = useState<Record<string, string>>({});
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
  const hasOptions = product.options.length > 0;
  const variant = findVariant(product.options, product.variants, chosen);
  // Until a variant is chosen, the product's price (or 'from' its lowest) and its total stock.
  const stock = variant ? variant.stock : product.stock;
  const price = variant?.price ?? product.price;
  const lowest = variant ? null : fromPrice(product);
  const max = maxQuantity(stock);
  const outOfStock = stock === 0;
  const lowStock = stock !== null && stock <= 10;
  const pending = fetcher.state !== 'idle';
  const read = readQuantity(quantity, max);
  const count = 'quantity' in read ? read.quantity : null;
  const step = (by: number) => {
    setRefused(null);
    setQuantity(String(Math.min(Math.max(1, (count ?? 1) + by), max)));
  };
  const result = fetcher.data ?? actionData;
  return (
    <div className="container product-page">
      <p>
        <Link to="/shop">← Back to Shop</Link>
      </p>
      <div className="product-detail">
        <ProductGallery images={product.images} name={product.name} />
        <div className="product-info">
          <div className="product-badges">
            <span className="badge">{product.category}</span>
            {product.featured && <span className="badge badge-featured">Featured</span>}
            {outOfStock ? (
              <span className="badge badge-danger">{SHOP_MESSAGES.outOfStock}</span>
            ) : (
              // The one stock message: a few left shows in the warning colour, not in a second line.
              <span className={lowStock ? 'badge badge-warning' : 'badge badge-success'}>
                {stock === null ? 'In stock' : inStockLabel(stock)}
              </span>
            )}
          </div>
          <h1>{product.name}</h1>
          <p className="product-price product-price-large">
            {lowest === null ? formatPrice(price, currency) : fromPriceLabel(formatPrice(lowest, currency))}
          </p>
          {loaderData.taxNote && <p className="muted tax-note">{loaderData.taxNote}</p>}
          {outOfStock && <p className="stock-note stock-out">{SHOP_MESSAGES.outOfStockNote}</p>}
          <fetcher.Form
            method="post"
            className="add-to-cart"
            noValidate
            onSubmit={(event) => {
              if (!('error' in read)) return;
              event.preventDefault();
              setRefused(read.error);
            }}
          >
            {fromPost && <input type="hidden" name="fromPost" value={fromPost} />}
            {product.options.map((option) => (
              <fieldset key={option.name} className="field option-choice">
                <legend>{option.name}</legend>
                {option.values.map((value) => {
                  // Sold out with what else is chosen: still a choice, marked (the server refuses it).
                  const soldOut = !anyInStock(product.variants, { ...chosen, [option.name]: value });
                  return (
                    <label key={value} className="option-value">
                      <input
                        type="radio"
                        name={`${OPTION_FIELD}${option.name}`}
                        value={value}
                        checked={chosen[option.name] === value}
                        onChange={() => setChosen({ ...chosen, [option.name]: value })}
                      />
                      {value}
                      {soldOut && <span className="option-sold-out"> ({SHOP_MESSAGES.outOfStock})</span>}
                    </label>
                  );
                })}
              </fieldset>
            ))}
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
                      disabled={count !== null && count <= 1}
                      onClick={() => step(-1)}
                    >
                      −
                    </button>
                    <input
                      id="quantity"
                      name="quantity"
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={max}
                      value={quantity}
                      aria-invalid={refused ? true : undefined}
                      aria-describedby={refused ? 'quantity-error' : undefined}
                      onChange={(event) => {
                        setRefused(null);
                        setQuantity(event.target.value);
                      }}
                    />
                    <button
                      type="button"
                      className="icon-button"
                      aria-label="Increase quantity"
                      disabled={count !== null && count >= max}
                      onClick={() => step(1)}
                    >
                      +
                    </button>
                  </div>
                  {refused && (
                    <p id="quantity-error" className="field-error">
                      {refused}
                    </p>
                  )}
                </div>
                {count !== null && (
                  <p className="line-total">
                    Total: <strong>{formatPrice(price * count, currency)}</strong>
                  </p>
                )}
              </>
            )}
            <div className="add-to-cart-actions">
              <button type="submit" className="button" disabled={outOfStock || pending}>
                {pending ? SHOP_MESSAGES.adding : SHOP_MESSAGES.addToCart}
              </button>
            </div>
          </fetcher.Form>
          {hasOptions && (
            <table className="variant-table">
              <caption>Every choice</caption>
              <tbody>
                {product.variants.map((v) => (
                  <tr key={v.id} className={v.stock === 0 ? 'variant-sold-out' : undefined}>
                    <th scope="row">{v.label}</th>
                    <td>{formatPrice(v.price ?? product.price, currency)}</td>
                    <td>
                      {v.stock === 0
                        ? SHOP_MESSAGES.outOfStock
                        : v.stock === null
                          ? 'In stock'
                          : inStockLabel(v.stock)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
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
          <div className="product-description">
            {product.description.split(/\n\s*\n/).map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
          {/* Closed by default, as in most stores: they are the same on every product. */}
          {settings?.shippingNote && (
            <details className="product-note">
              <summary>Shipping</summary>
              <p>{settings.shippingNote}</p>
            </details>
          )}
          {settings?.returnsNote && (
            <details className="product-note">
              <summary>Returns</summary>
              <p>{settings.returnsNote}</p>
            </details>
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
      {loaderData.related.length > 0 && (
        <section className="related-products" aria-labelledby="related-products-heading">
          <h2 id="related-products-heading">{SHOP_MESSAGES.relatedProducts}</h2>
          <ul className="product-grid">
            {loaderData.related.map((related) => (
              <ProductCard key={related.id} product={related} headingLevel="h3" />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
