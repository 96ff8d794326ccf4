import { z } from 'zod';

export const BOOKMARK_MESSAGES = {
  invalidUrl: 'Enter a web address starting with http:// or https://',
  unreadable: 'That page could not be read. Check the address, or write the title yourself.',
} as const;

/** The bookmark card's address, as the editor sends it and the server reads it. */
export const bookmarkSchema = z.object({
  url: z
    .string({ error: BOOKMARK_MESSAGES.invalidUrl })
    .trim()
    .max(2048, BOOKMARK_MESSAGES.invalidUrl)
    .pipe(z.url({ protocol: /^https?$/, error: BOOKMARK_MESSAGES.invalidUrl })),
});

/** What a bookmark card shows of the page: empty strings where the page says nothing. */
export type Bookmark = { url: string; title: string; description: string; image: string };
