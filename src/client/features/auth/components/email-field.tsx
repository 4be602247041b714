import { TextInput, type TextInputProps } from '@mantine/core';

/** The email address of the signed-out screens, typed so browsers offer the saved one. */
export function EmailField(props: TextInputProps) {
  return <TextInput label="Email" type="email" autoComplete="email" {...props} />;
}
