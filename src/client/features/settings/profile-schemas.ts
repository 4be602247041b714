import { z } from 'zod';
import { passwordSchema } from '#shared/account.ts';
import { HIDDEN_IN_LINE_MESSAGE, hasHiddenCharacters } from '#shared/command-safe-text.ts';

/** The longest display name: as the server's (MAX_NAME_LENGTH in display-name.ts) and a client's name. */
export const MAX_DISPLAY_NAME_LENGTH = 200;

export const displayNameSchema = z.object({
  name: z
    .string()
    .trim()
    .max(MAX_DISPLAY_NAME_LENGTH, 'Must be at most 200 characters')
    .refine((v) => !hasHiddenCharacters(v), HIDDEN_IN_LINE_MESSAGE),
});

export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password'),
  newPassword: passwordSchema,
});
