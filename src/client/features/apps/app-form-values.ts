import { appCreateSchema, type App, type AppCreate } from '#shared/apps.ts';
import { placeFieldErrors, schemaErrors, type PlacedErrors } from '#client/lib/form-errors.ts';

/** The app form as its inputs hold it. */
export interface AppFormValues {
  clientId: string;
  name: string;
  serverId: string;
  /** '' for the server's uiDir. */
  directory: string;
  domains: string[];
  /** '' for the default run command (APP_RUN_TEMPLATE). */
  command: string;
}

export function emptyAppFormValues(clientId = ''): AppFormValues {
  return { clientId, name: '', serverId: '', directory: '', domains: [], command: '' };
}

export function appToFormValues(app: App): AppFormValues {
  return {
    clientId: app.client.id,
    name: app.name,
    serverId: app.server?.id ?? '',
    directory: app.directory,
    domains: [...app.domains],
    command: app.command ?? '',
  };
}

/** The body of `POST /api/apps`; an update sends the same without `clientId`. */
export function formValuesToInput(values: AppFormValues): AppCreate {
  const command = values.command.trim();
  return {
    clientId: values.clientId,
    name: values.name,
    serverId: values.serverId,
    directory: values.directory,
    domains: values.domains,
    command: command === '' ? null : command,
  };
}

const FORM_FIELDS = new Set<string>(Object.keys(emptyAppFormValues()));

/** Whether a field path names an input of the form: `name`, `domains`, `domains.2`. */
function onForm(path: string): boolean {
  return FORM_FIELDS.has(path) || /^domains\.\d+$/.test(path);
}

/** The API's (or our own schema's) field errors on the form's fields; the rest said above it. */
export function toFormErrors(fields: Record<string, string>): PlacedErrors {
  return placeFieldErrors(fields, (path) => (onForm(path) ? path : undefined));
}

/** Validates with the schema the API uses, so both sides give the same messages. */
export function validateAppForm(values: AppFormValues): Record<string, string> {
  return schemaErrors(appCreateSchema, formValuesToInput(values), {
    place: toFormErrors,
    fallback: 'name',
    named: { clientId: 'Choose the client', serverId: 'Choose the server it runs on' },
  });
}
