import { renderToStaticMarkup } from 'react-dom/server';
import { PRODUCT_SLOT, productSlotIds } from '../blog/markdown.ts';
import type { Db } from '../db/knex.ts';
import { inStockLabel, lowStockNote, SHOP_MESSAGES } from '../shop/messages.ts';
import { activeProductsById, type Product } from '../shop/products.ts';
import { fromPrice } from '../shop/variants.ts';
import { cardPrice } from './components/shop/ProductCard.tsx';
import { ProductImage } from './components/shop/ProductImage.tsx';

function stockText(stock: number | null): string {
  if (stock === null) return 'In stock';
  if (stock === 0) return SHOP_MESSAGES.outOfStock;
  return stock <= 10 ? lowStockNote(stock) : inStockLabel(stock);
}

/**
 * A product inside a post. Its 'Add to Cart' is a plain form to /cart/add that then opens the
 * product page (a 303, so the page is a GET: counted as a view, and safe to reload), naming the
 * post for the shop's attribution.
 */
function ProductCard({
  product,
  currency,
  fromPost,
}: {
  product: Product;
  currency: string;
  fromPost?: string;
}) {
  const outOfStock = product.stock === 0;
  return (
    <aside className="product-embed card" aria-label={`Product: ${product.name}`}>
      <ProductImage src={product.image} alt="" size="thumb" />
      <div className="product-embed-body">
        <p className="product-embed-name">
          <a href={`/product/${product.id}`}>{product.name}</a>
        </p>
        <p className="product-price">
          {cardPrice({ price: product.price, fromPrice: fromPrice(product) }, currency)}
        </p>
        <p className={outOfStock ? 'stock-note stock-out' : 'stock-note'}>{stockText(product.stock)}</p>
        {product.options.length > 0 ? (
          <a href={`/product/${product.id}`} className="button button-small">
            {SHOP_MESSAGES.chooseOptions}
          </a>
        ) : (
          <form method="post" action="/cart/add">
            <input type="hidden" name="productId" value={product.id} />
            <input type="hidden" name="returnTo" value={`/product/${product.id}`} />
            {fromPost ? <input type="hidden" name="fromPost" value={fromPost} /> : null}
            <button type="submit" className="button button-small" disabled={outOfStock}>
              {SHOP_MESSAGES.addToCart}
            </button>
          </form>
        )}
      </div>
    </aside>
  );
}

function EditorWarning({ id }: { id: number }) {
  return (
    <p className="product-embed-warning" role="note">
      [product:{id}] is not an active product: readers see nothing here.
    </p>
  );
}

/**
 * Puts the current card of each product into a post's rendered HTML, in the slots its
 * [product:ID] markers left. An unknown or inactive product leaves nothing for readers, and a
 * warning in the editor's preview (`forEditor`).
 */
export async function withProductCards(
  db: Db,
  html: string,
  currency: string,
  opts: { forEditor?: boolean; fromPost?: string } = {},
): Promise<string> {
  const ids = productSlotIds(html);
  if (ids.length === 0) return html;
  const products = await activeProductsById(db, ids);
  return html.replace(PRODUCT_SLOT, (_, raw: string) => {
    const product = products.get(Number(raw));
    if (product)
      return renderToStaticMarkup(
        <ProductCard product={product} currency={currency} fromPost={opts.fromPost} />,
      );
    return opts.forEditor ? renderToStaticMarkup(<EditorWarning id={Number(raw)} />) : '';
  });
}
