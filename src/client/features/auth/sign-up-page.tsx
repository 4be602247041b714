import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { meQuery } from '#client/lib/session.ts';
import { FormErrorAlert } from '#client/components/form-error-alert.tsx';
import { AuthLayout } from './components/auth-layout.tsx';
import { EmailField } from './components/email-field.tsx';
import { NewPasswordField } from './components/new-password-field.tsx';
import { signUpSchema } from './auth-schemas.ts';

export function SignUpPage() {
  const session = useQuery(meQuery());
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', email: '', password: '' },
    validate: schemaResolver(signUpSchema, { sync: true }),
  });

  // Someone already signed in has an account: the app, not a second one.
  if (session.data?.status === 'signed-in') return <Navigate to="/" replace />;

  const submit = form.onSubmit(async ({ name, email, password }) => {
    setError(null);
    const address = email.trim();
    const result = await authClient.signUp.email({
      name: name.trim(),
      email: address,
      password,
      callbackURL: '/',
    });
    if (result.error) {
      setError(authErrorMessage(result.error));
      return;
    }
    await navigate(`/verify-email-address?email=${encodeURIComponent(address)}`);
  });

  return (
    <AuthLayout title="Create an account">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormErrorAlert title="Could not sign up" message={error} />
          <TextInput
            label="Name"
            description="Optional. Shown to your colleagues next to your changes."
            autoComplete="name"
            {...form.getInputProps('name')}
          />
          <EmailField required {...form.getInputProps('email')} />
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
