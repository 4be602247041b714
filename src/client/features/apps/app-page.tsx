import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  Alert,
  Anchor,
  Button,
  Code,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { openConfirmModal } from '#client/lib/confirm-modal.tsx';
import { useQuery } from '@tanstack/react-query';
import type { App } from '#shared/apps.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { confirmAction } from '#client/lib/confirm-action.tsx';
import { useCan } from '#client/lib/use-can.ts';
import { EditIcon, TrashIcon } from '#client/components/icons.tsx';
import { RecordField, RecordHeading, RecordPage } from '#client/components/record-page.tsx';
import { Section } from '#client/components/section.tsx';
import { VisibleText } from '#client/components/visible-text.tsx';
import { useDeleteApp, useStartRun } from './api/app-mutations.ts';
import { appQuery } from './api/app-queries.ts';
import { AppFormModal } from './components/app-form.tsx';
import { RunHistory } from './components/run-history.tsx';
import { RunLog } from './components/run-log.tsx';
import { clientLabel } from '#shared/clients.ts';

const APPS = { to: '/apps', name: 'apps' };

export function AppPage() {
  const { appId = '' } = useParams();
  return (
    <RecordPage
      record={useQuery(appQuery(appId))}
      noun="app"
      gone="removed"
      list={APPS}
      blocks={[160, 240]}
    >
      {(app) => <AppDetails app={app} />}
    </RecordPage>
  );
}

function AppDetails({ app }: { app: App }) {
  const [editing, { open: openEdit, close: closeEdit }] = useDisclosure(false);
  const mayWrite = useCan('write');
  const [params, setParams] = useSearchParams();
  // The run chosen in the history, or the newest: a deploy started here opens its own.
  const selectedRun = params.get('run') ?? app.lastRun?.id ?? null;
  const showRun = (runId: string) => setParams({ run: runId }, { replace: true });

  return (
    <Stack gap="lg">
      <RecordHeading list={APPS} title={app.name} of={{ what: 'App', client: app.client }} />

      {mayWrite && <AppActions app={app} onEdit={openEdit} onStarted={showRun} />}

      <Paper withBorder radius="md" p="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          <RecordField label="Server">
            {app.server ? (
              <>
                <Anchor
                  component={Link}
                  to={`/servers/${encodeURIComponent(app.server.id)}`}
                  size="sm"
                >
                  {app.server.label}
                </Anchor>
                <Text span size="sm" ff="monospace">{` ${app.server.host}`}</Text>
              </>
            ) : (
              <Text span size="sm" c="var(--mantine-color-error)">
                None: its server was removed. Edit the app to choose one.
              </Text>
            )}
          </RecordField>
          <RecordField label="Directory">
            <Text span size="sm" ff="monospace">
              {app.effectiveDirectory || '—'}
            </Text>
            {app.directory === '' && (
              <Text span size="xs" c="dimmed">
                {app.effectiveDirectory === ''
                  ? " (none: the SSH user's home folder)"
                  : " (the server's uiDir)"}
              </Text>
            )}
          </RecordField>
          <RecordField label="Run command">
            <Text span size="sm" ff="monospace">
              <VisibleText text={app.effectiveCommand} />
            </Text>
            {app.command === null && (
              <Text span size="xs" c="dimmed">
                {' '}
                (the default)
              </Text>
            )}
          </RecordField>
          <RecordField label="Domains">
            {app.domains.length === 0 ? (
              <Text span size="sm" c="dimmed">
                None
              </Text>
            ) : (
              <Stack gap={2} component="span">
                {app.domains.map((domain) => (
                  <Anchor
                    key={domain}
                    href={domain}
                    target="_blank"
                    rel="noopener noreferrer"
                    size="sm"
                  >
                    <VisibleText text={domain} />
                  </Anchor>
                ))}
              </Stack>
            )}
          </RecordField>
        </SimpleGrid>
      </Paper>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 1, md: 2 }}>
          <Section title="Run">
            {selectedRun ? (
              <RunLog key={selectedRun} runId={selectedRun} />
            ) : (
              <Text size="sm" c="dimmed">
                {mayWrite ? 'Not deployed yet: Deploy runs it.' : 'Not deployed yet.'}
              </Text>
            )}
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 2, md: 1 }}>
          <Section title="History">
            <RunHistory appId={app.id} selected={selectedRun} />
          </Section>
        </Grid.Col>
      </Grid>

      <AppFormModal opened={editing} onClose={closeEdit} app={app} />
    </Stack>
  );
}

function AppActions({
  app,
  onEdit,
  onStarted,
}: {
  app: App;
  onEdit: () => void;
  onStarted: (runId: string) => void;
}) {
  const navigate = useNavigate();
  const start = useStartRun();
  const remove = useDeleteApp();
  const [refusal, setRefusal] = useState<string | null>(null);
  const running = app.lastRun?.state === 'running';

  function confirmDeploy() {
    if (!app.server) return;
    const server = app.server;
    openConfirmModal({
      title: `Deploy ${app.name}?`,
      children: (
        <Stack gap="xs">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {`Runs this command on ${server.label} (${server.host}), in ${app.effectiveDirectory || "the SSH user's home folder"}:`}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            <VisibleText text={app.effectiveCommand} />
          </Code>
          <Text size="xs" c="dimmed">
            The placeholders in braces are filled in on the server. The log hides your access token
            and every credential, but not what the command makes of them: read it first.
          </Text>
        </Stack>
      ),
      labels: { confirm: 'Deploy', cancel: 'Cancel' },
      onConfirm: () => {
        setRefusal(null);
        // What the dialog showed: a command, server or directory changed since is refused, not
        // run in their name.
        const shown = {
          version: app.version,
          host: server.host,
          directory: app.effectiveDirectory,
        };
        void start.mutateAsync({ id: app.id, ...shown }).then(
          (run) => onStarted(run.id),
          (error: unknown) => setRefusal(errorMessage(error)),
        );
      },
    });
  }

  function confirmRemove() {
    confirmAction({
      title: 'Remove app',
      text: `Remove the app ${app.name} of ${clientLabel(app.client)}? Its runs and their logs go with it.`,
      confirm: 'Remove',
      // The move happens whatever the page shows by then: the live feed's echo of the delete can
      // make this page "not found" before the answer.
      run: () => remove.mutateAsync(app).then(() => navigate('/apps')),
      done: 'App removed.',
    });
  }

  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button loading={start.isPending} disabled={!app.server} onClick={confirmDeploy}>
          Deploy
        </Button>
        <Button variant="default" leftSection={<EditIcon size={16} />} onClick={onEdit}>
          Edit
        </Button>
        <Button
          variant="default"
          color="red"
          leftSection={<TrashIcon size={16} />}
          loading={remove.isPending}
          onClick={confirmRemove}
        >
          Remove
        </Button>
      </Group>
      {running && (
        <Text size="sm" c="dimmed">
          {`A deploy is running, started by ${app.lastRun?.startedBy.name ?? 'someone'}.`}
        </Text>
      )}
      {refusal && (
        <Alert
          color="red"
          title="The deploy did not start"
          role="alert"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setRefusal(null)}
        >
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {refusal}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
