import { useId, useState } from 'react';
import { Button, Checkbox, Code, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { renderSVG } from 'uqr';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { PasswordField } from '#client/components/password-field.tsx';
import { codeErrorMessage, plainCode } from '#client/lib/second-factor-errors.ts';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

type Step =
  | { name: 'password' }
  | { name: 'scan'; totpURI: string; backupCodes: string[] }
  | { name: 'backup-codes'; backupCodes: string[] };

/**
 * Turning on authenticator codes, as Better Auth asks: the password, then the app is set up
 * from the QR code (or the secret typed in) and proves it with a first code; the ten backup
 * codes are shown once, after that, and the person says they saved them.
 */
export function TotpSetUp({
  onFinished,
  onCancel,
  onStarted,
  focusPassword = false,
}: {
  onFinished: () => void;
  onCancel?: (() => void) | undefined;
  /** The password was right and the QR code is shown. */
  onStarted?: (() => void) | undefined;
  /** Opened by a button it replaces: focus goes to the password field, not to the page. */
  focusPassword?: boolean;
}) {
  const [step, setStep] = useState<Step>({ name: 'password' });
  if (step.name === 'password') {
    return (
      <PasswordStep
        focusPassword={focusPassword}
        onCancel={onCancel}
        onEnabled={(totpURI, backupCodes) => {
          setStep({ name: 'scan', totpURI, backupCodes });
          onStarted?.();
        }}
      />
    );
  }
  if (step.name === 'scan') {
    return (
      <ScanStep
        totpURI={step.totpURI}
        onCancel={onCancel}
        onConfirmed={() => setStep({ name: 'backup-codes', backupCodes: step.backupCodes })}
      />
    );
  }
  return <BackupCodesStep backupCodes={step.backupCodes} onFinished={onFinished} />;
}

function PasswordStep({
  onEnabled,
  onCancel,
  focusPassword,
}: {
  onEnabled: (totpURI: string, backupCodes: string[]) => void;
  onCancel?: (() => void) | undefined;
  focusPassword: boolean;
}) {
  const formId = useId();
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (value) => (value === '' ? 'Enter your password' : null) },
  });
  const submit = form.onSubmit(
    async ({ password }) => {
      const { data, error } = await authClient.twoFactor.enable({ password });
      if (error) {
        showFieldRefusal(form, formId, 'password', authErrorMessage(error));
        return;
      }
      if ('totpURI' in data) onEnabled(data.totpURI, data.backupCodes);
    },
    () => focusFirstError(formId),
  );
  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          Use an authenticator app (such as 1Password, Google Authenticator or Microsoft
          Authenticator) to make a six-digit code at every sign-in.
        </Text>
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          required
          autoFocus={focusPassword}
          {...form.getInputProps('password')}
        />
        <Group gap="sm">
          <Button type="submit" loading={form.submitting}>
            Continue
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function ScanStep({
  totpURI,
  onConfirmed,
  onCancel,
}: {
  totpURI: string;
  onConfirmed: () => void;
  onCancel?: (() => void) | undefined;
}) {
  const secret = new URL(totpURI).searchParams.get('secret') ?? '';
  const qrCode = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(totpURI, { border: 2 }))}`;
  const formId = useId();
  const form = useForm({
    initialValues: { code: '' },
    validate: {
      code: (value) => (/^\d{6}$/.test(plainCode(value)) ? null : 'Enter the six digits'),
    },
  });
  const submit = form.onSubmit(
    async ({ code }) => {
      const { error } = await authClient.twoFactor.verifyTotp({ code: plainCode(code) });
      if (error) {
        showFieldRefusal(form, formId, 'code', codeErrorMessage(error) ?? authErrorMessage(error));
        return;
      }
      onConfirmed();
    },
    () => focusFirstError(formId),
  );
  return (
    <form id={formId} onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">Scan this QR code with your authenticator app:</Text>
        <img
          src={qrCode}
          width={200}
          height={200}
          alt="QR code to add Clients Manager to your authenticator app"
          style={{ imageRendering: 'pixelated', background: 'white' }}
        />
        <Text size="sm">
          Or type this secret into the app:{' '}
          <Code fz="sm" style={{ wordBreak: 'break-all' }}>
            {secret}
          </Code>
        </Text>
        <TextInput
          label="Code from the app"
          description="Six digits, to check that the app is set up"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          {...form.getInputProps('code')}
        />
        <Group gap="sm">
          <Button type="submit" loading={form.submitting}>
            Turn on
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function BackupCodesStep({
  backupCodes,
  onFinished,
}: {
  backupCodes: string[];
  onFinished: () => void;
}) {
  const [saved, setSaved] = useState(false);
  return (
    <Stack gap="sm">
      <Text size="sm" fw={500}>
        Two-factor sign-in is on. Save these backup codes now: they are shown only once.
      </Text>
      <Text size="sm">
        Each one signs you in once if you do not have your authenticator app with you.
      </Text>
      <List
        aria-label="Backup codes"
        listStyleType="none"
        spacing={4}
        ff="monospace"
        styles={{ root: { columns: 2 } }}
      >
        {backupCodes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Checkbox
        label="I have saved them"
        checked={saved}
        onChange={(event) => setSaved(event.currentTarget.checked)}
      />
      <Group>
        <Button disabled={!saved} onClick={onFinished}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
