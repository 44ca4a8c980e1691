import { useDeferredValue, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';

import { useCourseSearch } from '../api/course-search';
import type { SearchHit } from '../lib/search-engine';

import './search.css';

function countLabel(n: number): string {
  return n === 0 ? 'No results' : `${n} result${n === 1 ? '' : 's'}`;
}

/**
 * The header's search over lessons and glossary: a combobox with a listbox of results (the
 * WAI-ARIA pattern: arrows move through the results, Enter opens one, Escape closes the list
 * or clears the box). The course is fetched and indexed when the box first gets focus.
 */
export function SearchBox() {
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
  if (search.isError) status = 'Search could not load the course. Try again later.';
  else if (!search.data) status = 'Loading the lessons to search…';
  else status = countLabel(hits.length);
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
        Search lessons and glossary
      </label>
      <input
        id={`${id}-input`}
        className="site-search__input"
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder="Search lessons and glossary"
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
            <ul id={listId} className="site-search__results" role="listbox" aria-label="Search results">
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
                  <span className="site-search__context">{hit.context}</span>
                  {hit.snippet ? <span className="site-search__snippet">{hit.snippet}</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="site-search__message">{status}</p>
          )}
          {missing > 0 ? (
            <p className="site-search__message">
              {missing === 1 ? 'One lesson' : `${missing} lessons`} could not be loaded and {missing === 1 ? 'is' : 'are'}{' '}
              not searched.
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
