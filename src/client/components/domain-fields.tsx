import type { ReactNode } from 'react';
import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { PlusIcon, TrashIcon } from './icons.tsx';

/** What the fields use of a form (Mantine's `useForm`) whose values have a `domains` list. */
interface DomainsForm {
  values: { domains: readonly string[] };
  errors: Record<string, ReactNode>;
  getInputProps: (path: `domains.${number}`) => object;
  removeListItem: (path: 'domains', index: number) => void;
  insertListItem: (path: 'domains', item: string) => void;
}

/**
 * A form's list of web addresses (a client's, an app's): one input each, a way to remove each
 * and to add one, and an error about the list as a whole under them.
 */
export function DomainFields({
  form,
  description,
}: {
  form: DomainsForm;
  description?: ReactNode;
}) {
  const listError = form.errors.domains;
  return (
    <Fieldset legend="Domains">
      <Stack gap="xs">
        {description && (
          <Text size="xs" c="dimmed">
            {description}
          </Text>
        )}
        {form.values.domains.map((_, index) => (
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              flex={1}
              type="url"
              aria-label={`Domain ${index + 1}`}
              placeholder="https://example.com"
              autoComplete="off"
              {...form.getInputProps(`domains.${index}`)}
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={`Remove domain ${index + 1}`}
              onClick={() => form.removeListItem('domains', index)}
            >
              <TrashIcon size={16} />
            </ActionIcon>
          </Group>
        ))}
        {typeof listError === 'string' && (
          <Text size="xs" c="var(--mantine-color-error)" role="alert">
            {listError}
          </Text>
        )}
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<PlusIcon size={14} />}
          onClick={() => form.insertListItem('domains', '')}
          style={{ alignSelf: 'flex-start' }}
        >
          Add domain
        </Button>
      </Stack>
    </Fieldset>
  );
}
