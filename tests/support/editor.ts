import type { Page } from 'playwright-core';

/** The rich editor's text (the default editor once the page is live). */
export const richText = (page: Page) => page.getByRole('textbox', { name: 'Content', exact: true });

/** The Markdown the form sends: the textarea the rich editor writes into. */
export const markdownValue = (page: Page) => page.locator('textarea#content').inputValue();

/** Switches to the Markdown textarea, as a writer who prefers it does, and returns it. */
export async function markdownEditor(page: Page) {
  await richText(page).waitFor();
  const markdown = page.getByRole('button', { name: 'Markdown', exact: true });
  await markdown.click();
  await page.waitForSelector('textarea#content:not([hidden])');
  return page.getByRole('textbox', { name: 'Content', exact: true });
}
