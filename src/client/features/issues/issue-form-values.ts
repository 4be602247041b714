import {
  issueCreateSchema,
  type Issue,
  type IssueCreate,
  type IssueKind,
  type IssueUpdate,
} from '#shared/issues.ts';
import { placeFieldErrors, schemaErrors, type PlacedErrors } from '#client/lib/form-errors.ts';

/** The issue form as its inputs hold it: '' for "none", since a Select cannot hold null. */
export interface IssueFormValues {
  clientId: string;
  serverId: string;
  appId: string;
  kind: IssueKind;
  title: string;
  text: string;
  assigneeId: string;
}

export function emptyIssueFormValues(clientId = ''): IssueFormValues {
  return {
    clientId,
    serverId: '',
    appId: '',
    kind: 'note',
    title: '',
    text: '',
    assigneeId: '',
  };
}

export function issueToFormValues(issue: Issue): IssueFormValues {
  return {
    clientId: issue.client.id,
    serverId: issue.server?.id ?? '',
    appId: issue.app?.id ?? '',
    kind: issue.kind,
    title: issue.title,
    text: issue.text,
    assigneeId: issue.assignee?.id ?? '',
  };
}

const orNull = (value: string) => (value === '' ? null : value);

/** The body of `POST /api/issues`. */
export function formValuesToCreate(values: IssueFormValues): IssueCreate {
  return {
    clientId: values.clientId,
    serverId: orNull(values.serverId),
    appId: orNull(values.appId),
    kind: values.kind,
    title: values.title,
    text: values.text,
    assigneeId: orNull(values.assigneeId),
  };
}

/** The body of `PUT /api/issues/:id`, at the version the form was opened. */
export function formValuesToUpdate(values: IssueFormValues, version: number): IssueUpdate {
  const { clientId: _clientId, ...fields } = formValuesToCreate(values);
  return {
    serverId: fields.serverId ?? null,
    appId: fields.appId ?? null,
    kind: fields.kind ?? 'note',
    title: fields.title,
    text: fields.text ?? '',
    assigneeId: fields.assigneeId ?? null,
    version,
  };
}

const FORM_FIELDS = new Set<string>(Object.keys(emptyIssueFormValues()));

/** The API's (or our own schema's) field errors on the form's fields; the rest said above it. */
export function toFormErrors(fields: Record<string, string>): PlacedErrors {
  return placeFieldErrors(fields, (path) => (FORM_FIELDS.has(path) ? path : undefined));
}

/** Validates with the schema the API uses, so both sides give the same messages. */
export function validateIssueForm(values: IssueFormValues): Record<string, string> {
  return schemaErrors(issueCreateSchema, formValuesToCreate(values), {
    place: toFormErrors,
    fallback: 'title',
    named: { clientId: 'Choose the client' },
  });
}
