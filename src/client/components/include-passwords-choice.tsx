import { Alert, Checkbox } from '@mantine/core';
import { useCan } from '#client/lib/use-can.ts';

/**
 * The export's "Include passwords" box and, once ticked, what that means. `whose` names the
 * passwords the file would hold ("every server password", "these clients' server passwords").
 * Not offered to a role that may not read secrets (the server refuses that export).
 */
export function IncludePasswordsChoice({
  checked,
  onChange,
  whose,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  whose: string;
}) {
  const maySeeSecrets = useCan('secret');
  if (!maySeeSecrets) return null;
  return (
    <>
      <Checkbox
        label="Include passwords"
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      {checked && (
        <Alert color="yellow" title={`The file will hold ${whose} in clear`}>
          Anyone who gets the file can read them. Each password read is recorded in that
          client&apos;s history under your name. Keep the file safe and delete it when done.
        </Alert>
      )}
    </>
  );
}
