import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/database.ts';
import type { Mailer } from '#server/mail/mailer.ts';
import type { EventHub } from '#server/realtime/event-hub.ts';
import { PeopleRepository } from './people-repository.ts';
import { Invitations } from './invitations.ts';
import { registerPeopleRoutes } from './people-routes.ts';

/** The People screen's parts, put together for app.ts in one call. */
export function registerPeopleFeature(
  app: FastifyInstance,
  deps: { db: Db; mailer: Mailer; publicUrl: string; hub: EventHub },
): void {
  const { db, mailer, publicUrl, hub } = deps;
  const onCommitted = () => void hub.wake();
  registerPeopleRoutes(app, {
    db,
    people: new PeopleRepository(db, onCommitted),
    invitations: new Invitations({ db, mailer, publicUrl, onCommitted }),
  });
}
