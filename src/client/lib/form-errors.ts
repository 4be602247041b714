import type { z } from 'zod';
import { errorMessage, isApiError } from './api-client.ts';
import { focusWhenShown } from './focus-when-shown.ts';
import { notifyFailure } from './notify-failure.ts';

/** Field errors as a form shows them: next to its fields, and what none of them holds. */
export interface PlacedErrors {
  errors: Record<string, string>;
  unplaced: string[];
}

/**
 * A 400's field errors (the API's, or the form's own schema's) on a form: a path that
 * `fieldOf` names a field for is said next to that field, its first message; the rest is said
 * above the form, each with its path.
 */
export function placeFieldErrors(
  fields: Record<string, string>,
  fieldOf: (path: string) => string | undefined,
): PlacedErrors {
  const errors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const field = fieldOf(path);
    if (field !== undefined) errors[field] ??= message;
    else unplaced.push(`${path}: ${message}`);
  }
  return { errors, unplaced };
}

/**
 * A form's errors from the schema the API validates with, so that both sides give the same
 * messages: `input` is what the form would send, `place` puts each path on its field, and
 * `named` words some paths for a form (a missing id is a choice not made yet). What no field
 * holds goes on the `fallback` field, so the save is blocked visibly all the same.
 */
export function schemaErrors(
  schema: z.ZodType,
  input: unknown,
  {
    place,
    fallback,
    named = {},
  }: {
    place: (fields: Record<string, string>) => PlacedErrors;
    fallback: string;
    named?: Record<string, string>;
  },
): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    fields[issue.path.map(String).join('.')] ??= issue.message;
  }
  for (const [path, message] of Object.entries(named)) if (fields[path]) fields[path] = message;
  const { errors, unplaced } = place(fields);
  if (unplaced.length > 0) errors[fallback] ??= unplaced.join('\n');
  return errors;
}

/**
 * Focus on the first field in error of the form `formId` (an input, or the first input of a
 * group marked `data-error-group`): errors are drawn on the next render, so once it is shown.
 */
export function focusFirstError(formId: string): void {
  focusWhenShown(
    () =>
      document
        .getElementById(formId)
        ?.querySelector<HTMLElement>('[aria-invalid="true"], [data-error-group] input'),
    undefined,
    500,
  );
}

/**
 * The server's refusal of one field, said as the form's own checks say theirs: next to the
 * field, with focus on it once it is shown. The form's checks passed before it was sent, so
 * the refused field is the one in error.
 */
export function showFieldRefusal<F extends string>(
  form: { setFieldError: (field: F, message: string) => void },
  formId: string,
  field: F,
  message: string,
): void {
  form.setFieldError(field, message);
  focusFirstError(formId);
}

/**
 * Says why a form's request failed: the field errors of a refusal (a 400, or a 409 naming the
 * field it conflicts on) next to their fields (`place` says where), focus on the first of them,
 * and what no field holds above the form; any other failure above the form. A form closed while
 * its request was under way is no longer there to say it: a notification does.
 */
export function showFormFailure(
  error: unknown,
  {
    formId,
    form,
    setProblem,
    place,
  }: {
    formId: string;
    form: { setErrors: (errors: Record<string, string>) => void };
    setProblem: (problem: string | null) => void;
    place: (fields: Record<string, string>) => PlacedErrors;
  },
): void {
  if (!document.getElementById(formId)) {
    notifyFailure('Not saved', error);
    return;
  }
  if (isApiError(error) && error.status < 500 && Object.keys(error.fields).length > 0) {
    const { errors, unplaced } = place(error.fields);
    form.setErrors(errors);
    setProblem(unplaced.length > 0 ? unplaced.join('\n') : null);
    focusFirstError(formId);
    return;
  }
  setProblem(errorMessage(error));
}
