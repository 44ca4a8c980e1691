/**
 * What a permalink page says about a run or series besides its figures and the parameters it
 * was asked for (its request, as ExperimentParams lists it): when, and where it was measured.
 */
import type { TFunction } from 'i18next';

import { dateLocale } from '@/lib/dates';

import { listed } from './words';

/** "25 Nov 2026, 10:08" ("2026年11月25日 10:08" in Chinese) in the reader's time zone; null for
 *  no or an unreadable time. */
export function formatWhen(iso: string | null | undefined, lng: string | undefined): string | null {
  if (!iso) return null;
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return null;
  return when.toLocaleString(dateLocale(lng), { dateStyle: 'medium', timeStyle: 'short' });
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
export function provenanceRows(
  provenance: Record<string, unknown> | null | undefined,
  t: TFunction<'bench'>,
  lng: string | undefined,
): [string, string][] {
  if (!provenance) return [];
  const p = provenance;
  const runner = text(p.runner);
  const host = text(p.runner_host);
  const cpus = text(p.cpus);
  const cpu = text(p.cpu_model);
  const kernel = text(p.kernel);
  const cgroup = text(p.cgroup_version);
  const serverCpus = text(p.server_cpus);
  const loadgenCpus = text(p.loadgen_cpus);
  const started = formatWhen(text(p.started_at), lng);
  const finished = formatWhen(text(p.finished_at), lng);
  // "" is a fact too: the course's own work shared the measured CPUs (a host with no others)
  const courseCpus = typeof p.course_cpus === 'string' ? p.course_cpus : null;
  const shared = Array.isArray(p.shares_cpus_with) ? p.shares_cpus_with.map(String) : [];
  const loadgenVersion = text(p.loadgen_version);
  const loadgen = [image(p.loadgen_image), loadgenVersion ? t('provenance.version', { version: loadgenVersion }) : null].filter(
    (part): part is string => part !== null,
  );
  const rows: [string, string | null][] = [
    [t('provenance.runner'), runner && host && runner !== host ? t('provenance.runnerOn', { runner, host }) : (runner ?? host)],
    [
      t('provenance.cpu'),
      cpu && cpus ? t('provenance.cpuModelCount', { cpu, cpus }) : (cpu ?? (cpus ? t('provenance.cpuCount', { cpus }) : null)),
    ],
    [t('provenance.pinnedTo'), serverCpus && loadgenCpus ? t('provenance.pinned', { server: serverCpus, loadgen: loadgenCpus }) : null],
    [t('provenance.sharesCpusWith'), shared.length ? shared.join(', ') : null],
    [t('provenance.courseWork'), courseCpus === null ? null : courseCpus ? t('provenance.courseCpus', { cpus: courseCpus }) : t('provenance.courseShared')],
    [t('provenance.kernel'), kernel ? `Linux ${kernel}${cgroup ? `, cgroup v${cgroup}` : ''}` : null],
    ['Docker', text(p.docker_version)],
    [t('provenance.serverImage'), image(p.server_image)],
    [t('provenance.loadGenerator'), loadgen.length ? listed(loadgen, t) : null],
    [t('provenance.serverCommand'), argv(p.server_argv)],
    [t('provenance.pidsLimit'), typeof p.server_pids_limit === 'number' ? t('provenance.pids', { count: p.server_pids_limit }) : null],
    [t('provenance.loadGeneratorCommand'), argv(p.loadgen_argv)],
    [t('provenance.measured'), started && finished ? t('provenance.fromTo', { start: started, end: finished }) : started],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null);
}

/** The host a run was measured on, as a program reads it: the provenance's keys that say which
 *  machine (runner, CPU, kernel, Docker), those it has. */
export function hostFacts(provenance: Record<string, unknown> | null | undefined): Record<string, string> {
  const keys = ['runner', 'runner_host', 'cpu_model', 'cpus', 'kernel', 'cgroup_version', 'docker_version', 'server_cpus', 'loadgen_cpus'];
  return Object.fromEntries(
    keys.flatMap((key) => {
      const value = text(provenance?.[key]);
      return value === null ? [] : [[key, value]];
    }),
  );
}
