/** The import screen's limits and texts, shared by the server and the browser's early size check. */
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;
export const IMPORT_MESSAGES = {
  tooLarge: 'The export file must be smaller than 200 MB. Nothing was imported.',
  noFile:
    'Choose a WordPress (XML), Ghost (JSON), Penstand (JSON), Substack (zip) or Medium (zip) export file, or a member list (CSV), to upload.',
} as const;
