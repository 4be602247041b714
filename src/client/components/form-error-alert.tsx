import type { ReactNode, Ref } from 'react';
import { Alert, type AlertProps } from '@mantine/core';

/**
 * Why a form was not submitted, said above its fields; nothing while there is nothing to say.
 * `children` follow the message, such as a link to what to do instead.
 */
export function FormErrorAlert({
  title,
  message,
  children,
  ...props
}: Omit<AlertProps, 'title' | 'color' | 'role' | 'children'> & {
  title: string;
  message: string | null;
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  if (!message) return null;
  return (
    <Alert {...props} color="red" title={title} role="alert">
      {message}
      {children && <> {children}</>}
    </Alert>
  );
}
