import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import {
  clientToFormValues,
  emptyClientFormValues,
  formValuesToInput,
  toFormErrors,
  validateClientForm,
  type ClientFormValues,
} from './client-form-values.ts';

const client: Client = {
  id: 'c1',
  name: 'Acme',
  code: 'ACM',
  description: 'Shop',
  tags: ['prod-eu', 'shop'],
  startDate: '2026-11-21',
  server: {
    host: 'acme.example.com',
    port: 2222,
    username: 'deploy',
    private: false,
    uiDir: '/srv/ui',
    hasPassword: true,
  },
  domains: ['https://acme.example.com', 'http://shop.acme.example.com'],
  createdAt: '2026-11-21T10:00:00.000Z',
  createdBy: 'u1',
  updatedAt: '2026-11-21T10:00:00.000Z',
  updatedBy: 'u1',
  version: 3,
};

function values(overrides: Partial<ClientFormValues> = {}): ClientFormValues {
  return { ...emptyClientFormValues('2026-11-21'), ...overrides };
}

describe('emptyClientFormValues', () => {
  it('starts today, on port 22, private, without password', () => {
    const empty = emptyClientFormValues('2026-01-02');
    expect(empty.startDate).toBe('2026-01-02');
    expect(empty.server).toEqual({
      host: '',
      port: 22,
      username: '',
      password: '',
      removePassword: false,
      uiDir: '',
      private: true,
    });
  });
});

describe('clientToFormValues', () => {
  it('holds tags and domains as lists, never a password', () => {
    const form = clientToFormValues(client);
    expect(form.tags).toEqual(['prod-eu', 'shop']);
    expect(form.domains).toEqual(['https://acme.example.com', 'http://shop.acme.example.com']);
    expect(form.server.password).toBe('');
    expect(form.server.port).toBe(2222);
    expect(form.startDate).toBe('2026-11-21');
  });

  it('round-trips to the same input (password kept by omission)', () => {
    expect(formValuesToInput(clientToFormValues(client))).toEqual({
      name: 'Acme',
      code: 'ACM',
      description: 'Shop',
      tags: ['prod-eu', 'shop'],
      startDate: '2026-11-21',
      server: {
        host: 'acme.example.com',
        port: 2222,
        username: 'deploy',
        private: false,
        uiDir: '/srv/ui',
      },
      domains: ['https://acme.example.com', 'http://shop.acme.example.com'],
    });
  });
});

describe('formValuesToInput', () => {
  it('starts with one empty domain input, which is not sent', () => {
    expect(values().domains).toEqual(['']);
    expect(formValuesToInput(values()).domains).toEqual([]);
    expect(clientToFormValues({ ...client, domains: [] }).domains).toEqual(['']);
  });

  it('splits a tag chip holding commas and drops duplicates, keeping the first', () => {
    expect(formValuesToInput(values({ tags: ['eu, web', 'eu', ' shop '] })).tags).toEqual([
      'eu',
      'web',
      'shop',
    ]);
  });

  it('sends a typed password and drops blank domain inputs', () => {
    const input = formValuesToInput(
      values({
        domains: ['', ' https://a.example ', '', 'https://b.example', ''],
        server: { ...values().server, password: ' s3cret ' },
      }),
    );
    expect(input.domains).toEqual(['https://a.example', 'https://b.example']);
    expect(input.server?.password).toBe(' s3cret ');
  });

  it('sends the empty string that removes a stored password, whatever was typed', () => {
    const input = formValuesToInput(
      values({ server: { ...values().server, password: 'typed', removePassword: true } }),
    );
    expect(input.server?.password).toBe('');
    expect(formValuesToInput(values()).server).not.toHaveProperty('password');
  });

  it('leaves out an empty start date and an empty port so the server defaults apply', () => {
    const input = formValuesToInput(
      values({ startDate: '', server: { ...values().server, port: '' } }),
    );
    expect(input).not.toHaveProperty('startDate');
    expect(input.server).not.toHaveProperty('port');
  });
});

describe('toFormErrors', () => {
  it('puts a domain error on the input it came from, blank inputs not counted in the body', () => {
    const form = values({ domains: ['https://ok.example', '', 'ftp://bad.example'] });
    const { errors, unplaced } = toFormErrors(
      { 'domains.1': 'Must be an http:// or https:// URL', 'server.port': 'Must be a number' },
      form,
    );
    expect(errors).toEqual({
      'domains.2': 'Must be an http:// or https:// URL',
      'server.port': 'Must be a number',
    });
    expect(unplaced).toEqual([]);
  });

  it('reports paths the form has no field for', () => {
    expect(toFormErrors({ version: 'Must be a number' }, values()).unplaced).toEqual([
      'version: Must be a number',
    ]);
  });
});

describe('validateClientForm', () => {
  it('accepts the empty form, as the original did', () => {
    expect(validateClientForm(values())).toEqual({});
  });

  it('uses the shared schema messages', () => {
    const errors = validateClientForm(
      values({
        domains: ['not a url'],
        server: { ...values().server, port: 70000, host: '-oProxyCommand' },
      }),
    );
    expect(errors).toEqual({
      'domains.0': 'Must be an http:// or https:// URL',
      'server.port': 'Must be between 1 and 65535',
      'server.host': 'Must be a host name or IP address',
    });
  });

  it('says a port that is not a number is not a number', () => {
    const errors = validateClientForm(values({ server: { ...values().server, port: '22a' } }));
    expect(errors['server.port']).toBe('Must be a number');
  });
});
