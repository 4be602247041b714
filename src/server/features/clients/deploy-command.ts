import type { ClientCommand } from '#shared/clients.ts';
import { shellQuote } from './shell-quote.ts';

/** Placeholders a DEPLOY_COMMAND_TEMPLATE may use. Each value is shell-quoted on the way in. */
export const TEMPLATE_PLACEHOLDERS = [
  'accessToken',
  'serverTag',
  'host',
  'port',
  'username',
  'uiDir',
  'code',
] as const;
type Placeholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** Returns a message when the template cannot be used, otherwise null. */
export function validateTemplate(template: string): string | null {
  if (template === '') return 'must not be empty';
  if (/[\r\n]/.test(template)) return 'must be a single line';
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name ?? '')) {
      return `unknown placeholder {${name}}; known: ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`;
    }
  }
  return null;
}

export interface CommandContext {
  accessToken: string | null;
  tags: readonly string[];
  server: { host: string; port: number; username: string; uiDir: string };
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

export function buildCommands(template: string, ctx: CommandContext): ClientCommand[] {
  const values: Record<Placeholder, string> = {
    accessToken: ctx.accessToken ?? '',
    serverTag: ctx.tags[0] ?? '',
    host: ctx.server.host,
    port: String(ctx.server.port),
    username: ctx.server.username,
    uiDir: ctx.server.uiDir,
    code: ctx.code,
  };
  const missingDeploy = deployMissing(template, ctx);
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

  const sshMissing = !ctx.server.host ? 'No SSH command yet: add a server host.' : null;
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
