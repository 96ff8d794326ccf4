/**
 * A product's options and variants as pages and the server both read them: no zod, no I/O, so
 * the product page's bundle carries only this.
 */

/** An option (Size, Colour…) and its values, in the order the product page shows them. */
export type ProductOption = { name: string; values: string[] };

/** A variant's label, the options in the product's order: 'Size: M, Colour: Blue'. */
export function variantLabel(options: ProductOption[], chosen: Record<string, string>): string {
  return options.map((o) => `${o.name}: ${chosen[o.name]}`).join(', ');
}

/** The variant of exactly these chosen values, if the product has one. */
export function findVariant<V extends { options: Record<string, string> }>(
  options: ProductOption[],
  variants: V[],
  chosen: Record<string, string>,
): V | null {
  if (options.some((o) => !chosen[o.name])) return null;
  return variants.find((v) => options.every((o) => v.options[o.name] === chosen[o.name])) ?? null;
}

/** Whether any variant with these values (others unchosen) can still be bought. */
export function anyInStock(
  variants: { options: Record<string, string>; stock: number | null }[],
  chosen: Record<string, string>,
): boolean {
  return variants.some(
    (v) => v.stock !== 0 && Object.entries(chosen).every(([name, value]) => v.options[name] === value),
  );
}

/** The lowest price a product sells at, when its variants' prices differ ('from $X'); else null. */
export function fromPrice(product: { price: number; variants: { price: number | null }[] }): number | null {
  const prices = new Set(product.variants.map((v) => v.price ?? product.price));
  return prices.size > 1 ? Math.min(...prices) : null;
}
