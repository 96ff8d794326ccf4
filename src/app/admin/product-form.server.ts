import { data, type RouterContextProvider, redirect } from 'react-router';
import { NotFound } from '../../kernel/errors.ts';
import { PRODUCT_ADMIN_MESSAGES as M } from '../../shop/product-admin-messages.ts';
import { MAX_PRODUCT_VARIANTS, productSchema } from '../../shop/product-schema.ts';
import { createProduct, updateProduct } from '../../shop/products.ts';
import { type ProductOption, variantLabel } from '../../shop/variants.ts';
import { getApp } from '../context.ts';
import { requireAdminUser } from './guard.server.ts';

export type ProductFormErrors = { title: string; message: string; fields: Record<string, string> };

/**
 * Form fields → the product schema's input: price a whole number (0 when empty), stock empty =
 * unlimited, the images in their order, the options one a line ('Size: S, M, L') and a variant per
 * combination, with the stock, SKU and price its row in the variants table posted (by its label).
 */
export function productFromForm(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const whole = (value: string) => (/^-?\d+$/.test(value) ? Number(value) : Number.NaN);
  const stock = text('stock');
  const options = text('options')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [name, values = ''] = line.split(/:(.*)/s);
      return {
        name: name.trim(),
        values: values
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      };
    });
  const variants = combinations(options).map((choice) => {
    const label = variantLabel(options, choice);
    const variantStock = text(`variant-stock:${label}`);
    const variantPrice = text(`variant-price:${label}`);
    return {
      options: choice,
      stock: variantStock === '' ? null : whole(variantStock),
      sku: text(`variant-sku:${label}`),
      price: variantPrice === '' ? null : whole(variantPrice),
    };
  });
  return {
    options,
    variants,
    name: text('name'),
    description: text('description'),
    category: text('category'),
    price: text('price') === '' ? 0 : whole(text('price')),
    stock: stock === '' ? null : whole(stock),
    status: text('status') || 'active',
    featured: form.get('featured') === 'on',
    // One field per image, in the gallery's order; emptied fields drop out.
    images: form
      .getAll('images')
      .map((value) => String(value).trim())
      .filter(Boolean),
  };
}

/**
 * Every combination of the options' values, the first option varying slowest; one more than a
 * product may have at most, so the schema names the limit without this building them all.
 */
function combinations(options: ProductOption[]): Record<string, string>[] {
  if (options.length === 0) return [];
  return options.reduce<Record<string, string>[]>(
    (partial, option) =>
      partial
        .flatMap((choice) => option.values.map((value) => ({ ...choice, [option.name]: value })))
        .slice(0, MAX_PRODUCT_VARIANTS + 1),
    [{}],
  );
}

export async function saveProduct(
  context: Readonly<RouterContextProvider>,
  request: Request,
  id: number | null,
) {
  requireAdminUser(context, request);
  const { services, state } = getApp(context);
  const parsed = productSchema.safeParse(productFromForm(await request.formData()));
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    return data({ title: 'Error', message: M.saveFailed, fields } satisfies ProductFormErrors, 400);
  }
  try {
    if (id === null) await createProduct(services.db, parsed.data);
    else await updateProduct(services.db, id, parsed.data);
  } catch (err) {
    if (err instanceof NotFound) throw data(err.message, 404);
    state.log.error({ err }, 'saving a product failed');
    return data({ title: 'Error', message: M.saveFailed, fields: {} } satisfies ProductFormErrors, 500);
  }
  return redirect(`/admin?tab=products&notice=${id === null ? 'product-created' : 'product-updated'}`);
}
