/**
 * What the benchmarks read about a browser's processes from Linux's /proc: which of the processes
 * under this script run the page (and its dedicated workers), how much memory the largest one holds,
 * and how much CPU a process has used. Elsewhere (no /proc) the readers return null.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** How each browser's process that runs pages (and their dedicated workers) shows on its command line. */
export const PAGE_PROCESS = {
  chromium: (args) => args.includes('--type=renderer'),
  firefox: (args) => args.includes('-contentproc') && args.at(-1) === 'tab',
};

/** Every process descending from `rootPid` (itself not included), from each process's parent in /proc/<pid>/stat. */
function descendants(rootPid) {
  const children = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch { /* gone */ }
  }
  const found = [];
  const stack = [...(children.get(rootPid) || [])];
  while (stack.length) {
    const pid = stack.pop();
    found.push(pid);
    for (const c of children.get(pid) || []) stack.push(c);
  }
  return found;
}

/**
 * The page process of `browserName` under `rootPid` (this script, by default) with the most resident
 * memory: { pid, rssBytes }, or null when there is none (or no /proc).
 */
export function largestPageProcess(browserName = 'chromium', rootPid = process.pid) {
  if (!existsSync('/proc')) return null;
  let best = null;
  for (const pid of descendants(rootPid)) {
    try {
      // (split on spaces too: both browsers rewrite their children's argv as one string)
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
      if (!PAGE_PROCESS[browserName](args)) continue;
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      const rssBytes = m ? Number(m[1]) * 1024 : 0;
      if (m && (!best || rssBytes > best.rssBytes)) best = { pid, rssBytes };
    } catch { /* gone */ }
  }
  return best;
}

/** Resident memory (bytes) of the largest page process of `browserName` under this script, or null. */
export function pageRss(browserName = 'chromium') {
  return largestPageProcess(browserName)?.rssBytes ?? null;
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; null when it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}
