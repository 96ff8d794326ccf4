/** A downloadable product's file messages, shared by the API, the product editor and the tests. */
export const PRODUCT_FILE_MESSAGES = {
  tooLarge: (maxMb: number) => `File size must be less than ${maxMb}MB`,
  noFile: 'Choose a file to upload',
  nameTooLong: 'The file name must be at most 200 characters',
  nameControl: 'The file name must not contain control characters',
  notFound: 'File not found',
} as const;
