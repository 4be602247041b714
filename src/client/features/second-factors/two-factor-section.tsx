import { useId, useRef, useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { meKey, useMe } from '#client/lib/session.ts';
import { PasswordField } from '#client/components/password-field.tsx';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';
import { focusWhenShown } from '#client/lib/focus-when-shown.ts';
import { TotpSetUp } from './totp-set-up.tsx';

/** Settings: authenticator codes on or off. */
export function TwoFactorSection() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'view' | 'set-up' | 'turn-off'>('view');
  // The button that opened set-up or turn-off, drawn again when it is cancelled: focus goes
  // back to it, where it would otherwise fall to the page.
  const openerRef = useRef<HTMLButtonElement>(null);
  const done = () => {
    setMode('view');
    void queryClient.invalidateQueries({ queryKey: meKey });
  };
  const cancel = () => {
    setMode('view');
    focusWhenShown(() => openerRef.current);
  };

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="two-factor-title">
      <Stack gap="md">
        <Group gap="sm">
          <Title order={2} size="h4" id="two-factor-title">
            Two-factor sign-in
          </Title>
          {mode === 'view' && (
            <Badge variant="light" color={me.twoFactorEnabled ? 'green' : 'gray'}>
              {me.twoFactorEnabled ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        {mode === 'set-up' && <TotpSetUp onFinished={done} onCancel={cancel} focusPassword />}
        {mode === 'turn-off' && <TurnOff onDone={done} onCancel={cancel} />}
        {mode === 'view' && (
          <>
            <Text size="sm" c="dimmed">
              {me.twoFactorEnabled
                ? 'Signing in with your password also asks for a code from your authenticator app, or one of your backup codes.'
                : 'Ask for a code from an authenticator app as well as your password when you sign in.'}
            </Text>
            <Group>
              {me.twoFactorEnabled ? (
                <Button
                  ref={openerRef}
                  variant="default"
                  color="red"
                  onClick={() => setMode('turn-off')}
                >
                  Turn off two-factor sign-in
                </Button>
              ) : (
                <Button ref={openerRef} onClick={() => setMode('set-up')}>
                  Set up two-factor sign-in
                </Button>
              )}
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}

function TurnOff({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const formId = useId();
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (value) => (value === '' ? 'Enter your password' : null) },
  });
  const submit = form.onSubmit(
    async ({ password }) => {
      const { error } = await authClient.twoFactor.disable({ password });
      if (error) {
        showFieldRefusal(form, formId, 'password', authErrorMessage(error));
        return;
      }
      notifications.show({ color: 'green', message: 'Two-factor sign-in is off.' });
      onDone();
    },
    () => focusFirstError(formId),
  );
  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Your authenticator app and backup codes will no longer be asked for, and devices you
          trusted will ask again.
        </Text>
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          required
          // Shown in place of the button that opened it: focus goes to its field.
          autoFocus
          {...form.getInputProps('password')}
        />
        <Group gap="sm">
          <Button type="submit" color="red" loading={form.submitting}>
            Turn off
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
