import type { ClientCommand } from '#shared/clients.ts';
import { PLACEHOLDER, type Placeholder } from '#shared/deploy-template.ts';
import { firstHiddenCharacter, startsLikeOption } from '#shared/command-safe-text.ts';
import { shellQuote } from './shell-quote.ts';

export interface CommandContext {
  accessToken: string | null;
  tags: readonly string[];
  /** The server the commands are for; `label` fills `{serverLabel}`. */
  server: { label: string; host: string; port: number; username: string; uiDir: string };
  code: string;
}

const MASK = '••••••••';

function fill(template: string, values: Record<Placeholder, string>): string {
  return template.replace(PLACEHOLDER, (_, name: Placeholder) => shellQuote(values[name]));
}

/** What stops the deploy command from being built, in words a user can act on. */
function deployMissing(template: string, ctx: CommandContext): string | null {
  const uses = (p: Placeholder) => template.includes(`{${p}}`);
  const missing: string[] = [];
  if (uses('accessToken') && !ctx.accessToken) missing.push('set your access token in Settings');
  if (uses('serverTag') && ctx.tags.length === 0)
    missing.push('add a tag to this client (its first tag selects the server)');
  if (uses('host') && !ctx.server.host) missing.push('add a server host');
  if (uses('username') && !ctx.server.username) missing.push('add a server username');
  if (missing.length === 0) return null;
  const text = missing.join(' and ');
  return `No deploy command yet: ${text}.`;
}

/** What each placeholder's value is called in a message. */
const FIELD_NAMES: Record<Placeholder, string> = {
  accessToken: 'your access token',
  serverTag: 'the first tag',
  host: 'the server host',
  port: 'the server port',
  username: 'the server username',
  uiDir: 'the UI directory',
  serverLabel: 'the server label',
  code: 'the client code',
};

/**
 * What is wrong with a value for a command, or null: a character a terminal acts on or that
 * disguises the command, or a leading '-' that the program would take for an option (stored
 * before such values were refused, or written to the database directly).
 */
export function commandValueProblem(value: string): string | null {
  const hidden = hiddenCharacterProblem(value);
  if (hidden !== null) return hidden;
  if (startsLikeOption(value)) {
    return "starts with '-', which the command would take for an option. Edit it to remove the '-'.";
  }
  return null;
}

function hiddenCharacterProblem(value: string): string | null {
  const hidden = firstHiddenCharacter(value);
  if (hidden === null) return null;
  return `contains a hidden control character (${hidden}). Edit it to remove the character.`;
}

/** An app's command stored before hidden characters were refused in it (validateTemplate). */
function templateRefusal(template: string): string | null {
  const problem = hiddenCharacterProblem(template);
  return problem && `No deploy command: the command ${problem}`;
}

/** Why a command cannot be offered because of a value it would carry; null when all are fine. */
function valueRefusal(
  label: string,
  values: Record<Placeholder, string>,
  used: readonly Placeholder[],
): string | null {
  for (const name of used) {
    const problem = commandValueProblem(values[name]);
    if (problem !== null) return `No ${label} command: ${FIELD_NAMES[name]} ${problem}`;
  }
  return null;
}

export function buildCommands(template: string, ctx: CommandContext): ClientCommand[] {
  const values: Record<Placeholder, string> = {
    accessToken: ctx.accessToken ?? '',
    serverTag: ctx.tags[0] ?? '',
    host: ctx.server.host,
    port: String(ctx.server.port),
    username: ctx.server.username,
    uiDir: ctx.server.uiDir,
    serverLabel: ctx.server.label,
    code: ctx.code,
  };
  const usedInTemplate = [...template.matchAll(PLACEHOLDER)].map(([, name]) => name as Placeholder);
  const missingDeploy =
    templateRefusal(template) ??
    deployMissing(template, ctx) ??
    valueRefusal('deploy', values, usedInTemplate);
  const deploy: ClientCommand = {
    id: 'deploy',
    label: 'Deploy',
    command: missingDeploy ? null : fill(template, values),
    display: missingDeploy
      ? null
      : template.replace(PLACEHOLDER, (_, name: Placeholder) =>
          name === 'accessToken' ? MASK : shellQuote(values[name]),
        ),
    missing: missingDeploy,
  };

  const sshMissing = !ctx.server.host
    ? 'No SSH command yet: add a server host.'
    : valueRefusal('SSH', values, ['host', 'username']);
  const target = ctx.server.username
    ? `${ctx.server.username}@${ctx.server.host}`
    : ctx.server.host;
  const sshCommand = sshMissing ? null : `ssh -p ${ctx.server.port} ${shellQuote(target)}`;
  const ssh: ClientCommand = {
    id: 'ssh',
    label: 'SSH',
    command: sshCommand,
    display: sshCommand,
    missing: sshMissing,
  };
  return [deploy, ssh];
}
