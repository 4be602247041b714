import { z } from 'zod';
import { displayNameField, passwordSchema } from '#shared/account.ts';

const email = z
  .string()
  .trim()
  .min(1, 'Enter your email address')
  .pipe(z.email('Enter a valid email address'));

export const signInSchema = z.object({
  email,
  password: z.string().min(1, 'Enter your password'),
});

export const signUpSchema = z.object({
  name: displayNameField,
  email,
  password: passwordSchema,
});

export const emailOnlySchema = z.object({ email });

export const newPasswordSchema = z.object({ newPassword: passwordSchema });

/** Where to go after signing in: only a path on this site, never another origin. */
export function safeReturnPath(value: unknown): string {
  if (
    typeof value !== 'string' ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.includes('\\')
  )
    return '/';
  if (value.startsWith('/sign-') || value.startsWith('/api/')) return '/';
  return value;
}
