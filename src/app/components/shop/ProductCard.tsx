import { Link, useFetcher, useLocation } from 'react-router';
import { fromPriceLabel, lowStockNote, SHOP_MESSAGES } from '../../../shop/messages.ts';
import { formatPrice } from '../../../shop/price.ts';
import type { Product } from '../../../shop/products.ts';
import { fromPrice } from '../../../shop/variants.ts';
import { useCurrency } from '../../currency.ts';
import { ProductImage } from './ProductImage.tsx';

export type ProductCardData = Pick<Product, 'id' | 'name' | 'price' | 'image' | 'stock'> & {
  /** Its variants' lowest price when their prices differ: 'from $X'. */
  fromPrice: number | null;
  /** A product with options is chosen on its page: the card links there instead of adding. */
  hasOptions: boolean;
};

/** A product cut to its card: a page's data is serialized into it on every render. */
export function productCard(product: Product) {
  const { id, name, price, image, stock } = product;
  return {
    id,
    name,
    price,
    image,
    stock,
    fromPrice: fromPrice(product),
    hasOptions: product.options.length > 0,
  } satisfies ProductCardData;
}

/** A card's price: the product's, or 'from' its variants' lowest when their prices differ. */
export function cardPrice(product: { price: number; fromPrice: number | null }, currency: string): string {
  return product.fromPrice === null
    ? formatPrice(product.price, currency)
    : fromPriceLabel(formatPrice(product.fromPrice, currency));
}

export function ProductCard({
  product,
  headingLevel = 'h2',
  eager = false,
}: {
  product: ProductCardData;
  headingLevel?: 'h2' | 'h3';
  /** In view as the page opens: its image is not left to load lazily. */
  eager?: boolean;
}) {
  const currency = useCurrency();
  const location = useLocation();
  const fetcher = useFetcher();
  const Heading = headingLevel;
  const outOfStock = product.stock === 0;
  const lowStock = product.stock !== null && product.stock > 0 && product.stock <= 10;
  // Dawn's card: the whole card is one link (its title's, stretched over it), with one quiet action.
  return (
    <li className="card product-card" id={`product-${product.id}`}>
      <ProductImage src={product.image} alt="" eager={eager} />
      <div className="product-card-body">
        <Heading className="product-card-title">
          <Link to={`/product/${product.id}`} className="product-card-link">
            {/* The SPEC's 'View Details' link: the visible name is the product's. */}
            <span className="visually-hidden">View Details: </span>
            {product.name}
          </Link>
        </Heading>
        <p className="product-price">{cardPrice(product, currency)}</p>
        {outOfStock && <span className="badge badge-danger">{SHOP_MESSAGES.outOfStockBadge}</span>}
        {lowStock && <p className="stock-note">{lowStockNote(product.stock ?? 0)}</p>}
        {product.hasOptions ? (
          <p className="product-card-action">
            <Link to={`/product/${product.id}`} className="button button-small button-secondary">
              {SHOP_MESSAGES.chooseOptions}
              <span className="visually-hidden">: {product.name}</span>
            </Link>
          </p>
        ) : (
          // A plain form: it adds without JavaScript, and comes back to this card with a toast.
          <fetcher.Form method="post" action="/cart/add" className="product-card-action">
            <input type="hidden" name="productId" value={product.id} />
            <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
            <button
              type="submit"
              className="button button-small button-secondary"
              disabled={outOfStock || fetcher.state !== 'idle'}
              aria-label={`${SHOP_MESSAGES.addToCart}: ${product.name}`}
            >
              {fetcher.state !== 'idle' ? SHOP_MESSAGES.adding : SHOP_MESSAGES.addToCart}
            </button>
          </fetcher.Form>
        )}
      </div>
    </li>
  );
}
