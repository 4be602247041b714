import { useEffect, useId, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { authFieldError } from '#client/lib/auth-field-error.ts';
import { meQuery } from '#client/lib/session.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { AuthLayout } from './components/auth-layout.tsx';
import { EmailField } from './components/email-field.tsx';
import { NewPasswordField } from './components/new-password-field.tsx';
import { signUpSchema } from './auth-schemas.ts';
import { invitationQuery } from './invitation-query.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { focusFirstError, showFieldRefusal } from '#client/lib/form-errors.ts';

export function SignUpPage() {
  const session = useQuery(meQuery());
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const formId = useId();
  const form = useForm({
    initialValues: { name: '', email: '', password: '' },
    validate: schemaResolver(signUpSchema, { sync: true }),
  });
  // An administrator's invitation link (`?invitation=`): the address it was sent to is fixed.
  const token = useSearchParams()[0].get('invitation') ?? '';
  const invitation = useQuery({ ...invitationQuery(token), enabled: token !== '' });
  const invitedEmail = invitation.data?.email;
  const { setFieldValue } = form;
  useEffect(() => {
    if (invitedEmail !== undefined) setFieldValue('email', invitedEmail);
  }, [invitedEmail, setFieldValue]);

  // Someone already signed in has an account: the app, not a second one.
  if (session.data?.status === 'signed-in') return <Navigate to="/" replace />;

  const submit = form.onSubmit(
    async ({ name, email, password }) => {
      setError(null);
      const address = email.trim();
      // The server checks the token against the address and verifies it: no mail to wait for.
      const body = {
        name: name.trim(),
        email: address,
        password,
        callbackURL: '/',
        ...(invitedEmail !== undefined ? { invitation: token } : {}),
      };
      const result = await authClient.signUp.email(body);
      if (result.error) {
        // A refusal of the name or the address ("email: This address has an invitation: …").
        const refused = authFieldError(result.error.message, ['name', 'email', 'password']);
        if (refused) showFieldRefusal(form, formId, refused.field, refused.message);
        else setError(authErrorMessage(result.error));
        return;
      }
      if (invitedEmail !== undefined) {
        const signedIn = await authClient.signIn.email({
          email: address,
          password,
          callbackURL: '/',
        });
        if (signedIn.error) {
          setError(authErrorMessage(signedIn.error));
          return;
        }
        // A full load starts the signed-in app with nothing cached from before.
        window.location.assign('/');
        return;
      }
      await navigate(`/verify-email-address?email=${encodeURIComponent(address)}`);
    },
    () => focusFirstError(formId),
  );

  return (
    <AuthLayout title="Create an account">
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormErrorAlert title="Could not sign up" message={error} />
          {invitation.isError && (
            <Alert color="yellow" role="alert" title="Invitation not valid">
              {errorMessage(invitation.error)} You may still sign up without it.
            </Alert>
          )}
          {invitedEmail !== undefined && (
            <Text size="sm">You were invited as {invitedEmail}. Choose a password to join.</Text>
          )}
          <TextInput
            label="Name"
            description="Optional. Shown in the top bar, in People and as an issue's assignee; history and issues name you by your email."
            autoComplete="name"
            {...form.getInputProps('name')}
          />
          <EmailField
            required
            {...form.getInputProps('email')}
            readOnly={invitedEmail !== undefined}
            disabled={token !== '' && invitation.isPending}
            description={
              invitedEmail !== undefined ? 'The address you were invited with' : undefined
            }
          />
          <NewPasswordField label="Password" {...form.getInputProps('password')} />
          <Button type="submit" fullWidth loading={form.submitting}>
            Sign up
          </Button>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to="/sign-in">
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
