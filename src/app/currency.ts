import { useRouteLoaderData } from 'react-router';
import { DEFAULT_CURRENCY } from '../currency.ts';
import type { loader } from './root.tsx';

/** The shop's currency (CURRENCY) for formatPrice, as the root loader gives it to every page. */
export function useCurrency(): string {
  return useRouteLoaderData<typeof loader>('root')?.currency ?? DEFAULT_CURRENCY;
}
