import { can, type Permission } from '#shared/people.ts';
import { useMe } from './session.ts';

/**
 * Whether the signed-in person's role grants `permission`, to hide what they may not use. The
 * server refuses it all the same (route-permissions.ts); this only spares them a button that
 * would answer "Your role may not…".
 */
export function useCan(permission: Permission): boolean {
  return can(useMe().role, permission);
}
