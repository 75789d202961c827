// Where the machine's CPU goes during a benchmark, by role: samples /proc (Linux) every `everyMs` and
// splits the CPU time of every process into the roles the caller names by pid (a role's descendants
// count as "<role> children": a server's embedded chain node is its child), PostgreSQL (any process
// named `postgres`), and "other" (whatever else ran on the machine: other work sharing it). The
// machine's idle time comes from /proc/stat; each role's main thread (a Node process's event loop) is
// also reported on its own. `between(a, b)` gives the CPU seconds of each role
// between two wall-clock times, from the samples nearest to them.
import fs from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux (sysconf(_SC_CLK_TCK)); /proc reports CPU time in those ticks.

interface Sample {
  at: number;
  /** CPU ms by role, cumulative since the process started (children that exited are not counted: the roles' processes live through the run). */
  byRole: Record<string, number>;
  /** CPU ms of each root's main thread (included in its role's figure). */
  mainThread: Record<string, number>;
  idleMs: number;
  busyMs: number;
}

function procStat(pid: string): { ppid: number; comm: string; ms: number } | undefined {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may contain spaces: split after its closing parenthesis.
    const close = s.lastIndexOf(')');
    const comm = s.slice(s.indexOf('(') + 1, close);
    const f = s.slice(close + 2).split(' ');
    // After comm: state(0) ppid(1) … utime(11) stime(12).
    return { ppid: Number(f[1]), comm, ms: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return undefined; // the process exited between readdir and read
  }
}

function machine(): { idleMs: number; busyMs: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line;
  return { idleMs: (idle + iowait) * TICK_MS, busyMs: (user + nice + system + irq + softirq + steal) * TICK_MS };
}

export class CpuSampler {
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  readonly supported = fs.existsSync('/proc/stat');

  /** `roles`: role name → its root pids (read at every sample, so pids may be added later). */
  constructor(private readonly roles: () => Record<string, number[]>, private readonly everyMs = 250) {}

  start() {
    if (!this.supported || this.timer) return;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.supported) this.sample();
  }

  private sample() {
    const procs = new Map<number, { ppid: number; comm: string; ms: number }>();
    for (const d of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      const p = procStat(d);
      if (p) procs.set(Number(d), p);
    }
    const rootOf = new Map<number, string>();
    for (const [role, pids] of Object.entries(this.roles())) for (const pid of pids) rootOf.set(pid, role);
    // A root's descendants count as "<role> children" (a server's embedded chain node).
    const roleOf = (pid: number): string | undefined => {
      for (let cur = pid, hops = 0; cur > 1 && hops < 64; hops++) {
        const r = rootOf.get(cur);
        if (r) return cur === pid ? r : `${r} children`;
        cur = procs.get(cur)?.ppid ?? 0;
      }
      return undefined;
    };
    const byRole: Record<string, number> = {};
    for (const [pid, p] of procs) {
      const role = p.comm === 'postgres' ? 'postgres' : (roleOf(pid) ?? 'other');
      byRole[role] = (byRole[role] ?? 0) + p.ms;
    }
    // The main thread of each root (for a Node process: its event loop, which one request at a time runs on).
    const mainThread: Record<string, number> = {};
    for (const [pid, role] of rootOf) {
      const t = procStat(`${pid}/task/${pid}`);
      if (t) mainThread[role] = t.ms;
    }
    this.samples.push({ at: Date.now(), byRole, mainThread, ...machine() });
  }

  /** CPU seconds of each role, and the machine's idle seconds, between two wall-clock times (undefined without samples around them). */
  between(from: number, to: number): { seconds: number; byRole: Record<string, number>; mainThread: Record<string, number>; idle: number } | undefined {
    const near = (t: number) => this.samples.reduce<Sample | undefined>((best, s) => (!best || Math.abs(s.at - t) < Math.abs(best.at - t) ? s : best), undefined);
    const a = near(from), b = near(to);
    if (!a || !b || b.at <= a.at) return undefined;
    const byRole: Record<string, number> = {};
    // A process that started or exited in the window shows as a jump: clamp at zero (exited processes' time is lost).
    for (const role of new Set([...Object.keys(a.byRole), ...Object.keys(b.byRole)])) byRole[role] = Math.max(0, ((b.byRole[role] ?? 0) - (a.byRole[role] ?? 0)) / 1000);
    const mainThread: Record<string, number> = {};
    for (const role of Object.keys(b.mainThread)) if (a.mainThread[role] !== undefined) mainThread[role] = Math.max(0, (b.mainThread[role]! - a.mainThread[role]!) / 1000);
    return { seconds: (b.at - a.at) / 1000, byRole, mainThread, idle: (b.idleMs - a.idleMs) / 1000 };
  }
}
