import { z } from 'zod';
import path from 'node:path';
import { validateTemplate } from './features/clients/deploy-command.ts';

export const DEFAULT_DEPLOY_COMMAND_TEMPLATE =
  'pro-deploy run --token {accessToken} --server {serverTag}';

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const port = z
  .string()
  .trim()
  .regex(/^\d+$/, 'must be a whole number between 0 and 65535')
  .transform(Number)
  .refine((n) => n <= 65535, 'must be a whole number between 0 and 65535');

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
  ),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .refine(
        (v) => /^(sqlite|file):/.test(v) || /^postgres(ql)?:\/\//.test(v),
        'must start with sqlite:, file: or postgres://',
      )
      .optional(),
  ),
  SECRET_KEY: optionalText.pipe(
    z.string().min(32, 'must be at least 32 characters (try: openssl rand -hex 32)').optional(),
  ),
  SMTP_URL: optionalText.pipe(
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  MAIL_FROM: z.string().trim().min(3).default('Clients Manager <no-reply@localhost>'),
  DEPLOY_COMMAND_TEMPLATE: z
    .string()
    .trim()
    .default(DEFAULT_DEPLOY_COMMAND_TEMPLATE)
    .superRefine((value, ctx) => {
      const problem = validateTemplate(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  database: DatabaseTarget;
  /** Unset: a key is generated into DATA_DIR on first start (see secret-key.ts). */
  secretKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  deployCommandTemplate: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the environment. A bad variable throws a ConfigError whose message is one line per
 * variable, naming it, so an operator sees exactly what to fix (values of secrets are never
 * echoed back).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return `Invalid setting ${name}: ${issue.message}`;
    });
    throw new ConfigError([...new Set(lines)].join('\n'));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    dataDir,
    database: databaseTarget(e.DATABASE_URL, dataDir),
    secretKey: e.SECRET_KEY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    deployCommandTemplate: e.DEPLOY_COMMAND_TEMPLATE,
    logLevel: e.LOG_LEVEL,
  };
}

function databaseTarget(url: string | undefined, dataDir: string): DatabaseTarget {
  if (url === undefined) return { kind: 'sqlite', file: path.join(dataDir, 'clients-manager.db') };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  // sqlite:relative/or/absolute.db, sqlite:///abs/path.db, file:path.db
  const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
  return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
}
