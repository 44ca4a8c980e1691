/**
 * What an exported result says about itself (ExportAbout, src/lib/export.ts): the setup it was
 * asked for, the names its charts and tables draw, the host it was measured on (the runner's
 * provenance record), when, and its permalink. Made once where a result is shown, carried by
 * every CSV, JSON, Markdown, PNG and SVG under it.
 */
import type { TFunction } from 'i18next';

import type { DoneEvent, RunRequest, Server, SweepRequest } from '@/lib/api-schemas';
import type { AboutLine, ExportAbout } from '@/lib/export';
import { formatLatencyUs, formatPercent, formatQps } from '@/lib/format';
import { absoluteLink } from '@/lib/share-link';
import { pairSpread } from '@/lib/verdict';

import { formatWhen, hostFacts } from './permalink';
import { setupRows } from './setup-rows';
import { listed } from './words';

type T = TFunction<'bench'>;
type Provenance = Record<string, unknown> | null | undefined;

export interface ResultFacts {
  /** The result in words, as its page or widget titles it. */
  title: string;
  request: RunRequest | SweepRequest;
  /** The catalog's entries of its servers (for their names and knobs' labels). */
  servers: Server[];
  /** The runner's record of where it was measured (a series: its first measured point's). */
  provenance: Provenance;
  /** When it was queued (its `created_at`), ISO 8601; null when not known. */
  createdAt: string | null | undefined;
  /** Its permalink as an in-app path (`/runs/…`); null for one that has none. */
  path: string | null;
  /** The names its charts and tables draw, as they say them. */
  legend: string[];
  /** A run's result: its headline figures go with it, each with its uncertainty. */
  result?: DoneEvent | null | undefined;
}

/**
 * A run's headline figures with how far they could be off: over its repetitions (their range)
 * when it was repeated, else where a second run would land by this host's run-to-run spread;
 * "not known" when neither was measured, rather than a bare figure that looks exact.
 */
function figureLines(result: DoneEvent, t: T): AboutLine[] {
  const { summary, aggregate, host_noise: noise } = result;
  const qps = formatQps(summary.qps);
  const uncertainty =
    aggregate && aggregate.count > 1
      ? t('about.overRepetitions', { count: aggregate.count, low: formatQps(aggregate.qps.min), high: formatQps(aggregate.qps.max) })
      : noise
        ? t('about.secondRun', { pair: formatPercent(pairSpread(noise) * 100) })
        : t('about.uncertaintyUnknown');
  const l = summary.latency_us;
  return [
    { label: t('about.throughput'), value: `${qps} req/s (${uncertainty})` },
    { label: t('about.latency'), value: `p50 ${formatLatencyUs(l.p50)} · p99 ${formatLatencyUs(l.p99)} · p99.9 ${formatLatencyUs(l.p999)}` },
  ];
}

/** The machine: runner and host, CPU model and count, kernel; those the record has. */
function hostLines(provenance: Provenance, t: T): AboutLine[] {
  const h = hostFacts(provenance);
  const runner = h.runner && h.runner_host && h.runner !== h.runner_host ? t('provenance.runnerOn', { runner: h.runner, host: h.runner_host }) : (h.runner ?? h.runner_host);
  const cpu = h.cpu_model && h.cpus ? t('provenance.cpuModelCount', { cpu: h.cpu_model, cpus: h.cpus }) : (h.cpu_model ?? (h.cpus ? t('provenance.cpuCount', { cpus: h.cpus }) : undefined));
  const kernel = h.kernel ? `Linux ${h.kernel}${h.cgroup_version ? `, cgroup v${h.cgroup_version}` : ''}` : undefined;
  const lines: [string, string | undefined][] = [
    [t('about.host'), runner],
    [t('about.cpu'), cpu],
    [t('about.kernel'), kernel],
  ];
  return lines.flatMap(([label, value]) => (value ? [{ label, value }] : []));
}

/** When it was measured (the runner's start), else queued; the reader's time and the ISO one,
 *  so a file read in another zone or by a program is not misread. */
function dateLine(provenance: Provenance, createdAt: string | null | undefined, t: T, lng: string | undefined): { line: AboutLine | null; iso: string | null } {
  const started = typeof provenance?.started_at === 'string' ? provenance.started_at : null;
  const iso = started ?? createdAt ?? null;
  const when = formatWhen(iso, lng);
  if (!iso || !when) return { line: null, iso: null };
  return { line: { label: t(started ? 'about.measured' : 'about.queued'), value: `${when} (${iso})` }, iso };
}

/** A label that starts a line of its own: "Connections", as the parameters' "connections" begins
 *  a line in a file (a script without capitals is left as it is). */
function lineLabel(label: string): string {
  return label.charAt(0).toLocaleUpperCase() + label.slice(1);
}

/** One run's or series' ExportAbout. */
export function resultAbout(facts: ResultFacts, t: T, lng: string | undefined): ExportAbout {
  const { line: date, iso } = dateLine(facts.provenance, facts.createdAt, t, lng);
  const lines: AboutLine[] = [
    ...setupRows(facts.request, facts.servers, t).map(([label, value]) => ({ label: lineLabel(label), value })),
    ...(facts.legend.length ? [{ label: t('about.legend'), value: listed(facts.legend, t) }] : []),
    ...(facts.result ? figureLines(facts.result, t) : []),
    ...hostLines(facts.provenance, t),
    ...(date ? [date] : []),
  ];
  return {
    title: facts.title,
    link: facts.path ? absoluteLink(facts.path) : null,
    lines,
    data: { setup: facts.request, legend: facts.legend, host: hostFacts(facts.provenance), date: iso },
  };
}

/** One result of a comparison, as its about needs it. */
export interface ComparedFacts {
  /** Its row's label in the comparison. */
  label: string;
  request: RunRequest | SweepRequest;
  createdAt: string | null | undefined;
}

/** A comparison's ExportAbout: each result's setup on a line of its own, the rows' names as
 *  the legend, the host of the reference (the first), the span of dates. */
export function comparisonAbout(
  { results, servers, provenance, path, legend }: { results: ComparedFacts[]; servers: Server[]; provenance: Provenance; path: string; legend: string[] },
  t: T,
  lng: string | undefined,
): ExportAbout {
  const dates = results.map((r) => r.createdAt).filter((d): d is string => typeof d === 'string').sort();
  const [first] = dates;
  const last = dates.at(-1);
  const span = first && last ? [formatWhen(first, lng), first === last ? null : formatWhen(last, lng)].filter(Boolean).join(' – ') : null;
  const lines: AboutLine[] = [
    ...results.map((r) => ({
      label: t('about.setupOf', { result: r.label }),
      value: setupRows(r.request, servers, t)
        .map(([label, value]) => `${label} ${value}`)
        .join('; '),
    })),
    ...(legend.length ? [{ label: t('about.legend'), value: listed(legend, t) }] : []),
    ...hostLines(provenance, t).map((line) => ({ ...line, label: t('about.ofReference', { label: line.label }) })),
    ...(span && first ? [{ label: t('about.queued'), value: `${span} (${first}${last && last !== first ? ` – ${last}` : ''})` }] : []),
  ];
  return {
    title: t('about.comparisonTitle', { count: results.length }),
    link: absoluteLink(path),
    lines,
    data: {
      setup: results.map((r) => ({ result: r.label, request: r.request, created_at: r.createdAt ?? null })),
      legend,
      host: hostFacts(provenance),
      date: first ?? null,
    },
  };
}
