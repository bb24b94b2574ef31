import { readFileSync } from "node:fs";

/** The parent pid of a process, from /proc (Linux); undefined elsewhere or when it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined; // not Linux, or the process is gone: both mean "nothing to compare"
  }
}

/**
 * Started through `npm start`, the bot runs under npm (and a shell): if npm is killed outright
 * (SIGKILL), no signal reaches the bot and it would keep polling beside the next instance. This
 * calls `onGone` when the process that started us, or the one that started it, goes away.
 */
export function watchLauncher(onGone: () => void): void {
  const parent = process.ppid;
  if (parent <= 1) return; // run directly by init, systemd or Docker: nothing to watch
  const grandparent = parentOf(parent);
  const timer = setInterval(() => {
    const gone =
      process.ppid !== parent || (grandparent !== undefined && grandparent > 1 && parentOf(parent) !== grandparent);
    if (!gone) return;
    clearInterval(timer);
    onGone();
  }, 500);
  timer.unref();
}
