import { Button, Group } from '@mantine/core';
import { useCan } from '#client/lib/use-can.ts';

export type BulkAction = 'add' | 'remove' | 'export' | 'delete';

/**
 * The selection bar's action buttons. They come with the list's own code, disabled until the
 * actions' code (bulk-actions.tsx, loaded on first use) takes them over: the bar has its full
 * size from the first ticked box, so no row moves under the pointer when that code arrives.
 */
export function BulkActionButtons({
  disabled = false,
  deleting = false,
  onAction,
}: {
  disabled?: boolean;
  deleting?: boolean;
  onAction?: (action: BulkAction) => void;
}) {
  // A viewer keeps Export (without passwords); the others write.
  const mayWrite = useCan('write');
  const act = (action: BulkAction) => () => onAction?.(action);

  return (
    <Group gap="xs" wrap="wrap">
      {mayWrite && (
        <>
          <Button size="xs" variant="default" disabled={disabled} onClick={act('add')}>
            Add tag
          </Button>
          <Button size="xs" variant="default" disabled={disabled} onClick={act('remove')}>
            Remove tag
          </Button>
        </>
      )}
      <Button size="xs" variant="default" disabled={disabled} onClick={act('export')}>
        Export
      </Button>
      {mayWrite && (
        <Button
          size="xs"
          color="red"
          variant="light"
          disabled={disabled}
          loading={deleting}
          onClick={act('delete')}
        >
          Delete
        </Button>
      )}
    </Group>
  );
}
