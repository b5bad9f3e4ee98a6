import { hostname } from 'node:os';

/** Instances of the service alive in this process (the tests run several apps in one process). */
const live = new Set<string>();

export const instanceStarted = (instance: string): void => void live.add(instance);
export const instanceStopped = (instance: string): void => void live.delete(instance);

/**
 * Whether the process that worked on an import is known to be gone, from its instance id
 * (`host:pid:random`, as the job runner names instances): an instance on this host whose process no longer
 * runs, or one that had this very process id (a restarted container numbers its process as before) and is not
 * alive in this process. Instances on other hosts are judged by their heartbeat instead.
 */
export function ownerGone(owner: string | null): boolean {
  if (!owner) return false;
  const parts = owner.split(':');
  const pid = Number(parts[1]);
  if (parts.length !== 3 || parts[0] !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return !live.has(owner);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
