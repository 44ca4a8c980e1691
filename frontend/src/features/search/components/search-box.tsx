import type { TFunction } from 'i18next';
import { useDeferredValue, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { useCourseSearch } from '../api/course-search';
import type { SearchHit } from '../lib/search-engine';

import './search.css';

/** Where a hit is, as a reader would say it: "Lesson 5", "Lesson 5 · epoll", "Glossary". */
function whereLabel(hit: SearchHit, t: TFunction<'search'>): string {
  if (hit.place.in === 'glossary') return t('where.glossary');
  const { order, title } = hit.place;
  return hit.kind === 'section' ? t('where.section', { order, title }) : t('where.lesson', { order });
}

/**
 * The header's search over lessons and glossary: a combobox with a listbox of results (the
 * WAI-ARIA pattern: arrows move through the results, Enter opens one, Escape closes the list
 * or clears the box). The course is fetched and indexed when the box first gets focus.
 */
export function SearchBox() {
  const { t } = useTranslation('search');
  const id = useId();
  const listId = `${id}-results`;
  const [query, setQuery] = useState('');
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useCourseSearch(wanted);
  const navigate = useNavigate();

  const typed = useDeferredValue(query).trim();
  const hits = useMemo(() => (search.data && typed ? search.data.engine.search(typed) : []), [search.data, typed]);
  const showList = open && typed !== '';

  function choose(hit: SearchHit | undefined) {
    if (!hit) return;
    setOpen(false);
    setQuery('');
    setActive(-1);
    void navigate(hit.href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        setOpen(true);
        if (hits.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => {
          if (i < 0) return step > 0 ? 0 : hits.length - 1;
          return (i + step + hits.length) % hits.length;
        });
        return;
      }
      case 'Enter':
        event.preventDefault();
        choose(hits[active] ?? hits[0]);
        return;
      case 'Escape':
        if (showList) setOpen(false);
        else setQuery('');
        return;
    }
  }

  let status: string;
  if (search.isError) status = t('box.loadFailed');
  else if (!search.data) status = t('box.loading');
  else status = hits.length === 0 ? t('box.none') : t('box.count', { count: hits.length });
  const listed = showList && hits.length > 0;
  const missing = search.data?.missing ?? 0;

  return (
    <div
      className="site-search"
      role="search"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <label htmlFor={`${id}-input`} className="visually-hidden">
        {t('box.label')}
      </label>
      <input
        id={`${id}-input`}
        className="site-search__input"
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('box.label')}
        aria-expanded={listed}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={listed && active >= 0 ? `${id}-hit-${active}` : undefined}
        value={query}
        onFocus={() => {
          setWanted(true);
          setOpen(true);
        }}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
      />
      {/* Said to screen readers as the results change; shown in the popup below. */}
      <p className="visually-hidden" role="status">
        {showList ? status : ''}
      </p>
      {showList ? (
        <div className="site-search__popup">
          {listed ? (
            <ul id={listId} className="site-search__results" role="listbox" aria-label={t('box.results')}>
              {hits.map((hit, i) => (
                <li
                  key={hit.id}
                  id={`${id}-hit-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className="site-search__hit"
                  // Keep the focus in the box: a click chooses, it does not blur first.
                  onMouseDown={(event) => {
                    event.preventDefault();
                  }}
                  onClick={() => {
                    choose(hit);
                  }}
                >
                  <span className="site-search__title">{hit.title}</span>
                  <span className="site-search__context">{whereLabel(hit, t)}</span>
                  {hit.snippet ? <span className="site-search__snippet">{hit.snippet}</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="site-search__message">{status}</p>
          )}
          {missing > 0 ? (
            <p className="site-search__message">{t('box.missing', { count: missing })}</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
