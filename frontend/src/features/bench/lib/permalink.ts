/**
 * What a permalink page says about a run or series besides its figures and the parameters it
 * was asked for (its request, as ExperimentParams lists it): when, and where it was measured.
 */

/** "25 Nov 2026, 10:08" in the reader's time zone; null for no or an unreadable time. */
export function formatWhen(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return null;
  return when.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

function text(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  if (typeof value === 'number') return String(value);
  return null;
}

function image(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const { tag, id } = value as { tag?: unknown; id?: unknown };
  const name = text(tag);
  const digest = text(id);
  if (!name) return null;
  // "sha256:" and 12 hex digits, as `docker images` shows an id.
  return digest ? `${name} (${digest.replace(/^sha256:/, '').slice(0, 12)})` : name;
}

function argv(value: unknown): string | null {
  return Array.isArray(value) && value.length ? value.map(String).join(' ') : null;
}

/**
 * The runner's record of where and how a run was measured (result.provenance), as labelled
 * rows; what a recording does not have is left out. Older recordings have fewer keys.
 */
export function provenanceRows(provenance: Record<string, unknown> | null | undefined): [string, string][] {
  if (!provenance) return [];
  const p = provenance;
  const runner = text(p.runner);
  const host = text(p.runner_host);
  const cpus = text(p.cpus);
  const cpu = text(p.cpu_model);
  const kernel = text(p.kernel);
  const cgroup = text(p.cgroup_version);
  const started = formatWhen(text(p.started_at));
  const finished = formatWhen(text(p.finished_at));
  const shared = Array.isArray(p.shares_cpus_with) ? p.shares_cpus_with.map(String) : [];
  const rows: [string, string | null][] = [
    ['runner', runner && host && runner !== host ? `${runner} on ${host}` : (runner ?? host)],
    ['CPU', cpu && cpus ? `${cpu}, ${cpus} CPUs` : (cpu ?? (cpus ? `${cpus} CPUs` : null))],
    [
      'pinned to',
      text(p.server_cpus) && text(p.loadgen_cpus)
        ? `server CPU ${text(p.server_cpus) ?? ''}, load generator CPU ${text(p.loadgen_cpus) ?? ''}`
        : null,
    ],
    ['shares CPUs with', shared.length ? shared.join(', ') : null],
    ['kernel', kernel ? `Linux ${kernel}${cgroup ? `, cgroup v${cgroup}` : ''}` : null],
    ['Docker', text(p.docker_version)],
    ['server image', image(p.server_image)],
    ['load generator', [image(p.loadgen_image), text(p.loadgen_version) ? `version ${text(p.loadgen_version) ?? ''}` : null].filter(Boolean).join(', ') || null],
    ['server command', argv(p.server_argv)],
    ['load generator command', argv(p.loadgen_argv)],
    ['measured', started && finished ? `${started} to ${finished}` : started],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null);
}
