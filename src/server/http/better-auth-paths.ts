import type { OpenAPIV3 } from 'openapi-types';
import { z } from 'zod';
import { apiErrorSchema } from '#shared/api-error.ts';

/**
 * Better Auth answers everything under /api/auth/ through one catch-all route, which has no
 * schema of its own. The document describes the routes the web app and scripts use by hand,
 * from what Better Auth answers through our bridge (auth-routes.ts: session tokens are taken
 * out of its answers, and an empty refusal becomes `{ error }`). Its other routes (sign-up,
 * password reset, second factors, passkeys) are left to Better Auth's documentation.
 */

const json = (schema: z.ZodType) => ({
  'application/json': {
    schema: z.toJSONSchema(schema, { unrepresentable: 'any' }) as OpenAPIV3.SchemaObject,
  },
});
const answer = (description: string, schema: z.ZodType) => ({
  description,
  content: json(schema),
});
/**
 * Better Auth's own refusals are `{ message, code }`; those of the bridge and the app before it
 * (an empty refusal, a body that is not JSON) are the app's `{ error }`.
 */
const betterAuthRefusalSchema = z.union([
  z.object({ message: z.string(), code: z.string().optional() }),
  apiErrorSchema,
]);
const refusal = (description: string) => answer(description, betterAuthRefusalSchema);

const userSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  image: z.string().nullable().optional(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const sessionSchema = z.looseObject({
  id: z.string(),
  userId: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ipAddress: z.string().nullable().optional(),
  userAgent: z.string().nullable().optional(),
});

/** No session needed: these are how one is made. */
const PUBLIC: OpenAPIV3.SecurityRequirementObject[] = [];
const tags = ['auth'];

export const betterAuthPaths: OpenAPIV3.PathsObject = {
  '/api/auth/sign-in/email': {
    post: {
      summary: 'Sign in with email and password; sets the session cookie',
      description:
        'A person with a second factor gets `{ twoFactorRedirect: true }` and finishes at `/api/auth/two-factor/verify-totp` (or a backup code); scripts use an API token instead.',
      tags,
      security: PUBLIC,
      requestBody: {
        required: true,
        content: json(
          z.object({
            email: z.string(),
            password: z.string(),
            rememberMe: z.boolean().optional(),
            callbackURL: z.string().optional(),
          }),
        ),
      },
      responses: {
        200: answer(
          'Signed in (the `Set-Cookie` header carries the session), or a second factor is asked for.',
          z.union([
            z.object({ redirect: z.boolean(), url: z.string().optional(), user: userSchema }),
            z.object({ twoFactorRedirect: z.literal(true) }),
          ]),
        ),
        400: refusal('The body is not the one described (`message` names the field).'),
        401: refusal('Wrong email or password.'),
        403: refusal(
          'The email is not verified, the account is disabled or not allowed, or `callbackURL` is off the app (`code` says which).',
        ),
        415: refusal('The body is not JSON.'),
        429: refusal('Too many attempts: `Retry-After` says when to try again.'),
      },
    },
  },
  '/api/auth/sign-out': {
    post: {
      summary: 'Sign out: ends this session and clears its cookie',
      tags,
      security: [{ session: [] }],
      responses: {
        200: answer('Signed out.', z.object({ success: z.boolean() })),
      },
    },
  },
  '/api/auth/get-session': {
    get: {
      summary: 'The current session and its person, or null without one',
      tags,
      security: [{ session: [] }, {}],
      responses: {
        200: answer(
          'The session (its token left out), or null.',
          z.object({ session: sessionSchema, user: userSchema }).nullable(),
        ),
      },
    },
  },
  '/api/auth/callback/{providerId}': {
    get: {
      summary: 'Where a sign-in provider sends the browser back (OpenID Connect, Google)',
      tags,
      security: PUBLIC,
      parameters: [{ name: 'providerId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { 302: { description: 'On to the web app, signed in or with an error.' } },
    },
    post: {
      summary: 'The same, for a provider that posts its answer (response_mode=form_post)',
      tags,
      security: PUBLIC,
      parameters: [{ name: 'providerId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { 302: { description: 'On to the web app, signed in or with an error.' } },
    },
  },
};
