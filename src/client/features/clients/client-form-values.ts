import {
  DEFAULT_SERVER_PORT,
  clientFormSchema,
  type Client,
  type ClientInput,
} from '#shared/clients.ts';
import { parseTags } from '#shared/tags.ts';
import { placeFieldErrors, schemaErrors, type PlacedErrors } from '#client/lib/form-errors.ts';

/** The Add/Edit Client form as the inputs hold it: tags as chips, domains one input each. */
export interface ClientFormValues {
  name: string;
  code: string;
  description: string;
  /** Chips; the first selects the deploy server. */
  tags: string[];
  startDate: string;
  server: {
    host: string;
    /** NumberInput gives a string while the text is not a number yet. */
    port: number | string;
    username: string;
    /** Empty means "no password" when adding and "keep the stored one" when editing. */
    password: string;
    /** Editing only: take the stored password away (the API's empty string). */
    removePassword: boolean;
    uiDir: string;
    private: boolean;
  };
  /** One input per URL; blank ones are left out when saving. */
  domains: string[];
}

export function emptyClientFormValues(today: string): ClientFormValues {
  return {
    name: '',
    code: '',
    description: '',
    tags: [],
    startDate: today,
    server: {
      host: '',
      port: DEFAULT_SERVER_PORT,
      username: '',
      password: '',
      removePassword: false,
      uiDir: '',
      private: true,
    },
    domains: [''],
  };
}

export function clientToFormValues(client: Client): ClientFormValues {
  return {
    name: client.name,
    code: client.code,
    description: client.description,
    tags: [...client.tags],
    startDate: client.startDate.slice(0, 10),
    server: {
      host: client.server.host,
      port: client.server.port,
      username: client.server.username,
      password: '',
      removePassword: false,
      uiDir: client.server.uiDir,
      private: client.server.private,
    },
    domains: client.domains.length > 0 ? [...client.domains] : [''],
  };
}

/** Domain inputs that hold a value, with the index of the input each came from. */
function filledDomains(domains: readonly string[]): { value: string; index: number }[] {
  return domains
    .map((value, index) => ({ value: value.trim(), index }))
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
 * means none, on update "keep what is stored"; removing sends the empty string the API reads
 * as "no password any more".
 */
export function formValuesToInput(values: ClientFormValues): ClientInput {
  const { password, removePassword, port, ...server } = values.server;
  const portNumber = portValue(port);
  return {
    name: values.name,
    code: values.code,
    description: values.description,
    tags: parseTags(values.tags),
    ...(values.startDate.trim() === '' ? {} : { startDate: values.startDate }),
    server: {
      ...server,
      ...(portNumber === undefined ? {} : { port: portNumber }),
      ...(removePassword ? { password: '' } : password === '' ? {} : { password }),
    },
    domains: filledDomains(values.domains).map((entry) => entry.value),
  };
}

/**
 * Maps error paths of the request body (the API's `fields`, or our own validation) onto the
 * form's fields. Blank domain inputs are not sent, so `domains.N` of the body is mapped back to
 * the input it came from.
 */
export function toFormErrors(
  fields: Record<string, string>,
  values: ClientFormValues,
): PlacedErrors {
  const domains = filledDomains(values.domains);
  return placeFieldErrors(fields, (path) => {
    const domain = /^domains\.(\d+)$/.exec(path);
    if (domain) {
      const index = domains[Number(domain[1])]?.index;
      return index === undefined ? 'domains' : `domains.${index}`;
    }
    if (/^tags\.\d+$/.test(path)) return 'tags';
    if (FORM_PATHS.has(path)) return path;
    if (path === 'server') return 'server.host';
    return undefined;
  });
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
  // Every schema path has a field; should one ever not, the name says it.
  return schemaErrors(clientFormSchema, formValuesToInput(values), {
    place: (fields) => toFormErrors(fields, values),
    fallback: 'name',
  });
}
