import { DEFAULT_SERVER_PORT } from '#shared/clients.ts';
import { serverCreateSchema, type Server, type ServerCreate } from '#shared/servers.ts';
import { placeFieldErrors, schemaErrors, type PlacedErrors } from '#client/lib/form-errors.ts';

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
export function toFormErrors(fields: Record<string, string>): PlacedErrors {
  return placeFieldErrors(fields, (path) => (FORM_FIELDS.has(path) ? path : undefined));
}

/** Validates with the schema the API uses, so both sides give the same messages. */
export function validateServerForm(values: ServerFormValues): Record<string, string> {
  return schemaErrors(serverCreateSchema, formValuesToInput(values), {
    place: toFormErrors,
    fallback: 'label',
    named: { clientId: 'Choose the client' },
  });
}
