import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { ImportReport } from '#shared/client-transfer.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { clientKeys } from '#client/lib/query-keys.ts';
import { VisibleText } from '#client/components/visible-text.tsx';
import { ImportRefusedError, sendImport, type UploadProgress } from '../api/transfer-api.ts';
import { ImportReportView, count } from './import-report-view.tsx';

type Step =
  | { kind: 'checking'; progress: UploadProgress | null }
  | { kind: 'review'; report: ImportReport }
  | { kind: 'importing'; report: ImportReport; progress: UploadProgress | null }
  | { kind: 'failed'; message: string; report?: ImportReport };

/**
 * Sending the file, then the server's work: the bar fills with the upload, then pulses. A
 * browser may report no upload progress at all (Chromium on a fast link says nothing until the
 * answer starts): then it pulses from the start.
 */
function UploadBar({ progress, working }: { progress: UploadProgress | null; working: string }) {
  const sent = progress && progress.total > 0 ? progress.sent / progress.total : 1;
  const uploading = sent < 1;
  const label = uploading ? `Sending the file… ${Math.floor(sent * 100)}%` : working;
  return (
    <Stack gap={6}>
      <Progress
        value={uploading ? Math.max(sent * 100, 2) : 100}
        animated={!uploading}
        striped={!uploading}
        size="lg"
        aria-label={label}
      />
      <Text size="sm" c="dimmed" role="status">
        {label}
      </Text>
    </Stack>
  );
}

/**
 * The import of one file: a dry run first (what would be new, updated, invalid), then on
 * confirmation the import itself, which the server applies in one transaction.
 */
export function ImportDialog({
  fileName,
  text,
  onClose,
}: {
  fileName: string;
  text: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'checking', progress: null });

  useEffect(() => {
    let current = true;
    sendImport(text, {
      dryRun: true,
      skipInvalid: false,
      onProgress: (progress) => current && setStep({ kind: 'checking', progress }),
    }).then(
      (report) => current && setStep({ kind: 'review', report }),
      (error: unknown) => current && setStep({ kind: 'failed', message: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [text]);

  async function apply(report: ImportReport) {
    setStep({ kind: 'importing', report, progress: null });
    try {
      const done = await sendImport(text, {
        dryRun: false,
        skipInvalid: report.invalid.length > 0,
        onProgress: (progress) => setStep({ kind: 'importing', report, progress }),
      });
      await queryClient.invalidateQueries({ queryKey: clientKeys.all });
      notifications.show({
        color: 'green',
        message: `Import done: ${count(done.created)} new, ${count(done.updated)} updated.`,
      });
      onClose();
    } catch (error) {
      setStep({
        kind: 'failed',
        message: errorMessage(error),
        ...(error instanceof ImportRefusedError ? { report: error.report } : {}),
      });
    }
  }

  const busy = step.kind === 'checking' || step.kind === 'importing';
  const writes = step.kind === 'review' ? step.report.created + step.report.updated : 0;

  return (
    <Modal
      opened
      onClose={onClose}
      title={
        <>
          Import <VisibleText text={fileName} />
        </>
      }
      size="lg"
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="md">
        {step.kind === 'checking' && (
          <UploadBar progress={step.progress} working="Checking the documents…" />
        )}
        {step.kind === 'review' && (
          <>
            <ImportReportView report={step.report} />
            <Text size="sm">
              {writes === 0
                ? 'Nothing to import: every valid client is here already as it is in the file.'
                : 'Nothing has been written yet. The import is applied in one go: all of it, or nothing if something fails.'}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button disabled={writes === 0} onClick={() => void apply(step.report)}>
                Import {count(writes)} {writes === 1 ? 'client' : 'clients'}
              </Button>
            </Group>
          </>
        )}
        {step.kind === 'importing' && (
          <UploadBar
            progress={step.progress}
            working={`Writing ${count(step.report.created + step.report.updated)} clients…`}
          />
        )}
        {step.kind === 'failed' && (
          <>
            <Alert color="red" title="Nothing was imported" role="alert">
              {/* The server's reason may quote the file. */}
              <VisibleText text={step.message} />
            </Alert>
            {step.report && <ImportReportView report={step.report} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
