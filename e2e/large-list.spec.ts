import { test as base, expect, type Page } from '@playwright/test';
import { clientColumns } from '../src/server/features/clients/client-repository.ts';
import { newRecordId, newRecordStamps } from '../src/server/db/record-id.ts';
import { newPrimaryServer } from '../src/server/features/clients/primary-server.ts';
import { SecretBox } from '../src/server/secrets.ts';
import {
  signUpVerified,
  startTestServer,
  type Session,
  type TestServer,
} from '../src/server/testing/test-server.ts';
import { WEB_APP, signInContext } from './fixtures.ts';

const CLIENTS = 2000;

// A server of its own: the other specs share theirs and count the rows they see.
const test = base.extend<object, { server: TestServer; seeded: Session }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
    async ({}, use) => {
      const server = await startTestServer({}, { clientDir: WEB_APP });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  seeded: [
    async ({ server }, use) => {
      const staff = await signUpVerified(server, { name: 'Lena List' });
      const { db } = server.app.parts;
      const at = new Date().toISOString();
      // Straight into the tables in one transaction: 2,000 API calls would take most of the
      // test. Each client has its primary server, as the form makes it.
      const context = {
        dialect: db.dialect,
        box: new SecretBox('large list'),
        actor: { id: null },
        at,
      };
      const rows = Array.from({ length: CLIENTS }, (_, i) => {
        const id = newRecordId();
        const values = {
          name: `Client ${String(i + 1).padStart(4, '0')}`,
          code: `C${i + 1}`,
          description: i % 3 === 0 ? '' : `Description of client ${i + 1}`,
          tags: [],
          server: { host: 'h', port: 22, username: 'u', private: true, uiDir: '' },
          domains: [],
        };
        const { server } = newPrimaryServer(context, { id, ...values }, values.server);
        const client = {
          id,
          ...clientColumns(values, '2024-01-01'),
          primaryServerId: server.id,
          ...newRecordStamps({ id: null }, new Date(Date.parse(at) + i).toISOString()),
        };
        return { client, server };
      });
      await db.kysely.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 200) {
          const chunk = rows.slice(i, i + 200);
          await trx
            .insertInto('client')
            .values(chunk.map(({ client }) => client))
            .execute();
          await trx
            .insertInto('server')
            .values(chunk.map(({ server }) => server))
            .execute();
        }
      });
      await use(staff);
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

// One worker runs these tests in order: its fixture (a server seeded with 2,000 clients) is worth
// building once.
test.describe.configure({ mode: 'default' });

const list = (page: Page) => page.getByRole('navigation', { name: 'Clients' });
const rowsInDom = (page: Page) => list(page).getByRole('listitem').count();

test('a list of 2,000 clients keeps only the rows in view in the page', async ({
  page,
  context,
  seeded,
}) => {
  await signInContext(context, seeded);
  await page.goto('/');
  const first = list(page).getByRole('link', { name: /Client 0001 \(C1\)/ });
  await expect(first).toBeVisible();
  await expect(first).toContainText('1.');
  expect(await rowsInDom(page)).toBeLessThan(60);

  // Scrolling to the end draws the last rows, still only a screenful of them.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const last = list(page).getByRole('link', { name: /Client 2000 \(C2000\)/ });
  await expect(last).toBeInViewport();
  await expect(last).toContainText('2000.');
  expect(await rowsInDom(page)).toBeLessThan(60);

  // The arrow keys wrap from the first match to the last and bring it into view.
  await page.evaluate(() => window.scrollTo(0, 0));
  const search = page.getByRole('searchbox', { name: 'Search clients' });
  await search.fill('client');
  await expect(list(page).getByRole('status')).toHaveText('2000 of 2000 clients');
  await search.press('ArrowUp');
  const cursor = list(page).locator('[data-cursor]');
  await expect(cursor).toContainText('Client 2000 (C2000)');
  await expect(cursor).toContainText('2000.');
  await expect(cursor).toBeInViewport();
  await search.press('Enter');
  await expect(page).toHaveURL(/\/clients\/[A-Za-z0-9_-]+\?q=client$/);
  await expect(list(page).locator('[aria-current="true"]')).toContainText('Client 2000');
});

test('asked again while nothing changed, the list comes back as a 304, not downloaded again', async ({
  page,
  context,
  server,
  seeded,
}) => {
  await signInContext(context, seeded);
  const answers: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/clients') answers.push(response.status());
  });
  const isStream = (url: string) => new URL(url).pathname === '/api/events';
  const streamOpen = page.waitForResponse((r) => isStream(r.url()));
  await page.goto('/');
  await expect(list(page).getByRole('link', { name: /Client 0001 \(C1\)/ })).toBeVisible();
  const firstStream = (await streamOpen).request();
  // The live stream ends (as at a server restart); the browser reconnects and, having maybe
  // missed changes, asks for the list again. Nothing changed: the server says so, and the page
  // keeps the list it has.
  const reconnected = page.waitForResponse((r) => isStream(r.url()) && r.request() !== firstStream);
  const before = answers.length;
  const { hub } = server.app.parts;
  hub.disconnectSessions(new Set(hub.sessionIds()));
  await reconnected;
  await expect.poll(() => answers.slice(before)).toContain(304);
  expect(answers.slice(before)).not.toContain(200);
  await expect(list(page).getByRole('link', { name: /Client 0001 \(C1\)/ })).toBeVisible();
});

test('the page downloads the list in summary, and an opened client comes in full', async ({
  page,
  context,
  seeded,
}) => {
  await signInContext(context, seeded);
  const listRequests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/clients') listRequests.push(url.search);
  });
  await page.goto('/');
  await list(page)
    .getByRole('link', { name: /Client 0002 \(C2\)/ })
    .click();
  // The panel reads the client in full: its start date, and the server's details the list lacks.
  await expect(page.getByText('Client since: Jan 1, 2024')).toBeVisible();
  await expect(page.getByText('"username": "u"')).toBeVisible();
  // Asked again when the live stream opens (a 304 then): never the full list.
  expect(listRequests.length).toBeGreaterThan(0);
  expect(new Set(listRequests)).toEqual(new Set(['?view=summary']));
});
