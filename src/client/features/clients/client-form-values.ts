import {
  DEFAULT_SERVER_PORT,
  clientInputSchema,
  type Client,
  type ClientInput,
} from '#shared/clients.ts';
import { formatTags } from '#shared/tags.ts';

/** The Add/Edit Client form as the inputs hold it: tags and domains are typed as text. */
export interface ClientFormValues {
  name: string;
  code: string;
  description: string;
  tags: string;
  startDate: string;
  server: {
    host: string;
    /** NumberInput gives a string while the text is not a number yet. */
    port: number | string;
    username: string;
    /** Empty means "no password" when adding and "keep the stored one" when editing. */
    password: string;
    uiDir: string;
    private: boolean;
  };
  domains: string;
}

export function emptyClientFormValues(today: string): ClientFormValues {
  return {
    name: '',
    code: '',
    description: '',
    tags: '',
    startDate: today,
    server: {
      host: '',
      port: DEFAULT_SERVER_PORT,
      username: '',
      password: '',
      uiDir: '',
      private: true,
    },
    domains: '',
  };
}

export function clientToFormValues(client: Client): ClientFormValues {
  return {
    name: client.name,
    code: client.code,
    description: client.description,
    tags: formatTags(client.tags),
    startDate: client.startDate.slice(0, 10),
    server: {
      host: client.server.host,
      port: client.server.port,
      username: client.server.username,
      password: '',
      uiDir: client.server.uiDir,
      private: client.server.private,
    },
    domains: client.domains.join('\n'),
  };
}

/** Domain lines that hold a value, with the 1-based line each came from. */
function domainLines(text: string): { value: string; line: number }[] {
  return text
    .split(/\r?\n/)
    .map((value, index) => ({ value: value.trim(), line: index + 1 }))
    .filter((entry) => entry.value !== '');
}

function portValue(port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  if (port.trim() === '') return undefined;
  // Left as NaN on purpose so validation says "Must be a number" instead of guessing.
  return Number(port);
}

/**
 * The request body for the form's values. An empty password is left out: on create that
 * means none, on update "keep what is stored".
 */
export function formValuesToInput(values: ClientFormValues): ClientInput {
  const { password, port, ...server } = values.server;
  const portNumber = portValue(port);
  return {
    name: values.name,
    code: values.code,
    description: values.description,
    tags: values.tags,
    ...(values.startDate.trim() === '' ? {} : { startDate: values.startDate }),
    server: {
      ...server,
      ...(portNumber === undefined ? {} : { port: portNumber }),
      ...(password === '' ? {} : { password }),
    },
    domains: domainLines(values.domains).map((entry) => entry.value),
  };
}

/**
 * Maps error paths of the request body (the API's `fields`, or our own validation) onto the
 * form's fields. Each domain is a line of one textarea, so `domains.N` lands on the textarea
 * naming the line.
 */
export function toFormErrors(
  fields: Record<string, string>,
  values: ClientFormValues,
): { errors: Record<string, string>; unplaced: string[] } {
  const lines = domainLines(values.domains);
  const errors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const domain = /^domains\.(\d+)$/.exec(path);
    if (domain) {
      const line = lines[Number(domain[1])]?.line;
      const text = line === undefined ? message : `Line ${line}: ${message}`;
      errors.domains = errors.domains ? `${errors.domains}\n${text}` : text;
    } else if (/^tags\.\d+$/.test(path)) {
      errors.tags ??= message;
    } else if (FORM_PATHS.has(path)) {
      errors[path] ??= message;
    } else if (path === 'server') {
      errors['server.host'] ??= message;
    } else {
      unplaced.push(`${path}: ${message}`);
    }
  }
  return { errors, unplaced };
}

const FORM_PATHS = new Set([
  'name',
  'code',
  'description',
  'tags',
  'startDate',
  'domains',
  'server.host',
  'server.port',
  'server.username',
  'server.password',
  'server.uiDir',
  'server.private',
]);

/** Validates with the same schema the server uses, so both sides agree on every message. */
export function validateClientForm(values: ClientFormValues): Record<string, string> {
  const result = clientInputSchema.safeParse(formValuesToInput(values));
  if (result.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    fields[issue.path.map(String).join('.')] ??= issue.message;
  }
  const { errors, unplaced } = toFormErrors(fields, values);
  // Every schema path has a field; should one ever not, block the save visibly anyway.
  if (unplaced.length > 0) errors.name ??= unplaced.join('\n');
  return errors;
}
