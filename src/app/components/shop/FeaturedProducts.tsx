import '../../styles/shop.css';
import type { ProductCardData } from './ProductCard.tsx';
import { ProductCard } from './ProductCard.tsx';

/** Home page section: up to 6 featured products; renders nothing when there are none or it is hidden. */
export function FeaturedProducts({ products }: { products: ProductCardData[] | null }) {
  if (!products || products.length === 0) return null;
  return (
    <section className="container featured-products" aria-labelledby="featured-products-heading">
      <h2 id="featured-products-heading">Featured Products</h2>
      <ul className="product-grid">
        {products.map((product) => (
          <ProductCard key={product.id} product={product} headingLevel="h3" />
        ))}
      </ul>
    </section>
  );
}
