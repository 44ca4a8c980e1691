import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';

import { HASH_TARGET, useScrollToHash } from './use-scroll-to-hash';

function Page({ later }: { later: boolean }) {
  useScrollToHash();
  const [shown, setShown] = useState(!later);
  return (
    <>
      <button
        onClick={() => {
          setShown(true);
        }}
      >
        load
      </button>
      {shown ? <h2 id="edge-triggered">Edge-triggered</h2> : null}
    </>
  );
}

describe('useScrollToHash', () => {
  const scrollIntoView = vi.fn();
  beforeEach(() => {
    scrollIntoView.mockReset();
    Element.prototype.scrollIntoView = scrollIntoView;
  });

  it('scrolls to the element the hash names once the page draws it', async () => {
    const { getByRole } = render(
      <MemoryRouter initialEntries={['/lessons/05-epoll#edge-triggered']}>
        <Page later />
      </MemoryRouter>,
    );
    expect(scrollIntoView).not.toHaveBeenCalled();
    await act(async () => {
      getByRole('button').click();
      await Promise.resolve();
    });
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('edge-triggered'));
    // …and marks it, for the eye to land on.
    expect(document.getElementById('edge-triggered')).toHaveAttribute(HASH_TARGET);
  });

  it('scrolls at once when it is already there, and not at all without a hash', () => {
    render(
      <MemoryRouter initialEntries={['/glossary#edge-triggered']}>
        <Page later={false} />
      </MemoryRouter>,
    );
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    scrollIntoView.mockReset();
    render(
      <MemoryRouter initialEntries={['/glossary']}>
        <Page later={false} />
      </MemoryRouter>,
    );
    expect(scrollIntoView).not.toHaveBeenCalled();
  });
});
