/** The file as a whole is not something we can import: nothing in it was looked at further. */
export class ImportFileError extends Error {
  override name = 'ImportFileError';
}
