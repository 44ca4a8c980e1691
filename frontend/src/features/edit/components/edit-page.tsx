import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ErrorMessage, Loading } from '@/components/loading';
import { usePageTitle } from '@/hooks/use-page-title';
import { useServers } from '@/hooks/use-servers';
import type { Server, Source } from '@/lib/api-schemas';

import { getOriginal, getVariant, VARIANTS_KEY, type Variant } from '../api/variants';
import { useCheckRun } from '../hooks/use-check-run';
import { useDraftText, type DraftSlot } from '../hooks/use-draft-text';
import { checkStateLabel, diagnosticsOf, isBuilding } from '../lib/check-state';
import { formatDateTime } from '../lib/dates';
import {
  clearDraft,
  clearLastBuild,
  readDraft,
  readLastBuild,
  saveDraft,
  saveLastBuild,
  startingText,
  type Draft,
} from '../lib/drafts';
import { refusalText } from '../lib/refusal';

import { BenchmarkForm } from './benchmark-form';
import { BuildOutcome } from './build-outcome';
import { DiffView, type DiffLayout } from './diff-view';
import { EditorToolbar, type Showing } from './editor-toolbar';
import { SourceEditor, type SourceEditorHandle } from './source-editor';
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
  const queryClient = useQueryClient();
  const editor = useRef<SourceEditorHandle>(null);
  const statusId = useId();
  const [start] = useState(() => startingText(readDraft(server.id), from?.id ?? null, from?.source ?? original.text));
  const slot = useMemo<DraftSlot>(
    () => ({ save: (next) => saveDraft(server.id, next, from?.id ?? null), clear: () => { clearDraft(server.id); } }),
    [server.id, from],
  );
  // A copy of a saved edit is kept even when it comes back to the original.
  const { text, status: draftStatus, onChange: keepTyping, keepNow } = useDraftText(slot, from ? null : original.text, start);
  const [setAside, setSetAside] = useState<Draft | null>(start.setAside);
  const [showing, setShowing] = useState<Showing>('editor');
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const [confirmingReset, setConfirmingReset] = useState(false);
  const [builtText, setBuiltText] = useState<string | null>(null);
  const { state, build, attach, cancel } = useCheckRun();
  const edited = text !== original.text;
  const busy = isBuilding(state);

  const onChange = useCallback(
    (next: string) => {
      keepTyping(next);
      setSetAside(null); // typing replaces the draft that was set aside
      setConfirmingReset(false);
    },
    [keepTyping],
  );

  // After a reload, follow this server's last build again: its events bring its outcome back.
  useEffect(() => {
    const last = readLastBuild(server.id);
    if (!last) return;
    attach(last.variantId, last.runId).catch(() => {
      clearLastBuild(server.id);
    });
  }, [attach, server.id]);

  const buildAndCheck = async () => {
    keepNow();
    const sent = text;
    const created = await build(server.id, sent);
    if (!created) return;
    setBuiltText(sent);
    saveLastBuild(server.id, { variantId: created.id, runId: created.check.id });
    void queryClient.invalidateQueries({ queryKey: VARIANTS_KEY });
  };

  const reset = () => {
    editor.current?.setText(original.text);
    clearDraft(server.id);
    setConfirmingReset(false);
    setShowing('editor');
  };

  const restoreSetAside = () => {
    if (!setAside) return;
    editor.current?.setText(setAside.text);
    setSetAside(null);
  };

  const goTo = (line: number, column: number | null) => {
    if (showing === 'editor') {
      editor.current?.goTo(line, column);
      return;
    }
    setShowing('editor');
    // From the changes: the editor is shown again before the cursor moves into it.
    setTimeout(() => editor.current?.goTo(line, column), 0);
  };

  const diagnostics = diagnosticsOf(state);
  const changedSinceBuild = builtText !== null && builtText !== text && !busy;

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

      <EditorToolbar
        baseName={t('editPage.baseName')}
        edited={edited}
        resetLabel={t('editPage.reset')}
        confirmingReset={confirmingReset}
        onConfirmingReset={setConfirmingReset}
        onReset={reset}
        showing={showing}
        onShowing={setShowing}
        layout={layout}
        onLayout={setLayout}
        draftStatus={draftStatus}
      >
        <button
          type="button"
          className="button button--primary"
          onClick={() => void buildAndCheck()}
          disabled={busy}
          aria-describedby={statusId}
        >
          {t('editPage.build')}
        </button>
        {busy && state.runId ? (
          <button type="button" className="button" onClick={() => void cancel()}>
            {t('editPage.cancelBuild')}
          </button>
        ) : null}
      </EditorToolbar>
      {state.refusal ? (
        <p className="edit__problem" role="alert" data-testid="build-refused">
          {refusalText(state.refusal, t)}
        </p>
      ) : null}

      <div hidden={showing !== 'editor'}>
        <SourceEditor
          ref={editor}
          initialText={start.text}
          label={t('editPage.editorLabel', { path: original.path })}
          describedBy={statusId}
          diagnostics={diagnostics}
          onChange={onChange}
        />
      </div>
      {showing === 'changes' ? (
        <DiffView original={original.text} changed={text} layout={layout} changedLabel={t('editPage.yourEdit')} file={original.path} />
      ) : null}

      <section className="edit__build" aria-labelledby="build-title">
        <h2 id="build-title">{t('editPage.buildTitle')}</h2>
        <p
          id={statusId}
          className="check-state"
          role="status"
          aria-live="polite"
          data-testid="check-state"
          data-phase={state.phase}
          data-run={state.runId ?? undefined}
        >
          {checkStateLabel(state, t)}
        </p>
        {state.variantId ? (
          <p className="edit__muted" data-testid="variant-link">
            <Trans
              t={t}
              i18nKey="editPage.keptAs"
              components={{ a: <Link to={`/variants/${encodeURIComponent(state.variantId)}`} /> }}
            />
            {changedSinceBuild ? ` ${t('editPage.changedSince')}` : ''}
          </p>
        ) : null}
        <BuildOutcome state={state} onGoTo={goTo} />
        {state.phase === 'checked' && state.variantId ? (
          <>
            <p className="edit__success" data-testid="check-passed">
              {t('editPage.checkPassed', { server: server.id })}
            </p>
            <BenchmarkForm server={server} variantId={state.variantId} />
          </>
        ) : null}
      </section>
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
