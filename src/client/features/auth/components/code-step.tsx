import { useId, useState } from 'react';
import { Anchor, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { TRUST_DEVICE_DAYS } from '#shared/second-factors.ts';
import { codeErrorMessage, mustSignInAgain, plainCode } from '#client/lib/second-factor-errors.ts';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

/**
 * The sign-in's second step when Better Auth answers `twoFactorRedirect`: a code from the
 * authenticator app, or one of the backup codes, and whether to trust this browser.
 */
export function CodeStep({
  onSignedIn,
  onStartOver,
}: {
  onSignedIn: () => void;
  /** The pending sign-in is over (expired, or too many wrong codes): back to the password. */
  onStartOver: (message: string) => void;
}) {
  const [backup, setBackup] = useState(false);
  const formId = useId();
  const form = useForm({
    initialValues: { code: '', trustDevice: false },
    validate: {
      code: (value) => {
        const code = plainCode(value);
        if (code === '') return backup ? 'Enter a backup code' : 'Enter the six digits';
        if (!backup && !/^\d{6}$/.test(code)) return 'Enter the six digits';
        return null;
      },
    },
  });

  const submit = form.onSubmit(
    async ({ code, trustDevice }) => {
      const body = { code: plainCode(code), trustDevice };
      const { error } = backup
        ? await authClient.twoFactor.verifyBackupCode(body)
        : await authClient.twoFactor.verifyTotp(body);
      if (error) {
        const message = codeErrorMessage(error) ?? authErrorMessage(error);
        if (mustSignInAgain(error)) onStartOver(message);
        else showFieldRefusal(form, formId, 'code', message);
        return;
      }
      onSignedIn();
    },
    () => focusFirstError(formId),
  );

  function switchKind() {
    setBackup((was) => !was);
    form.setFieldValue('code', '');
    form.clearFieldError('code');
  }

  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          {backup
            ? 'Enter one of the backup codes you saved when you set up two-factor sign-in. Each works once.'
            : 'Enter the six-digit code from your authenticator app.'}
        </Text>
        <TextInput
          key={backup ? 'backup' : 'totp'}
          label={backup ? 'Backup code' : 'Authentication code'}
          inputMode={backup ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          data-autofocus
          autoFocus
          required
          {...form.getInputProps('code')}
        />
        <Checkbox
          label={`Trust this device for ${TRUST_DEVICE_DAYS} days`}
          {...form.getInputProps('trustDevice', { type: 'checkbox' })}
        />
        <Button type="submit" fullWidth loading={form.submitting}>
          Verify
        </Button>
        <Anchor component="button" type="button" size="sm" ta="center" onClick={switchKind}>
          {backup ? 'Use the authenticator app' : 'Use a backup code'}
        </Anchor>
      </Stack>
    </form>
  );
}
