import { useMemo } from 'react';
import { Link } from 'react-router';

import { CodeBlock } from '@/components/code-block';
import { ErrorBoundary } from '@/components/error-boundary';
import { ErrorMessage, Loading } from '@/components/loading';
import { useServers } from '@/hooks/use-servers';
import { languageFromPath } from '@/lib/highlight';

import { useSource } from '../api/get-source';
import { editableServer } from '../lib/edit-link';
import { parseSourceBlock, type SourceBlock as Block } from '../lib/source-block';

import './source-block.css';

/** Under a C server's model file: open it in the editor, to change it, build it and run it. */
function EditLink({ path }: { path: string }) {
  const server = editableServer(path, useServers().data);
  if (!server) return null;
  return (
    <p className="source-block__edit">
      <Link to={`/edit/${encodeURIComponent(server.id)}`} data-testid="source-edit-link">
        Edit <code>{server.id}</code> and run it
      </Link>
    </p>
  );
}

function SourceCode({ block }: { block: Block }) {
  const source = useSource(block);
  if (source.isPending) return <Loading label={`Loading ${block.path}…`} />;
  if (source.isError) {
    return <ErrorMessage title={`Could not load ${block.path}`} error={source.error} />;
  }
  const { data } = source;
  const language = data.language || languageFromPath(data.path);
  const where = block.anchor ? `${block.anchor} · ` : '';
  return (
    <figure className="source-block" data-testid="source-block">
      <CodeBlock
        code={data.text}
        language={language}
        path={data.path}
        startLine={data.start_line}
        note={`${where}lines ${data.start_line}–${data.end_line}`}
      />
      <EditLink path={block.path} />
    </figure>
  );
}

/** A lesson's ```source block: the real file's lines, fetched from /api/sources. */
export function SourceBlock({ code }: { code: string }) {
  const parsed = useMemo(() => parseSourceBlock(code), [code]);
  return (
    <ErrorBoundary name="This source listing">
      {parsed.ok ? (
        <SourceCode block={parsed.block} />
      ) : (
        <ErrorMessage title="Broken source block" error={parsed.error} />
      )}
    </ErrorBoundary>
  );
}
