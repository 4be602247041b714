/**
 * What Better Auth would keep of a sign-in provider's answer beyond who the person is: its
 * access, refresh and ID tokens and when they expire. The app signs people in with a provider
 * and asks it for nothing afterwards, so it keeps none of them: a copy of the database (a
 * backup, `db:copy`) then holds no key to anyone's provider account.
 */
const PROVIDER_TOKEN_FIELDS = [
  'accessToken',
  'refreshToken',
  'idToken',
  'accessTokenExpiresAt',
  'refreshTokenExpiresAt',
] as const;

type TokenFields = Partial<Record<(typeof PROVIDER_TOKEN_FIELDS)[number], null>>;

/**
 * For Better Auth's `account` create and update hooks: the fields to write in place of the
 * tokens the write carries (Better Auth merges a hook's data over its own), nothing when it
 * carries none.
 */
export function withoutProviderTokens(account: object): { data: TokenFields } | undefined {
  const carried = PROVIDER_TOKEN_FIELDS.filter((field) => field in account);
  if (carried.length === 0) return undefined;
  return { data: Object.fromEntries(carried.map((field) => [field, null])) };
}
