import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * Mantine's PasswordInput with a show/hide button whose name does not contain "password":
 * the default, "Toggle password visibility", also matches a lookup of the field labelled
 * "Password" (label lookups match substrings), for assistive tech and tests alike.
 */
export function PasswordField(props: PasswordInputProps) {
  return (
    <PasswordInput
      visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the value' }}
      {...props}
    />
  );
}
