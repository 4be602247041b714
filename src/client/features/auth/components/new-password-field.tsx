import type { PasswordInputProps } from '@mantine/core';
import { PasswordField } from '#client/components/password-field.tsx';

/**
 * A password being chosen: the rule of `passwordSchema` said up front, and marked as new so
 * password managers offer to generate and save it.
 */
export function NewPasswordField(props: PasswordInputProps) {
  return (
    <PasswordField
      description="At least 8 characters."
      autoComplete="new-password"
      required
      {...props}
    />
  );
}
