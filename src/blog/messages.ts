/** The blog's reader-facing strings, word for word from SPEC §2, §5 and §8. */
export const BLOG_MESSAGES = {
  tagline: 'Stories from professional life and beyond',
  noPosts: 'No posts found',
  noPostsFiltered: 'Try adjusting your search or filter criteria.',
  noPostsYet: 'Check back soon for new content!',
  welcomePlaceholder: 'Welcome to My Blog',
  postNotFound: 'Post Not Found',
  postNotFoundText: "The post you're looking for doesn't exist or has been removed.",
  listen: 'Listen to this post',
  relatedPosts: 'Related Posts',
  share: 'Share this post',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  copyFailed: 'The link could not be copied',
  previousPost: 'Previous post',
  nextPost: 'Next post',
  missingInfo: { title: 'Missing information', description: 'Please fill in all fields.' },
  invalidEmail: { title: 'Invalid email', description: 'Please enter a valid email address.' },
  commentFailed: { title: 'Error', description: 'Failed to post comment. Please try again.' },
  commentPending: {
    title: 'Comment submitted',
    description: 'Thank you! Your comment is awaiting moderation and will appear once approved.',
  },
  /** The title over the comments limit's message. */
  commentLimitedTitle: 'Error',
  /** A like for a comment id that names none. */
  unknownComment: 'Unknown comment',
  commentTooFast: {
    title: 'Please send it again',
    description: 'That was quicker than we expected from a person. Check your comment and post it once more.',
  },
  replyParentInvalid: 'parentId must be a comment id.',
  replyParentMissing: {
    title: 'Error',
    description: 'The comment you are replying to is not available. Please reload the page and try again.',
  },
  replyPending: {
    title: 'Reply submitted',
    description: 'Thank you! Your reply is awaiting moderation and will appear once approved.',
  },
  replyPublished: { title: 'Reply published', description: 'Your reply is on the page.' },
  // Shares no word with the other labels, which readers (and tests) find the fields by.
  notifyLabel: 'Notify me by mail when it is published or answered',
  authorMark: 'Author',
  /** Shown to the moderator beside a comment that filled the form's hidden field. */
  honeypotReason: 'it filled in a form field that people cannot see',
  // Double opt-in: nothing is sent until the reader opens the mailed link, so say where to look.
  subscribed: {
    title: 'Check your inbox',
    description: 'We sent you a link to confirm your subscription to the newsletter.',
  },
} as const;

export const HOME_CATEGORIES = ['All', 'Technology', 'Design', 'Tutorial', 'Life', 'Podcasts'] as const;

/** Longest accepted comment fields; the form and the schema share them. */
export const COMMENT_LIMITS = { author: 100, email: 254, content: 5000 } as const;
