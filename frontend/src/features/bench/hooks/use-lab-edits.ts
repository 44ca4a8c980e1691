/**
 * The learner's edits a lab setup names (`variant:<id>` among its servers, as POST /api/sweeps
 * takes them), read from GET /api/variants/{id}: each joins the lab's servers as its base
 * server under the edit's name and entry, so the form, its checks and the plan treat it as one
 * more server; and what cannot be opened (someone else's, gone) is said, not run.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { exerciseListQuery } from '@/hooks/use-exercises';
import { useLanguage } from '@/hooks/use-language';
import type { Server } from '@/lib/api-schemas';
import { getVariant } from '@/lib/variants-api';

import { editName } from '../lib/edit-names';
import type { LabProblem } from '../lib/lab-checks';
import { isVariantEntry, VARIANT_ENTRY } from '../lib/round-comparison';

export interface LabEdits {
  /** The edits as servers: the base server's catalog entry, with the edit's entry and name. */
  servers: Server[];
  /** Each edit's entry → the server it edits (a run of one alone names it so). */
  bases: Record<string, string>;
  /** An edit that could not be opened, said beside the server picker; it stops Run. */
  problems: LabProblem[];
  /** Still reading one. */
  pending: boolean;
}

export function useLabEdits(entries: readonly string[], catalog: Server[] | undefined): LabEdits {
  const { t, i18n } = useTranslation('bench');
  const exercises = useQuery(exerciseListQuery(useLanguage()));
  const edited = entries.filter(isVariantEntry);
  const reads = useQueries({
    queries: edited.map((entry) => ({
      queryKey: ['variant', entry.slice(VARIANT_ENTRY.length)],
      queryFn: ({ signal }: { signal: AbortSignal }) => getVariant(entry.slice(VARIANT_ENTRY.length), signal),
      retry: false,
    })),
  });
  const lng = i18n.resolvedLanguage;
  // One answer per read, so the lab's setup (and its widget) is rebuilt only when one changes.
  const readsKey = reads.map((r) => `${String(r.dataUpdatedAt)}/${String(r.errorUpdatedAt)}`).join(',');
  const editedKey = edited.join(',');
  return useMemo(() => {
    const titles = new Map((exercises.data ?? []).map((e) => [e.slug, e.title]));
    const exerciseTitle = (slug: string) => titles.get(slug) ?? slug;
    const result: LabEdits = { servers: [], bases: {}, problems: [], pending: reads.some((r) => r.isPending) };
    edited.forEach((entry, i) => {
      const read = reads[i];
      const short = entry.slice(VARIANT_ENTRY.length, VARIANT_ENTRY.length + 8);
      if (read?.error) {
        result.problems.push({ place: 'servers', text: t('lab.problem.edit', { id: short, error: read.error.message }), skips: false });
        return;
      }
      const variant = read?.data;
      const base = variant ? catalog?.find((s) => s.id === variant.server) : undefined;
      if (!variant || !base) return;
      const title = editName({ ...variant, saved_at: variant.created_at }, exerciseTitle, t, lng);
      result.servers.push({ ...base, id: entry, title });
      result.bases[entry] = base.id;
      // Only an edit's author may run it (the API answers 403): said before Run, not after.
      if (!variant.owner.mine) result.problems.push({ place: 'servers', text: t('lab.problem.notYourEdit', { edit: title }), skips: false });
    });
    return result;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `edited` and `reads` are new arrays each render; their keys say when they changed
  }, [editedKey, readsKey, catalog, exercises.data, t, lng]);
}
