import {
  importRefusedSchema,
  importReportSchema,
  type ImportReport,
} from '#shared/client-transfer.ts';
import { apiErrorSchema } from '#shared/api-error.ts';
import { ApiRequestError, NETWORK_ERROR_STATUS } from '#client/lib/api-client.ts';
import { downloadFile } from '#client/lib/file-download.ts';

/** An import the server refused as a whole (invalid documents): nothing was written. */
export class ImportRefusedError extends ApiRequestError {
  override name = 'ImportRefusedError';
  readonly report: ImportReport;
  constructor(message: string, report: ImportReport) {
    super(422, message);
    this.report = report;
  }
}

/** Downloads the export as a file; with `secrets` the passwords are in it (the server records it). */
export async function downloadExport(secrets: boolean): Promise<void> {
  await downloadFile(`/api/clients/export${secrets ? '?secrets=1' : ''}`);
}

/** Where an upload stands: bytes sent so far, then the server at work (`sent === total`). */
export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * Sends an import file (its text, as read from disk) and answers the report. XMLHttpRequest
 * rather than fetch: only it reports upload progress, which a large file needs to show.
 */
export function sendImport(
  text: string,
  options: { dryRun: boolean; skipInvalid: boolean; onProgress?: (p: UploadProgress) => void },
): Promise<ImportReport> {
  const query = new URLSearchParams();
  if (options.dryRun) query.set('dryRun', '1');
  if (options.skipInvalid) query.set('skipInvalid', '1');
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/clients/import?${query.toString()}`);
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress?.({ sent: event.loaded, total: event.total });
    });
    // Sent in full: from here on the server is at work (also when no progress event came).
    xhr.upload.addEventListener('load', () => options.onProgress?.({ sent: 1, total: 1 }));
    xhr.addEventListener('error', () =>
      reject(
        new ApiRequestError(
          NETWORK_ERROR_STATUS,
          'Cannot reach the server. Check your connection and try again.',
        ),
      ),
    );
    xhr.addEventListener('load', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a proxy's error page): handled below as an unexpected answer.
      }
      if (xhr.status === 200) {
        const report = importReportSchema.safeParse(body);
        if (report.success) resolve(report.data);
        else reject(new ApiRequestError(xhr.status, 'The server sent an unexpected response.'));
        return;
      }
      const refused = importRefusedSchema.safeParse(body);
      if (xhr.status === 422 && refused.success) {
        reject(new ImportRefusedError(refused.data.error, refused.data.report));
        return;
      }
      const error = apiErrorSchema.safeParse(body);
      reject(
        new ApiRequestError(
          xhr.status,
          error.success ? error.data.error : `The import failed (${xhr.status}).`,
        ),
      );
    });
    xhr.send(text);
  });
}
