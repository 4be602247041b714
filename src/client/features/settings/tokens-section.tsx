import { useId, useState } from 'react';
import {
  Alert,
  Button,
  Code,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import {
  createTokenInputSchema,
  tokenScopeSchema,
  type ApiToken,
  type CreatedToken,
  type TokenScope,
} from '#shared/tokens.ts';
import { errorMessage, isApiError } from '#client/lib/api-client.ts';
import { copyText } from '#client/lib/clipboard.ts';
import { useIsMounted } from '#client/lib/is-mounted.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { tokensQuery, useCreateToken, useRevokeToken } from './api/tokens.ts';
import { confirmAction } from '#client/lib/confirm-action.tsx';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export const SCOPE_LABELS: Record<TokenScope, string> = {
  read: 'Read',
  'read+secrets': 'Read and secrets',
  write: 'Write',
};

const SCOPE_OPTIONS = (Object.keys(SCOPE_LABELS) as TokenScope[]).map((scope) => ({
  value: scope,
  label: SCOPE_LABELS[scope],
}));

const SCOPE_HELP: Record<TokenScope, string> = {
  read: 'Clients, servers, the vault list and history; no secret.',
  'read+secrets': 'Also passwords, vault secrets and the deploy command.',
  write: 'Also adds, changes and deletes, and reads secrets.',
};

const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
];

/** Personal API tokens: make one (shown once), see each one's last use, revoke it. */
export function TokensSection() {
  const tokens = useQuery(tokensQuery());
  const [created, setCreated] = useState<CreatedToken | null>(null);
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="api-tokens-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="api-tokens-title">
          API tokens
        </Title>
        <Text size="sm" c="dimmed">
          For scripts that call the Clients Manager API with{' '}
          <Code>Authorization: Bearer &lt;token&gt;</Code>. A token never does more than you may:
          your role and tags apply to it, and when they change, so does what the token may do.
        </Text>
        {created ? (
          <NewToken created={created} onDone={() => setCreated(null)} />
        ) : (
          <CreateTokenForm onCreated={setCreated} />
        )}
        {tokens.isPending && <Skeleton height={80} />}
        {tokens.isError && <Alert color="red">{errorMessage(tokens.error)}</Alert>}
        {tokens.data &&
          (tokens.data.tokens.length === 0 ? (
            <Text size="sm" c="dimmed">
              You have no API tokens.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" aria-label="Your API tokens">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Scope</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>Expires</Table.Th>
                    <Table.Th>Last used</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {tokens.data.tokens.map((token) => (
                    <TokenRow key={token.id} token={token} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ))}
      </Stack>
    </Paper>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (created: CreatedToken) => void }) {
  const create = useCreateToken();
  const isMounted = useIsMounted();
  const [problem, setProblem] = useState<string | null>(null);
  const formId = useId();
  const form = useForm({
    initialValues: { name: '', scope: 'read', expires: '90' },
    validate: (values) => {
      const result = createTokenInputSchema.shape.name.safeParse(values.name);
      return result.success ? {} : { name: result.error.issues[0]?.message ?? 'Invalid name' };
    },
  });

  const submit = form.onSubmit(
    async ({ name, scope, expires }) => {
      setProblem(null);
      try {
        const created = await create.mutateAsync({
          name: name.trim(),
          scope: tokenScopeSchema.parse(scope),
          expiresInDays: expires === 'never' ? null : (Number(expires) as 30 | 90 | 365),
        });
        if (isMounted()) {
          form.reset();
          onCreated(created);
        } else {
          // Left before it was made: the token is shown once, on this page, which is gone.
          notifications.show({
            color: 'yellow',
            autoClose: false,
            message: `The API token “${created.token.name}” was made while you left Settings, so it was not shown: revoke it there and make another.`,
          });
        }
      } catch (error) {
        const fields = isApiError(error, 400) ? error.fields : {};
        if (fields.name) showFieldRefusal(form, formId, 'name', fields.name);
        else setProblem(errorMessage(error));
      }
    },
    () => focusFirstError(formId),
  );

  return (
    <form id={formId} onSubmit={submit} noValidate aria-label="Create an API token">
      <Stack gap="sm">
        <FormErrorAlert title="The token was not created" message={problem} />
        <TextInput
          label="Token name"
          description="What it is for, e.g. the deploy script"
          autoComplete="off"
          maxLength={100}
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Scope"
            description={SCOPE_HELP[tokenScopeSchema.catch('read').parse(form.values.scope)]}
            data={SCOPE_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('scope')}
          />
          <Select
            label="Expires"
            description="Revoke it any time before."
            data={EXPIRY_OPTIONS}
            allowDeselect={false}
            {...form.getInputProps('expires')}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create token
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The new token, shown this once: it is kept nowhere but here until the person is done. */
function NewToken({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  async function copy() {
    if (await copyText(created.secret)) {
      notifications.show({ color: 'green', message: 'Token copied to clipboard.' });
    }
  }
  return (
    // The token is one long word, and the name may be: unbroken, either widens the alert's
    // content past its edge on a phone and cuts off the text beside it. A <pre> keeps its line
    // whole unless told to wrap; the copy takes the token itself, not the wrapped text.
    <Alert
      color="yellow"
      title={`Token “${created.token.name}” created`}
      style={{ overflowWrap: 'anywhere' }}
    >
      <Stack gap="sm">
        <Text size="sm">Copy it now: it is not shown again, and it cannot be recovered.</Text>
        <Code block aria-label="New API token" style={{ whiteSpace: 'pre-wrap' }}>
          {created.secret}
        </Code>
        <Group gap="sm">
          <Button size="xs" onClick={() => void copy()}>
            Copy token
          </Button>
          <Button size="xs" variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function TokenRow({ token }: { token: ApiToken }) {
  const revoke = useRevokeToken();
  // As of when the row was shown: the list is asked again after every change.
  const [shownAt] = useState(() => Date.now());
  const expired = token.expiresAt !== null && new Date(token.expiresAt).getTime() <= shownAt;

  function confirmRevoke() {
    confirmAction({
      title: 'Revoke API token',
      text: `Revoke ${token.name}? Scripts using it are refused from their next request.`,
      confirm: 'Revoke',
      run: () => revoke.mutateAsync(token.id),
      done: 'Token revoked.',
    });
  }

  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        <Stack gap={2}>
          <Text size="sm">{token.name}</Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {token.prefix}…
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {SCOPE_LABELS[token.scope]}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{day.format(new Date(token.createdAt))}</Text>
      </Table.Td>
      <Table.Td>
        {token.expiresAt === null ? (
          <Text size="sm">Never</Text>
        ) : (
          <Text size="sm" c={expired ? 'red' : undefined}>
            {expired ? 'Expired ' : ''}
            {day.format(new Date(token.expiresAt))}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          {token.lastUsedAt === null ? 'Never' : when.format(new Date(token.lastUsedAt))}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={confirmRevoke}
            loading={revoke.isPending}
            aria-label={`Revoke ${token.name}`}
          >
            Revoke
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
