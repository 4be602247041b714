import { STREAMS_PER_PERSON } from '#server/realtime/events-route.ts';
import { signUpVerified, type ServerAddress, type Session } from './test-server.ts';

/**
 * People enough to open `streams` live streams, STREAMS_PER_PERSON each (the server refuses
 * more to one person): the session of the stream numbered `i` is `sessionFor(i)`.
 */
export async function streamSessions(
  server: ServerAddress,
  streams: number,
): Promise<{ sessionFor(index: number): Session }> {
  const sessions: Session[] = [];
  for (let i = 0; i < Math.ceil(streams / STREAMS_PER_PERSON); i += 1) {
    sessions.push(await signUpVerified(server, { name: `Watcher ${i + 1}` }));
  }
  return { sessionFor: (index) => sessions[Math.floor(index / STREAMS_PER_PERSON)]! };
}
