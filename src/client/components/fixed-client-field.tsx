import type { ReactNode } from 'react';
import { TextInput } from '@mantine/core';

/**
 * The client a new server, app or issue belongs to, when its form was opened from that client:
 * shown, not chosen. Read only, yet the server may refuse it (the client was deleted, or left
 * the person's tags, while the form was open): `error` is said here.
 */
export function FixedClientField({ label, error }: { label: string; error: ReactNode }) {
  return <TextInput label="Client" value={label} readOnly variant="filled" error={error} />;
}
