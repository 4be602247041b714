import { useId, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { meQuery } from '#client/lib/session.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { PasswordField } from '#client/components/password-field.tsx';
import { AuthLayout } from './components/auth-layout.tsx';
import { CodeStep } from './components/code-step.tsx';
import { EmailField } from './components/email-field.tsx';
import { PasskeySignIn } from './components/passkey-sign-in.tsx';
import { SocialSignIn } from './components/social-sign-in.tsx';
import { safeReturnPath, signInSchema } from './auth-schemas.ts';
import { signInErrorMessage } from './sign-in-errors.ts';
import { focusFirstError } from '#client/lib/form-errors.ts';

function returnPath(state: unknown): string {
  const from = (state as { from?: { pathname?: unknown; search?: unknown } } | null)?.from;
  if (!from || typeof from.pathname !== 'string') return '/';
  return safeReturnPath(from.pathname + (typeof from.search === 'string' ? from.search : ''));
}

export function SignInPage() {
  const session = useQuery(meQuery());
  const location = useLocation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const linkError = signInErrorMessage(searchParams.get('error'));
  const target = returnPath(location.state);
  const [error, setError] = useState<string | null>(null);
  // Better Auth asked for the second factor after the password.
  const [codeStep, setCodeStep] = useState(false);
  const formId = useId();
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: schemaResolver(signInSchema, { sync: true }),
  });

  if (session.data?.status === 'signed-in') return <Navigate to={target} replace />;

  const submit = form.onSubmit(
    async ({ email, password }) => {
      setError(null);
      const result = await authClient.signIn.email({
        email: email.trim(),
        password,
        callbackURL: target,
      });
      if (result.error) {
        if (result.error.status === 403 && result.error.code === 'EMAIL_NOT_VERIFIED') {
          await navigate(`/verify-email-address?email=${encodeURIComponent(email.trim())}`);
          return;
        }
        setError(authErrorMessage(result.error));
        return;
      }
      if ('twoFactorRedirect' in result.data && result.data.twoFactorRedirect) {
        setCodeStep(true);
        return;
      }
      // Better Auth's client loads the callback URL itself; this covers it not doing so. A
      // full load also starts the signed-in app with nothing cached from before.
      window.location.assign(target);
    },
    () => focusFirstError(formId),
  );

  if (codeStep) {
    return (
      <AuthLayout title="Two-factor sign-in">
        <CodeStep
          onSignedIn={() => window.location.assign(target)}
          onStartOver={(message) => {
            setCodeStep(false);
            setError(message);
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Clients Manager" showBrand={false}>
      {linkError && !error && (
        <Alert color="yellow" role="alert">
          {linkError}
        </Alert>
      )}
      <SocialSignIn callbackURL={target} onError={setError} />
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormErrorAlert title="Could not sign in" message={error} />
          <EmailField required {...form.getInputProps('email')} />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end" mt={-8}>
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={form.submitting}>
            Sign in
          </Button>
          <PasskeySignIn onSignedIn={() => window.location.assign(target)} onError={setError} />
          <Anchor component={Link} to="/sign-up" ta="center" size="sm">
            Create an account
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
