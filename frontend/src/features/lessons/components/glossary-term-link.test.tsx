import { act, createEvent, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { renderWithProviders } from '@/testing/render';

import { GlossaryMarkdownContext } from '../lib/glossary-entry';

import { GlossaryTermLink } from './glossary-term-link';

const glossary =
  "## A–C\n\n### Accept queue\n\nThe listening socket's queue; `accept()` sleeps while it is empty.\n\n### Backpressure\n\nSlowing the sender.\n";

function renderTerm() {
  renderWithProviders(
    <GlossaryMarkdownContext value={glossary}>
      <p>
        The <GlossaryTermLink anchor="accept-queue" className="glossary-link">accept queue</GlossaryTermLink> fills up.
      </p>
    </GlossaryMarkdownContext>,
  );
  return screen.getByRole('link', { name: 'accept queue' });
}

describe('GlossaryTermLink', () => {
  it('links the glossary entry and previews it on focus, in words, until Escape', async () => {
    const link = renderTerm();
    expect(link).toHaveAttribute('href', '/glossary#accept-queue');
    act(() => {
      link.focus();
    });
    const preview = await screen.findByRole('tooltip');
    expect(preview).toHaveTextContent('Accept queue');
    expect(preview).toHaveTextContent('sleeps while it is empty');
    expect(preview).not.toHaveTextContent('Backpressure');
    expect(link).toHaveAttribute('aria-describedby', preview.id);
    expect(screen.getByRole('link', { name: 'Open in the glossary →' })).toHaveAttribute('href', '/glossary#accept-queue');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    });
  });

  it('shows the entry on a first tap on a touch screen instead of leaving the lesson', async () => {
    const link = renderTerm();
    // jsdom's pointer events carry no pointerType: given one, as a touch screen's has.
    const touch = createEvent.pointerDown(link);
    Object.defineProperty(touch, 'pointerType', { value: 'touch' });
    fireEvent(link, touch);
    const tap = fireEvent.click(link);
    await waitFor(() => {
      expect(screen.getByRole('tooltip')).toHaveTextContent('Accept queue');
    });
    expect(tap).toBe(false); // the navigation was held back
  });
});
