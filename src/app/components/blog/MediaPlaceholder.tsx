const ICONS = {
  Video: <path d="M8 5.5v13l11-6.5z" fill="currentColor" stroke="none" />,
  Podcast: (
    <>
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5 11a7 7 0 0 0 14 0M12 18v3M8.5 21h7" />
    </>
  ),
  Article: <path d="M6 3h9l3 3v15H6zM9 9h6M9 13h6M9 17h4" />,
  'No Image': (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="M21 17l-5-5-8 7" />
    </>
  ),
} as const;

/**
 * What stands in for a post's missing picture: an inline SVG icon of its kind and the word.
 * No emoji: without an emoji font they render as empty boxes.
 */
export function MediaPlaceholder({ kind }: { kind: keyof typeof ICONS }) {
  return (
    <span className="media-placeholder">
      <svg
        width="28"
        height="28"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        {ICONS[kind]}
      </svg>
      <span>{kind}</span>
    </span>
  );
}
