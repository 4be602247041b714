import { z } from 'zod';
import { displayNameField, passwordSchema } from '#shared/account.ts';

export const displayNameSchema = z.object({ name: displayNameField });

export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password'),
  newPassword: passwordSchema,
});
