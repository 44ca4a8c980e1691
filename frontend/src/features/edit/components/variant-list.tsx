import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';

import { Loading } from '@/components/loading';

import { listVariants, VARIANTS_KEY } from '../api/variants';

/** "25 Nov, 10:08" in the reader's time zone. */
function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** "Your edited servers": every file the learner built, newest first, each at its own page. */
export function VariantList({ current }: { current?: string | null }) {
  const variants = useQuery({ queryKey: VARIANTS_KEY, queryFn: ({ signal }) => listVariants(signal) });
  return (
    <section className="variant-list" aria-labelledby="variant-list-title" data-testid="variant-list">
      <h2 id="variant-list-title">Your edited servers</h2>
      {variants.isPending ? (
        <Loading />
      ) : variants.isError ? (
        <p role="alert">Your edited servers could not be loaded: {variants.error.message}</p>
      ) : variants.data.length === 0 ? (
        <p className="edit__muted">None yet: each Build &amp; check keeps the file you built here.</p>
      ) : (
        <ol>
          {variants.data.map((v) => (
            <li key={v.id} aria-current={v.id === current ? 'true' : undefined}>
              <Link to={`/variants/${encodeURIComponent(v.id)}`}>
                {v.server} <span className="edit__muted">· {when(v.created_at)}</span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
