import { useEffect, useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { CodeBlock } from '@/components/code-block';
import { ErrorBoundary } from '@/components/error-boundary';
import { ErrorMessage, Loading } from '@/components/loading';
import { useServers } from '@/hooks/use-servers';
import { languageFromPath } from '@/lib/highlight';

import { useSource } from '../api/get-source';
import { editableServer } from '../lib/edit-link';
import {
  checkSourceBlock,
  readPlainBlock,
  readYamlBlock,
  type SourceBlock as Block,
  type SourceBlockText,
} from '../lib/source-block';

import './source-block.css';

/** Under a C server's model file: open it in the editor, to change it, build it and run it. */
function EditLink({ path }: { path: string }) {
  const { t } = useTranslation('sources');
  const server = editableServer(path, useServers().data);
  if (!server) return null;
  return (
    <p className="source-block__edit" data-testid="source-edit-link">
      <Link to={`/edit/${encodeURIComponent(server.id)}`}>
        <Trans t={t} i18nKey="block.edit" values={{ server: server.id }} components={{ code: <code /> }} />
      </Link>
    </p>
  );
}

function SourceCode({ block }: { block: Block }) {
  const { t } = useTranslation('sources');
  const source = useSource(block);
  if (source.isPending) return <Loading label={t('block.loading', { path: block.path })} />;
  if (source.isError) {
    return <ErrorMessage title={t('block.loadFailed', { path: block.path })} error={source.error} />;
  }
  const { data } = source;
  const language = data.language || languageFromPath(data.path);
  const lines = { from: data.start_line, to: data.end_line };
  return (
    <figure className="source-block" data-testid="source-block">
      <CodeBlock
        code={data.text}
        language={language}
        path={data.path}
        startLine={data.start_line}
        note={block.anchor ? t('block.anchorLines', { anchor: block.anchor, ...lines }) : t('block.lines', lines)}
      />
      <EditLink path={block.path} />
    </figure>
  );
}

/** The block's text as YAML reads it: at once for plain `key: value` lines (every block of the
 *  course), after the YAML parser has come for any other; null until then. */
function useBlockText(code: string): SourceBlockText | null {
  const plain = useMemo(() => readPlainBlock(code), [code]);
  const [read, setRead] = useState<{ code: string; text: SourceBlockText } | null>(null);
  useEffect(() => {
    if (plain) return;
    let current = true;
    void readYamlBlock(code).then((text) => {
      if (current) setRead({ code, text });
    });
    return () => {
      current = false;
    };
  }, [code, plain]);
  return plain ?? (read?.code === code ? read.text : null);
}

/** A lesson's ```source block: the real file's lines, fetched from /api/sources. */
export function SourceBlock({ code }: { code: string }) {
  const { t } = useTranslation('sources');
  const text = useBlockText(code);
  // With `t`: a broken block's reasons are written again in the language switched to.
  const parsed = useMemo(() => (text ? checkSourceBlock(text, t) : null), [text, t]);
  return (
    <ErrorBoundary name={t('block.name')}>
      {parsed === null ? (
        <Loading />
      ) : parsed.ok ? (
        <SourceCode block={parsed.block} />
      ) : (
        <ErrorMessage title={t('block.broken')} error={parsed.error} />
      )}
    </ErrorBoundary>
  );
}
