import fs from 'node:fs';
import path from 'node:path';

/**
 * Whether process `pid` holds a socket listening on `port` (Linux: its descriptors in
 * /proc/<pid>/fd against the listening IPv4 sockets in /proc/net/tcp).
 */
export function listensOn(pid: number, port: number): boolean {
  const fdDir = `/proc/${pid}/fd`;
  const inodes = new Set<string>();
  // The process opens and closes descriptors meanwhile, or has exited: what is gone is skipped.
  const readOrNone = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch {
      return undefined;
    }
  };
  for (const fd of readOrNone(() => fs.readdirSync(fdDir)) ?? []) {
    const target = readOrNone(() => fs.readlinkSync(path.join(fdDir, fd), 'utf8')) ?? '';
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  const onPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .some((line) => {
      // sl, local_address, rem_address, st (0A: LISTEN), …, inode (the tenth field)
      const fields = line.trim().split(/\s+/);
      return fields[1]?.endsWith(onPort) && fields[3] === '0A' && inodes.has(fields[9]!);
    });
}
