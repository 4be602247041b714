/**
 * Our server words its refusal of one field of a Better Auth form as `field: message` (a display
 * name, an invited address). The field and what to show beside it, when it is one of `fields`;
 * null for any other refusal, which the form shows above its fields.
 */
export function authFieldError<F extends string>(
  message: string | undefined,
  fields: readonly F[],
): { field: F; message: string } | null {
  for (const field of fields) {
    const prefix = `${field}: `;
    if (message?.startsWith(prefix)) return { field, message: message.slice(prefix.length) };
  }
  return null;
}
