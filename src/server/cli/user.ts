import { roleSchema } from '#shared/people.ts';
import { configFromEnvOrExit } from '#server/config-from-env.ts';
import { UserAdmin, UserAdminError } from './user-admin.ts';
import { UsageError, parseCommandLine, runCommand } from './run-command.ts';
import { commandLineActor } from './command-line-actor.ts';
import { terminalText } from './terminal-text.ts';

const USAGE = `Usage: npm run user -- <command> [options]

  create --email EMAIL [--name NAME]   a verified user; the password is read from standard
                                       input when one is piped in, otherwise generated and
                                       printed once
  list                                 every user, with role, status and open sessions
  role --email EMAIL ROLE              give the user the role admin, editor or viewer (the
                                       last admin cannot be demoted; an admin has no tag limit)
  disable --email EMAIL                refuse sign-in and end all of the user's sessions now
  enable --email EMAIL                 allow a disabled user again

Uses the same settings as the server (environment and .env: DATA_DIR, DATABASE_URL,
SECRET_KEY, ALLOWED_EMAIL_DOMAINS, ALLOWED_EMAILS).`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function main(): Promise<number> {
  const { positionals, values } = parseCommandLine(
    { email: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean' } },
    // role --email EMAIL ROLE; every other command takes options only
    ([command]) => (command === 'role' ? 2 : 1),
  );
  const [command] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 2;
  }
  const needEmail = () => {
    if (!values.email) throw new UsageError('--email is required for this command.');
    return values.email;
  };

  const admin = await UserAdmin.open(configFromEnvOrExit());
  try {
    switch (command) {
      case 'create': {
        const email = needEmail();
        const typed = process.stdin.isTTY ? '' : await readStdin();
        const password = typed || UserAdmin.generatePassword();
        await admin.create(email, password, values.name ?? '');
        console.log(`Created ${email} (verified).`);
        if (!typed) console.log(`Password (shown once, store it now): ${password}`);
        return 0;
      }
      case 'list': {
        const users = await admin.list();
        if (users.length === 0) console.log('No users yet.');
        for (const u of users) {
          const status = [
            u.verified ? 'verified' : 'unverified',
            u.disabled ? 'DISABLED' : 'active',
          ].join(', ');
          // A person picks their own display name: it must not act on this terminal.
          const [email, name] = [terminalText(u.email), terminalText(u.name) || '-'];
          console.log(
            `${email}\t${name}\t${u.role}\t${status}\t${u.sessions} session(s)\tsince ${u.createdAt.slice(0, 10)}`,
          );
        }
        return 0;
      }
      case 'role': {
        const email = needEmail();
        const role = roleSchema.safeParse(positionals[1]);
        if (!role.success || positionals.length !== 2)
          throw new UserAdminError('Name one role: admin, editor or viewer.');
        const { from, liftedTags } = await admin.setRole(email, role.data, commandLineActor());
        const lifted = liftedTags ? '; an administrator sees every client: tag limit lifted' : '';
        console.log(
          from === role.data
            ? `${email} is ${role.data} already.`
            : `${email} is now ${role.data} (was ${from})${lifted}.`,
        );
        return 0;
      }
      case 'disable': {
        const email = needEmail();
        const ended = await admin.disable(email, commandLineActor());
        console.log(`Disabled ${email}; ended ${ended} session(s).`);
        return 0;
      }
      case 'enable': {
        const email = needEmail();
        await admin.enable(email, commandLineActor());
        console.log(`Enabled ${email}.`);
        return 0;
      }
      default:
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } finally {
    await admin.close();
  }
}

await runCommand(main, { usage: USAGE, refusals: [UserAdminError] });
