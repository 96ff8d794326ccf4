/**
 * The one rule for a media field (images of posts, products and settings, a post's podcast
 * audio): a web address, or a file this site serves itself — an upload (/uploads/…) or the demo
 * content's files (/demo/…). No other
 * scheme (javascript:, data:), no protocol-relative //host, no way out of those folders.
 */
export function isMediaReference(value: string): boolean {
  if (/^https?:\/\/\S+$/i.test(value)) return true;
  return /^\/(uploads|demo)\/[\w.-]+(\/[\w.-]+)*$/.test(value) && !value.split('/').includes('..');
}
