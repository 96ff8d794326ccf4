import { listFeaturedProducts } from '../../../shop/products.ts';
import type { AppContext } from '../../context.ts';
import { type ProductCardData, productCard } from './ProductCard.tsx';

/**
 * The home page's featured products: shown to everyone (DESIGN decision 2), or only to
 * signed-in visitors when the blog setting shopRequiresSignIn is on. null when hidden.
 */
export async function loadFeaturedProducts({
  services,
  state,
}: AppContext): Promise<ProductCardData[] | null> {
  const settings = await services.settings.get();
  if (settings.shopRequiresSignIn && !state.session.user) return null;
  const products = await listFeaturedProducts(services.db, 6);
  return products.map(productCard);
}
