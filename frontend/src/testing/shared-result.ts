/**
 * What a shown result offers a reader to take away, as a test reads it: "Share this result"
 * (the link it copies and shows) and the Markdown an export menu copies, headed by what the
 * result is (ExportAboutContext).
 */
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** Clicks "Share this result": the link copied, and the link shown beside the button. */
export async function sharedLink(user: UserEvent): Promise<{ copied: string; shown: string | null }> {
  await user.click(screen.getByRole('button', { name: 'Share this result' }));
  const copied = await navigator.clipboard.readText();
  return { copied, shown: screen.getByRole('link', { name: 'This result’s link' }).getAttribute('href') };
}

/** The Markdown the export menu named `menu` copies, once it says `awaited`: what a result is
 *  may come after its figures (a run's record, a point's provenance), each asked for once. */
export async function copiedMarkdown(user: UserEvent, menu: string, awaited: string): Promise<string> {
  const group = screen.getByRole('group', { name: menu });
  let markdown = '';
  await waitFor(async () => {
    await user.click(within(group).getByRole('button', { name: 'Copy as Markdown' }));
    markdown = await navigator.clipboard.readText();
    expect(markdown).toContain(awaited);
  });
  return markdown;
}
