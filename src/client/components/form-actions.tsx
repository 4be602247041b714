import { Button, Group } from '@mantine/core';

/** A form's last row: Cancel, and the button that submits it (`submit`), busy while `saving`. */
export function FormActions({
  onCancel,
  saving,
  submit = 'Save',
}: {
  onCancel: () => void;
  saving: boolean;
  submit?: string;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={saving}>
        {submit}
      </Button>
    </Group>
  );
}
