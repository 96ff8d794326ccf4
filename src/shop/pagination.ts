export const SHOP_PAGE_SIZE = 12;
const MAX_PAGE_BUTTONS = 5;

/** Up to five page numbers around the current page (SPEC §9). */
export function pageWindow(page: number, pages: number): number[] {
  const start = Math.max(1, Math.min(page - 2, pages - MAX_PAGE_BUTTONS + 1));
  const end = Math.min(pages, start + MAX_PAGE_BUTTONS - 1);
  return Array.from({ length: Math.max(0, end - start + 1) }, (_, i) => start + i);
}
