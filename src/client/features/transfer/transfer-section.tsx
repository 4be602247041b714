import { useState } from 'react';
import { Button, Divider, FileInput, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IMPORT_MAX_BYTES } from '#shared/client-transfer.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { notifyFailure } from '#client/lib/notify-failure.ts';
import { IncludePasswordsChoice } from '#client/components/include-passwords-choice.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { downloadExport } from './api/transfer-api.ts';
import { ImportDialog } from './components/import-dialog.tsx';

/** Settings → Import and export: the whole client list to a file, and back. */
export function TransferSection() {
  // A viewer exports (without passwords) but imports nothing.
  const mayWrite = useCan('write');
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="transfer-title">
      <Stack gap="lg">
        <Title order={2} size="h4" id="transfer-title">
          {mayWrite ? 'Import and export' : 'Export'}
        </Title>
        <ExportPart />
        {mayWrite && (
          <>
            <Divider />
            <ImportPart />
          </>
        )}
      </Stack>
    </Paper>
  );
}

function ExportPart() {
  const [secrets, setSecrets] = useState(false);
  const [busy, setBusy] = useState(false);

  async function exportNow() {
    setBusy(true);
    try {
      await downloadExport(secrets);
      notifications.show({ color: 'green', message: 'Clients exported.' });
    } catch (error) {
      notifyFailure('The export failed', error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Every client, as a JSON file that this page (or <code>npm run clients -- import</code>) can
        import again.
      </Text>
      <IncludePasswordsChoice
        checked={secrets}
        onChange={setSecrets}
        whose="every server password"
      />
      <div>
        <Button onClick={() => void exportNow()} loading={busy}>
          {secrets ? 'Export clients with passwords' : 'Export clients'}
        </Button>
      </div>
    </Stack>
  );
}

/**
 * Import files are read as UTF-8, as the API reads them: `File.text()` would turn each byte of a
 * Latin-1 file that is not ASCII into U+FFFD, and import the damaged names. A byte order mark is
 * dropped.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function ImportPart() {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<{ name: string; text: string } | null>(null);

  async function choose(chosen: File | null) {
    setFile(chosen);
    setProblem(null);
    if (!chosen) return;
    if (chosen.size > IMPORT_MAX_BYTES) {
      setProblem(`The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(await chosen.arrayBuffer());
    } catch {
      setProblem(
        'This file is not UTF-8: save it as UTF-8 (most editors offer it in "Save as"), then choose it again.',
      );
      return;
    }
    try {
      JSON.parse(text);
    } catch (error) {
      setProblem(`This file is not JSON: ${errorMessage(error)}`);
      return;
    }
    setLoaded({ name: chosen.name, text });
  }

  function close() {
    setLoaded(null);
    setFile(null);
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Our own export, or a Firestore export of the original tool&apos;s <code>clients</code>{' '}
        collection. You see what would be added, updated and skipped before anything is written. A
        client whose id exists is updated; a file without passwords keeps the stored ones.
      </Text>
      <FileInput
        label="Import from a file"
        placeholder="Choose a JSON file"
        accept="application/json,.json"
        value={file}
        onChange={(chosen) => void choose(chosen)}
        error={problem}
        clearable
        maw={420}
      />
      {loaded && <ImportDialog fileName={loaded.name} text={loaded.text} onClose={close} />}
    </Stack>
  );
}
