import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useUncontrolled } from '@mantine/hooks';

/**
 * Mantine's PasswordInput with a show/hide button that Tab reaches (Mantine leaves it out of
 * the Tab order) and whose name says what it will do. The name does not contain "password":
 * label lookups match substrings, so "Show password" would also answer to the field labelled
 * "Password", for assistive tech and tests alike.
 *
 * Mantine's input here sets no aria-invalid of its own; it is set from `error` as on the
 * other inputs.
 */
export function PasswordField({
  visible,
  defaultVisible,
  onVisibilityChange,
  ...props
}: PasswordInputProps) {
  const [shown, setShown] = useUncontrolled({
    value: visible,
    defaultValue: defaultVisible,
    finalValue: false,
    onChange: onVisibilityChange,
  });
  return (
    <PasswordInput
      visible={shown}
      onVisibilityChange={setShown}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{
        'aria-label': shown ? 'Hide the value' : 'Show the value',
        // The name already tells the state; "pressed" as well would say it twice, inverted.
        'aria-pressed': undefined,
      }}
      aria-invalid={props.error ? true : undefined}
      {...props}
    />
  );
}
