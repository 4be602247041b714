import { DEFAULT_SERVER_PORT } from '#shared/clients.ts';
import { serverCreateSchema, type Server, type ServerCreate } from '#shared/servers.ts';

/** The server form as its inputs hold it. */
export interface ServerFormValues {
  clientId: string;
  label: string;
  host: string;
  /** NumberInput gives a string while the text is not a number yet. */
  port: number | string;
  username: string;
  uiDir: string;
  private: boolean;
  /** '' for none: a Select cannot hold null as a choice. */
  credentialId: string;
}

export function emptyServerFormValues(clientId = ''): ServerFormValues {
  return {
    clientId,
    label: '',
    host: '',
    port: DEFAULT_SERVER_PORT,
    username: '',
    uiDir: '',
    private: true,
    credentialId: '',
  };
}

export function serverToFormValues(server: Server): ServerFormValues {
  return {
    clientId: server.client.id,
    label: server.label,
    host: server.host,
    port: server.port,
    username: server.username,
    uiDir: server.uiDir,
    private: server.private,
    credentialId: server.credential?.id ?? '',
  };
}

function portValue(port: number | string): number {
  if (typeof port === 'number') return port;
  // NaN on purpose for text that is not a number: validation then says "Must be a number".
  return port.trim() === '' ? DEFAULT_SERVER_PORT : Number(port);
}

/** The body of `POST /api/servers`; an update sends the same without `clientId`. */
export function formValuesToInput(values: ServerFormValues): ServerCreate {
  return {
    clientId: values.clientId,
    label: values.label,
    host: values.host,
    port: portValue(values.port),
    username: values.username,
    uiDir: values.uiDir,
    private: values.private,
    credentialId: values.credentialId === '' ? null : values.credentialId,
  };
}

const FORM_FIELDS = new Set<string>(Object.keys(emptyServerFormValues()));

/** The API's (or our own schema's) field errors on the form's fields; the rest said above it. */
export function toFormErrors(fields: Record<string, string>): {
  errors: Record<string, string>;
  unplaced: string[];
} {
  const errors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    if (FORM_FIELDS.has(path)) errors[path] ??= message;
    else unplaced.push(`${path}: ${message}`);
  }
  return { errors, unplaced };
}

/** Validates with the schema the API uses, so both sides give the same messages. */
export function validateServerForm(values: ServerFormValues): Record<string, string> {
  const result = serverCreateSchema.safeParse(formValuesToInput(values));
  if (result.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    fields[issue.path.map(String).join('.')] ??= issue.message;
  }
  if (fields.clientId) fields.clientId = 'Choose the client';
  const { errors, unplaced } = toFormErrors(fields);
  if (unplaced.length > 0) errors.label ??= unplaced.join('\n');
  return errors;
}
