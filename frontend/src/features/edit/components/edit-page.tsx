import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';
import { useServers } from '@/hooks/use-servers';
import type { Server, Source } from '@/lib/api-schemas';

import { formatDateTime } from '@/lib/dates';
import { getOriginal, getVariant, type Variant } from '../api/variants';
import { useCheckedEditor } from '../hooks/use-checked-editor';
import type { DraftSlot } from '../hooks/use-draft-text';
import { clearDraft, lastBuildKey, readDraft, saveDraft, startingText, type Draft } from '../lib/drafts';

import { BenchmarkForm } from './benchmark-form';
import { BuildOutcome } from './build-outcome';
import { CheckedEditorPane, CheckStatus } from './checked-editor';
import { VariantList } from './variant-list';

import './edit.css';

/** Why an edit page cannot open, with where to go instead. */
function EditProblem({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation('edit');
  usePageTitle(title);
  return (
    <div className="page" role="alert" data-testid="edit-problem">
      <h1>{title}</h1>
      {children}
      <p>
        <Link to="/edit">{t('editPage.chooseServer')}</Link>
      </p>
    </div>
  );
}

interface EditorPaneProps {
  server: Server;
  original: Source;
  /** The variant `?from=` asked to start from. */
  from: Variant | null;
}

/** The editor, its toolbar, the build's progress and outcome, and the benchmark once checked. */
function EditorPane({ server, original, from }: EditorPaneProps) {
  const { t, i18n } = useTranslation('edit');
  const [start] = useState(() => startingText(readDraft(server.id), from?.id ?? null, from?.source ?? original.text));
  const draft = useMemo<DraftSlot>(
    () => ({ save: (next) => saveDraft(server.id, next, from?.id ?? null), clear: () => { clearDraft(server.id); } }),
    [server.id, from],
  );
  const [setAside, setSetAside] = useState<Draft | null>(start.setAside);
  const dropSetAside = useCallback(() => { setSetAside(null); }, []); // typing replaces the draft set aside
  const editing = useCheckedEditor({
    original: original.text,
    // A copy of a saved edit is kept even when it comes back to the original.
    draftBase: from ? null : original.text,
    start,
    draft,
    lastBuildKey: lastBuildKey(server.id),
    server: server.id,
    onType: dropSetAside,
  });
  const { state } = editing.run;

  const restoreSetAside = () => {
    if (!setAside) return;
    editing.editor.current?.setText(setAside.text);
    setSetAside(null);
  };

  return (
    <div className="edit__main">
      {setAside ? (
        <div className="edit__notice" data-testid="draft-set-aside">
          <p>
            {t(from ? 'editPage.setAside.fromEdit' : 'editPage.setAside.fromOriginal', {
              server: server.id,
              when: formatDateTime(new Date(setAside.savedAt), i18n.resolvedLanguage),
            })}
          </p>
          <button type="button" className="button button--small" onClick={restoreSetAside}>
            {t('editPage.setAside.restore')}
          </button>
        </div>
      ) : null}

      <CheckedEditorPane
        editing={editing}
        file={original.path}
        words={{
          baseName: t('editPage.baseName'),
          reset: t('editPage.reset'),
          check: t('editPage.build'),
          cancel: t('editPage.cancelBuild'),
          editor: t('editPage.editorLabel', { path: original.path }),
          changed: t('editPage.yourEdit'),
        }}
      />

      <CheckStatus
        editing={editing}
        title={t('editPage.buildTitle')}
        keptAsKey="editPage.keptAs"
        changedSince={t('editPage.changedSince')}
      >
        <BuildOutcome state={state} onGoTo={editing.goTo} />
        {state.phase === 'checked' && state.variantId ? (
          <>
            <p className="edit__success" data-testid="check-passed">
              {t('editPage.checkPassed', { server: server.id })}
            </p>
            <BenchmarkForm server={server} variantId={state.variantId} />
          </>
        ) : null}
      </CheckStatus>
    </div>
  );
}

/**
 * /#/edit/:server (`?from=<variant id>` to start from a saved edit): the server's model file in
 * an editor, kept as a draft in this browser; Build & check compiles it in the build sandbox
 * and checks it answers correctly, the compiler's messages on their lines; once it passes, it
 * is benchmarked against the original.
 */
export function EditPage({ serverId, from }: { serverId: string; from: string | null }) {
  const { t } = useTranslation('edit');
  const servers = useServers();
  const server = servers.data?.find((s) => s.id === serverId);
  const editable = server?.language === 'c';
  const original = useQuery({
    queryKey: ['edit', 'original', server?.source],
    queryFn: ({ signal }) => getOriginal(server?.source ?? '', signal),
    enabled: editable,
    staleTime: Infinity,
  });
  const variant = useQuery({
    queryKey: ['variants', from],
    queryFn: ({ signal }) => getVariant(from ?? '', signal),
    enabled: from !== null,
    staleTime: Infinity,
  });
  usePageTitle(server ? t('editPage.pageTitle', { server: server.id }) : undefined);

  if (servers.isPending) return <Loading label={t('editPage.loadingServers')} />;
  if (servers.isError) return <ErrorMessage title={t('editPage.serversError')} error={servers.error} />;
  if (!server) {
    return (
      <EditProblem title={t('editPage.noServer.title', { server: serverId })}>
        <p>{t('editPage.noServer.body')}</p>
      </EditProblem>
    );
  }
  if (!editable) {
    return (
      <EditProblem title={t('editPage.notEditable.title', { server: server.id })}>
        <p>{t('editPage.notEditable.body', { server: server.id })}</p>
      </EditProblem>
    );
  }
  if (variant.isError) {
    return (
      <EditProblem title={t('editPage.badVariant.title')}>
        <p>{variant.error.message}</p>
        <p>
          <Link to={`/edit/${encodeURIComponent(server.id)}`}>{t('editPage.badVariant.editOriginal', { server: server.id })}</Link>
        </p>
      </EditProblem>
    );
  }
  if (variant.data && variant.data.server !== server.id) {
    const other = variant.data;
    return (
      <EditProblem title={t('editPage.otherServer.title')}>
        <p>
          <Trans
            t={t}
            i18nKey="editPage.otherServer.body"
            values={{ server: other.server }}
            components={{ a: <Link to={`/edit/${encodeURIComponent(other.server)}?from=${encodeURIComponent(other.id)}`} /> }}
          />
        </p>
      </EditProblem>
    );
  }

  return (
    <div className="edit" data-testid="edit-page">
      <header className="edit__header">
        <p className="edit__kicker">{t('editPage.kicker')}</p>
        <h1>
          <Trans t={t} i18nKey="editPage.heading" values={{ server: server.id }} components={{ code: <code /> }} />
        </h1>
        <p className="edit__intro">
          <Trans
            t={t}
            i18nKey="editPage.intro"
            values={{ title: server.title, source: server.source }}
            components={{ code: <code /> }}
          />
        </p>
      </header>
      <div className="edit__columns">
        {original.isError ? (
          <ErrorMessage title={t('editPage.originalError', { path: server.source })} error={original.error} />
        ) : original.isPending || (from !== null && variant.isPending) ? (
          <Loading label={t('editPage.loadingOriginal', { path: server.source })} />
        ) : (
          <EditorPane key={`${server.id}:${from ?? ''}`} server={server} original={original.data} from={variant.data ?? null} />
        )}
        <aside className="edit__aside">
          <VariantList current={from} />
        </aside>
      </div>
    </div>
  );
}

/** /#/edit: the servers that can be edited, and the learner's saved edits. */
export function EditIndex() {
  const { t } = useTranslation('edit');
  const servers = useServers();
  usePageTitle(t('editIndex.title'));
  const editable = (servers.data ?? []).filter((s) => s.language === 'c');
  return (
    <div className="edit page" data-testid="edit-index">
      <h1>{t('editIndex.title')}</h1>
      <p>{t('editIndex.intro')}</p>
      {servers.isPending ? (
        <Loading />
      ) : servers.isError ? (
        <ErrorMessage title={t('editPage.serversError')} error={servers.error} />
      ) : (
        <ul className="edit__servers">
          {editable.map((s) => (
            <li key={s.id}>
              <Link to={`/edit/${encodeURIComponent(s.id)}`}>
                {s.title} <code>{s.id}</code>
              </Link>{' '}
              <span className="edit__muted">{s.source}</span>
            </li>
          ))}
        </ul>
      )}
      <VariantList />
    </div>
  );
}
