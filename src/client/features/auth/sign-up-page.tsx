import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { authClient, authErrorMessage } from '#client/lib/auth-client.ts';
import { PasswordField } from '#client/components/password-field.tsx';
import { AuthLayout } from './components/auth-layout.tsx';
import { signUpSchema } from './auth-schemas.ts';

export function SignUpPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', email: '', password: '' },
    validate: schemaResolver(signUpSchema, { sync: true }),
  });

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
          {error && (
            <Alert color="red" title="Could not sign up" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label="Name"
            description="Optional. Shown to your colleagues next to your changes."
            autoComplete="name"
            {...form.getInputProps('name')}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <PasswordField
            label="Password"
            description="At least 8 characters."
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
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
