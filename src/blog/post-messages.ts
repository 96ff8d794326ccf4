/** Post editor strings of SPEC §5 and §8, shared by the admin UI, the API and the tests. */
export const POST_MESSAGES = {
  errorTitle: 'Error',
  requiredFields: 'Please fill in all required fields',
  created: 'Post created successfully',
  updated: 'Post updated successfully',
  deleted: 'Post deleted successfully',
  saveFailed: 'Failed to save post',
  deleteFailed: 'Failed to delete post',
  confirmDelete: 'Are you sure you want to delete this post?',
  notFound: 'Post not found',
  invalidCategory: 'Choose a category',
  invalidYouTube: 'Enter a YouTube link or an 11-character video id',
  invalidPodcast:
    'The podcast URL must start with http:// or https://, or be a file of this site (/uploads/…)',
  invalidImage: 'The image must be a web address (http:// or https://) or an uploaded image',
  publishAtRequired: 'Choose the date and time to publish',
  changedElsewhere: 'This post was changed elsewhere',
  revisionNotFound: 'Revision not found',
  restored: 'Revision restored',
} as const;
