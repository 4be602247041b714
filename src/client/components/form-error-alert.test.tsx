import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { FormErrorAlert } from './form-error-alert.tsx';

function render(element: ReactElement): string {
  return renderToStaticMarkup(<MantineProvider>{element}</MantineProvider>);
}

describe('FormErrorAlert', () => {
  it('shows nothing while there is no message', () => {
    const html = render(<FormErrorAlert title="Could not sign in" message={null} />);
    expect(html).not.toContain('role="alert"');
    expect(html).not.toContain('Could not sign in');
  });

  it('is an alert with the title, the message and what follows it after a space', () => {
    const html = render(
      <FormErrorAlert title="Could not change the password" message="Link expired.">
        <a href="/forgot-password">Request a new link</a>
      </FormErrorAlert>,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('Could not change the password');
    expect(html).toContain('Link expired. <a href="/forgot-password">Request a new link</a>');
  });
});
