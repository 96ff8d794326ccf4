/** Comment moderation strings of SPEC §2, §5 and §8, shared by the admin UI, the API and tests. */
export const MODERATION_MESSAGES = {
  approved: 'Comment approved',
  rejected: 'Comment rejected',
  /** The toast after each moderation decision. */
  decided: {
    approve: 'Comment approved',
    reject: 'Comment rejected',
    pending: 'Comment moved back to pending',
  },
  moderated: 'Comment moderated successfully',
  replied: 'Reply published',
  replyFailed: 'Failed to publish the reply',
  replyTo: (name: string) => `Reply to ${name}`,
  deletedTitle: 'Comment deleted',
  deleted: 'Comment has been permanently deleted',
  moderateFailed: 'Failed to moderate comment',
  deleteFailed: 'Failed to delete comment',
  loadPendingFailed: 'Failed to load pending comments',
  loadFailed: 'Failed to load comments',
  notFound: 'Comment not found',
  confirmDelete: (name: string) =>
    `Are you sure you want to delete the comment by ${name}? This action cannot be undone.`,
  caughtUp: 'All caught up!',
  noPending: 'No comments are pending moderation.',
  noneFound: 'No comments found',
  adjustFilters: 'Try adjusting your filters.',
  noneYet: 'No comments have been submitted yet.',
  tryAgain: 'Try Again',
} as const;
