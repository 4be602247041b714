import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Client } from '#shared/clients.ts';
import type { ClientExport } from '#shared/client-transfer.ts';
import type { ClientHistory } from '#shared/events.ts';
import { serveThisFile } from '#server/testing/file-server.ts';
import { runScript, type ScriptResult } from '#server/testing/run-script.ts';

const t = serveThisFile({ staff: { staff: { name: 'Staff' } } });

/** Runs `npm run clients -- …` as an operator would, on the test server's data. */
function clientsCommand(args: string[]): Promise<ScriptResult> {
  return runScript('src/server/cli/clients.ts', args, {
    env: { DATA_DIR: t.server.dataDir, ...t.server.databaseEnv },
  });
}

describe('npm run clients', () => {
  it('exports with passwords to a file readable by its owner only, and warns', async () => {
    const client = (
      await t.staff.staff.json<Client>('POST', '/api/clients', {
        name: 'Cli export',
        server: { password: 'cli-secret' },
      })
    ).body;
    // A link left where the export goes is replaced, not written through.
    const out = path.join(t.server.dataDir, 'export.json');
    const linked = path.join(t.server.dataDir, 'linked-export.json');
    fs.symlinkSync(linked, out);
    const result = await clientsCommand(['export', '--secrets', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/Exported \d+ client\(s\) to .*export\.json\./);
    expect(result.err).toMatch(/Warning: the export holds the server passwords in clear/);
    expect(fs.lstatSync(out).isFile()).toBe(true);
    expect(fs.existsSync(linked)).toBe(false);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    const file = JSON.parse(fs.readFileSync(out, 'utf8')) as ClientExport;
    expect(file.clients.find((c) => c.id === client.id)?.server.password).toBe('cli-secret');
    const history = await t.staff.staff.json<ClientHistory>(
      'GET',
      `/api/clients/${client.id}/history`,
    );
    expect(history.body.events[0]).toMatchObject({
      kind: 'client.password_read',
      actor: { id: null, name: expect.stringMatching(/\(command line\)$/) },
    });
  });

  it('refuses to export into an existing file, which would keep its mode, and reads nothing', async () => {
    const client = (
      await t.staff.staff.json<Client>('POST', '/api/clients', {
        name: 'Cli existing',
        server: { password: 'existing-file-secret' },
      })
    ).body;
    const out = path.join(t.server.dataDir, 'readable.json');
    fs.writeFileSync(out, 'old content\n', { mode: 0o644 });
    fs.chmodSync(out, 0o644);
    const result = await clientsCommand(['export', '--secrets', '--out', out]);
    expect(result).toMatchObject({ code: 1, out: '' });
    expect(result.err).toBe(`${out} exists already: choose a new file.\n`);
    expect(fs.readFileSync(out, 'utf8')).toBe('old content\n');
    expect(fs.statSync(out).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(t.server.dataDir).filter((f) => f.includes('partial'))).toEqual([]);
    const history = await t.staff.staff.json<ClientHistory>(
      'GET',
      `/api/clients/${client.id}/history`,
    );
    expect(history.body.events.map((e) => e.kind)).not.toContain('client.password_read');
  });

  it('makes a missing --out folder, and refuses one it cannot make before any password is read', async () => {
    const client = (
      await t.staff.staff.json<Client>('POST', '/api/clients', {
        name: 'Cli missing folder',
        server: { password: 'missing-folder-secret' },
      })
    ).body;
    const reads = async () =>
      (
        await t.staff.staff.json<ClientHistory>('GET', `/api/clients/${client.id}/history`)
      ).body.events.filter((e) => e.kind === 'client.password_read').length;
    const before = await reads();
    // Under a file: no folder can be made there.
    const file = path.join(t.server.dataDir, 'a-file');
    fs.writeFileSync(file, '');
    const out = path.join(file, 'exports', 'export.json');
    const result = await clientsCommand(['export', '--secrets', '--out', out]);
    expect(await reads()).toBe(before);
    expect(result).toMatchObject({ code: 1, out: '' });
    expect(result.err).toBe(
      `${path.dirname(out)} cannot be made or written to (ENOTDIR): choose another --out.\n`,
    );

    const made = path.join(t.server.dataDir, 'no-such-folder', 'export.json');
    expect((await clientsCommand(['export', '--out', made])).code).toBe(0);
    expect(fs.statSync(path.dirname(made)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(made).mode & 0o777).toBe(0o600);
  });

  it('imports a Firestore file: dry run, refusal with invalid documents, then --skip-invalid with progress', async () => {
    const documents = Array.from({ length: 1200 }, (_, n) => ({
      __id__: `cli${String(n).padStart(17, '0')}`,
      name: `Cli ${n}`,
      startDate: { seconds: 1_700_000_000, nanoseconds: 0 },
      domains: n === 3 ? ['not a url'] : [],
    }));
    const file = path.join(t.server.dataDir, 'firestore.json');
    fs.writeFileSync(file, JSON.stringify(documents));

    const dry = await clientsCommand(['import', file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toBe(
      [
        '1200 document(s): 1199 new, 0 updated, 0 unchanged, 1 invalid.',
        '  document 3 (id cli00000000000000003): domains.0: Must be an http:// or https:// URL',
        'Dry run: nothing was written.',
        '',
      ].join('\n'),
    );

    const refused = await clientsCommand(['import', file]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^Nothing was imported because of the invalid document/);
    expect(
      (await t.staff.staff.json<Client>('GET', '/api/clients/cli00000000000000000')).status,
    ).toBe(404);

    const applied = await clientsCommand(['import', file, '--skip-invalid']);
    expect(applied.code).toBe(0);
    expect(applied.err).toContain('\rimported 200/1199');
    expect(applied.err).toContain('\rimported 1199/1199\n');
    expect(applied.out).toMatch(/Imported: 1199 created, 0 updated\.\n$/);
    const one = await t.staff.staff.json<Client>('GET', '/api/clients/cli00000000000000000');
    expect(one.body).toMatchObject({ name: 'Cli 0', startDate: '2023-11-14', createdBy: null });
  });

  it('says what is wrong with a file that is not JSON, and with a missing file name', async () => {
    const bad = path.join(t.server.dataDir, 'bad.json');
    fs.writeFileSync(bad, '{ nope');
    const notJson = await clientsCommand(['import', bad]);
    expect(notJson.code).toBe(1);
    expect(notJson.err).toMatch(/^Cannot read .*bad\.json as JSON: /);
    expect((await clientsCommand(['import'])).code).toBe(2);
  });

  it('refuses a file that is not UTF-8, and takes one that starts with a byte order mark', async () => {
    const latin1 = path.join(t.server.dataDir, 'latin1.json');
    fs.writeFileSync(latin1, Buffer.from('[{"name":"Cr\xe8me Caf\xe9"}]', 'latin1'));
    const refused = await clientsCommand(['import', latin1]);
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err).toBe(
      `Cannot read ${latin1}: the file is not UTF-8. Save it as UTF-8 and import it again.\n`,
    );
    const names = async () =>
      (await t.staff.staff.json<{ clients: Client[] }>('GET', '/api/clients')).body.clients.map(
        (c) => c.name,
      );
    expect((await names()).filter((n) => n.startsWith('Cr'))).toEqual([]);

    const bom = path.join(t.server.dataDir, 'bom.json');
    fs.writeFileSync(bom, `\uFEFF${JSON.stringify([{ name: 'Crème BOM' }])}`);
    const applied = await clientsCommand(['import', bom]);
    expect(applied.err).toBe('\rimported 1/1\n');
    expect(applied.code).toBe(0);
    expect(applied.out).toMatch(/Imported: 1 created, 0 updated\.\n$/);
    expect(await names()).toContain('Crème BOM');
  });

  it('prints ids from an import file with control characters escaped', async () => {
    const file = path.join(t.server.dataDir, 'hostile-ids.json');
    const id = 'x\u001b[2K\r\u001b]52;c;Y3VybCBldmlsfHNo\u0007';
    fs.writeFileSync(file, JSON.stringify([{ __id__: id, name: 'X', domains: ['not a url'] }]));
    const dry = await clientsCommand(['import', file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(
      '  document 0 (id x\\u{1b}[2K\\u{d}\\u{1b}]52;c;Y3VybCBldmlsfHNo\\u{7}): domains.0: ',
    );
    for (const raw of ['\u001b', '\r', '\u0007']) expect(dry.out).not.toContain(raw);
  });
});
