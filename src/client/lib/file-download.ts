import { ApiRequestError, NETWORK_ERROR_STATUS, toError } from './api-client.ts';

/** The file name the server chose (Content-Disposition), or a sensible one. */
function fileNameOf(response: Response): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'clients.json';
}

/**
 * Asks the API for a file (an export) and hands it to the browser as a download under the
 * name the server gave it. A refusal is thrown as the API's error, with its message.
 */
export async function downloadFile(path: string, init: RequestInit = {}): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...init });
  } catch {
    throw new ApiRequestError(
      NETWORK_ERROR_STATUS,
      'Cannot reach the server. Check your connection and try again.',
    );
  }
  if (!response.ok) throw await toError(response);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileNameOf(response);
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; the URL is not needed after this task.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
