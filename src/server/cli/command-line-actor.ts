import os from 'node:os';

/** Who history and the audit trail name for a change made from the shell: no signed-in person. */
export function commandLineActor(): { id: null; name: string } {
  let user = 'operator';
  try {
    user = os.userInfo().username;
  } catch {
    // No user name for this uid (some containers): keep the generic one.
  }
  return { id: null, name: `${user} (command line)` };
}
