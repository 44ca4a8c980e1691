import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { Loading } from '@/components/loading';
import { exerciseListQuery } from '@/hooks/use-exercises';
import { useLanguage } from '@/hooks/use-language';
import { lessonListQuery } from '@/hooks/use-lesson';
import { useServers } from '@/hooks/use-servers';
import type { HistoryEntry } from '@/lib/api-schemas';
import { formatLatencyUs, formatQps } from '@/lib/format';

import { getHistory } from '../../api/lab';
import { shortTime } from '../../lib/compare';
import { checkFailure } from '../../lib/edit-names';
import { describeEntry, entryLabUrl, unrunnableEdit, type EntryWords } from '../../lib/history';
import { statusWord } from '../../lib/words';

import { CompareView } from './compare-view';

import './lab.css';

interface FiltersProps {
  server: string;
  lesson: string;
  onChange: (name: 'server' | 'lesson', value: string) => void;
}

/** Filter by server and lesson; the choice lives in the URL. */
function Filters({ server, lesson, onChange }: FiltersProps) {
  const { t } = useTranslation('bench');
  const serverId = useId();
  const lessonId = useId();
  const servers = useServers();
  const lessons = useQuery(lessonListQuery(useLanguage()));
  return (
    <div className="history__filters">
      <label htmlFor={serverId}>{t('history.filters.server')}</label>
      <select id={serverId} value={server} onChange={(e) => { onChange('server', e.target.value); }}>
        <option value="">{t('history.filters.everyServer')}</option>
        {(servers.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {s.title} ({s.id})
          </option>
        ))}
      </select>
      <label htmlFor={lessonId}>{t('history.filters.lesson')}</label>
      <select id={lessonId} value={lesson} onChange={(e) => { onChange('lesson', e.target.value); }}>
        <option value="">{t('history.filters.everyLesson')}</option>
        {(lessons.data ?? []).map((l) => (
          <option key={l.slug} value={l.slug}>
            {l.title}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The names the rows need in the reader's language: lessons' and exercises' titles by slug
 *  (the slug until their lists load). */
function useTitles(): { lessonTitle: (slug: string) => string; words: EntryWords } {
  const { i18n } = useTranslation('bench');
  const language = useLanguage();
  const lessons = useQuery(lessonListQuery(language));
  const exercises = useQuery(exerciseListQuery(language));
  const lessonTitles = new Map((lessons.data ?? []).map((l) => [l.slug, l.title]));
  const exerciseTitles = new Map((exercises.data ?? []).map((e) => [e.slug, e.title]));
  return {
    lessonTitle: (slug) => lessonTitles.get(slug) ?? slug,
    words: { lng: i18n.resolvedLanguage, exerciseTitle: (slug) => exerciseTitles.get(slug) ?? slug },
  };
}

/** Where the row reopens: the lab with its setup, or, for an edit the lab could not run (it
 *  failed to compile or its check), that edit's page, saying why; nothing for one not kept. */
function Reopen({ entry }: { entry: HistoryEntry }) {
  const { t } = useTranslation('bench');
  const lab = entryLabUrl(entry);
  if (lab) return <Link to={lab}>{t('controls.openInLab')}</Link>;
  const edit = unrunnableEdit(entry)?.edit;
  if (!edit) return null;
  const why = t('history.openEditWhy', { why: checkFailure(edit, t) });
  return (
    <Link to={`/variants/${encodeURIComponent(edit.variant)}`} aria-label={why} title={why} data-testid="history-open-edit">
      {t('history.openEdit')}
    </Link>
  );
}

/** A run's or a sweep's status; for an answer's check run, the exercise's verdict on it. */
function entryStatus(entry: HistoryEntry, t: TFunction<'bench'>): string {
  if (entry.verdict) return t(`edits.verdict.${entry.verdict.status}`);
  if (entry.kind === 'sweep' && entry.points) {
    return t('history.statusOfPoints', { status: statusWord(entry.status, t), ended: entry.points_ended ?? 0, points: entry.points });
  }
  return statusWord(entry.status, t);
}

interface EntryRowProps {
  entry: HistoryEntry;
  picked: boolean;
  onPick: (picked: boolean) => void;
  lessonTitle: (slug: string) => string;
  words: EntryWords;
}

function EntryRow({ entry, picked, onPick, lessonTitle, words }: EntryRowProps) {
  const { t, i18n } = useTranslation('bench');
  const permalink = `/${entry.kind === 'run' ? 'runs' : 'sweeps'}/${entry.id}`;
  const what = describeEntry(entry, t, words);
  return (
    <tr data-testid="history-entry" data-kind={entry.kind} data-id={entry.id}>
      <td>
        <input type="checkbox" checked={picked} aria-label={t('history.compareEntry', { what })} onChange={(e) => { onPick(e.target.checked); }} />
      </td>
      <td>{shortTime(entry.created_at, i18n.resolvedLanguage)}</td>
      <th scope="row">
        <Link to={permalink}>{what}</Link>
        {entry.lesson ? <span className="history__lesson"> · {t('history.fromLesson', { lesson: lessonTitle(entry.lesson) })}</span> : null}
      </th>
      <td data-testid="history-status">{entryStatus(entry, t)}</td>
      <td>{entry.qps != null ? formatQps(entry.qps) : '—'}</td>
      <td>{entry.p99_us != null ? formatLatencyUs(entry.p99_us) : '—'}</td>
      <td>
        <Reopen entry={entry} />
      </td>
    </tr>
  );
}

/**
 * The learner's history (`#/history`): every run and sweep they started, newest first, by
 * server and lesson; each opens at its permalink, reopens in the lab, or joins a comparison.
 */
export function HistoryPage() {
  const { t } = useTranslation('bench');
  const [params, setParams] = useSearchParams();
  const server = params.get('server') ?? '';
  const lesson = params.get('lesson') ?? '';
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState<string[] | null>(null);
  const servers = useServers();
  const { lessonTitle, words } = useTitles();
  const history = useQuery({
    queryKey: ['history', server, lesson],
    queryFn: ({ signal }) => getHistory({ server: server || undefined, lesson: lesson || undefined }, signal),
  });
  const setFilter = (name: 'server' | 'lesson', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const entries = history.data ?? [];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const compared = (comparing ?? []).map((id) => byId.get(id)).filter((e): e is HistoryEntry => e !== undefined);

  return (
    <div className="history">
      <h1>{t('history.heading')}</h1>
      <p>
        <Trans t={t} i18nKey="history.intro" components={{ lab: <Link to="/lab" /> }} />
      </p>
      <Filters server={server} lesson={lesson} onChange={setFilter} />
      {history.error ? (
        <p role="alert">{t('history.loadFailed', { error: history.error.message })}</p>
      ) : history.isPending ? (
        <Loading />
      ) : entries.length === 0 ? (
        <p data-testid="history-empty">
          {server || lesson ? t('history.emptyFiltered') : t('history.empty')}
        </p>
      ) : (
        <>
          <div className="history__actions">
            <button type="button" className="button button--primary" disabled={picked.length === 0} onClick={() => { setComparing(picked); }}>
              {picked.length ? t('history.compareSelected', { n: picked.length }) : t('history.compareNone')}
            </button>
            {picked.length ? (
              <button type="button" className="button" onClick={() => { setPicked([]); }}>
                {t('history.clearSelection')}
              </button>
            ) : null}
          </div>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t('history.tableLabel')}>
            <table className="history__table" data-testid="history-table">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">{t('history.columns.compare')}</span>
                  </th>
                  <th scope="col">{t('history.columns.when')}</th>
                  <th scope="col">{t('history.columns.what')}</th>
                  <th scope="col">{t('history.columns.status')}</th>
                  <th scope="col">{t('compare.columns.qps')}</th>
                  <th scope="col">{t('figures.p99')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('history.columns.lab')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <EntryRow
                    key={entry.id}
                    entry={entry}
                    picked={picked.includes(entry.id)}
                    lessonTitle={lessonTitle}
                    words={words}
                    onPick={(on) => { setPicked((now) => (on ? [...now, entry.id] : now.filter((id) => id !== entry.id))); }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {compared.length ? <CompareView entries={compared} serverOrder={(servers.data ?? []).map((s) => s.id)} /> : null}
    </div>
  );
}
