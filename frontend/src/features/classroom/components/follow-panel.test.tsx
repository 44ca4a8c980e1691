import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type { RunEventFrame, Sweep } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { aPresentation } from '@/testing/classroom-fixtures';
import { aSweep } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';

import { presentationSchema, type Presentation } from '../lib/classroom-schemas';

import { FollowPanel } from './follow-panel';

const frames: RunEventFrame[] = [{ type: 'queued', seq: 1, data: { position: 1, wait_s: 3, held: false } }];
const table: Sweep = aSweep({ id: 's-1', finished: false });

function renderPanel(presentation: Presentation | null, sweep: Sweep | null = null) {
  const renderRun = vi.fn((runId: string, given: RunEventFrame[]) => <p data-testid="run-body">{`${runId}: ${given.length} events`}</p>);
  const renderSweep = vi.fn((s: Sweep) => <p data-testid="sweep-body">{s.id}</p>);
  const view = renderWithProviders(
    <FollowPanel presentation={presentation} runFrames={frames} sweep={sweep} renderRun={renderRun} renderSweep={renderSweep} />,
  );
  const rerender = (next: Presentation | null, nextSweep: Sweep | null = sweep) => {
    view.rerender(
      <FollowPanel presentation={next} runFrames={frames} sweep={nextSweep} renderRun={renderRun} renderSweep={renderSweep} />,
    );
  };
  return { rerender, renderRun, renderSweep };
}

const present = (overrides: Record<string, unknown> = {}) => presentationSchema.parse(aPresentation(overrides));

describe('FollowPanel', () => {
  it('is closed while nothing is presented, and opens with a presented run', () => {
    const { rerender, renderRun } = renderPanel(null);
    expect(screen.queryByTestId('follow-panel')).not.toBeInTheDocument();
    rerender(present());
    const panel = screen.getByRole('complementary', { name: 'Presented to the class' });
    expect(within(panel).getByTestId('follow-title')).toHaveTextContent('epoll at 100 connections');
    expect(within(panel).getByTestId('follow-who')).toHaveTextContent('Presented by your instructor');
    expect(within(panel).getByRole('link', { name: 'Open the lesson: The C10K problem' })).toHaveAttribute(
      'href',
      '/lessons/01-c10k-problem',
    );
    expect(within(panel).getByTestId('run-body')).toHaveTextContent('r-9: 1 events');
    // Drawn titled as presented: the run's exports carry the title.
    expect(renderRun).toHaveBeenLastCalledWith('r-9', frames, 'epoll at 100 connections');
    rerender(null);
    expect(screen.queryByTestId('follow-panel')).not.toBeInTheDocument();
  });

  it('names the student in the spotlight, and draws a presented sweep once its table comes', () => {
    const sweepShown = present({ run_id: null, sweep_id: 's-1', spotlight: { id: 'p-ada', name: 'Ada' } });
    const { rerender, renderSweep } = renderPanel(sweepShown);
    expect(screen.getByTestId('follow-who')).toHaveTextContent('Spotlight: Ada');
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for the series’ table…');
    rerender(sweepShown, table);
    expect(screen.getByTestId('sweep-body')).toHaveTextContent('s-1');
    expect(renderSweep).toHaveBeenLastCalledWith(table, 'epoll at 100 connections');
  });

  it('speaks Chinese, the presented titles in Chinese', async () => {
    await act(() => i18next.changeLanguage('zh'));
    const { renderRun } = renderPanel(present({ spotlight: { id: 'p-ada', name: 'Ada' } }));
    const panel = screen.getByRole('complementary', { name: '向全班展示的内容' });
    expect(within(panel).getByTestId('follow-title')).toHaveTextContent('epoll：100 个连接');
    expect(renderRun).toHaveBeenLastCalledWith('r-9', frames, 'epoll：100 个连接'); // its exports' title too
    expect(within(panel).getByTestId('follow-who')).toHaveTextContent('聚焦：Ada');
    expect(within(panel).getByRole('link', { name: '打开这节课：C10K 问题' })).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: '收起' }));
    expect(within(panel).getByRole('button', { name: '展开' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('minimises, and opens again on the next presentation', async () => {
    const first = present();
    const { rerender } = renderPanel(first);
    await userEvent.click(screen.getByRole('button', { name: 'Minimise' }));
    expect(screen.queryByTestId('follow-body')).not.toBeInTheDocument();
    expect(screen.getByTestId('follow-panel')).toHaveClass('follow-panel--minimised');
    // The same presentation sent again (a reconnect) leaves it minimised…
    rerender({ ...first });
    expect(screen.queryByTestId('follow-body')).not.toBeInTheDocument();
    // …a new one opens it.
    rerender(present({ run_id: 'r-10', started_at: '2026-11-24T09:50:00+00:00' }));
    expect(screen.getByTestId('follow-body')).toBeInTheDocument();
    expect(screen.getByTestId('follow-panel')).toHaveClass('follow-panel--open');
    await userEvent.click(screen.getByRole('button', { name: 'Minimise' }));
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByTestId('follow-body')).toBeInTheDocument();
  });

  it('draws the recorded reference of an experiment presented before its run', () => {
    const renderReference = vi.fn((lesson: string, experiment: string) => <p data-testid="reference-body">{`${lesson} ${experiment}`}</p>);
    renderWithProviders(
      <FollowPanel
        presentation={present({ run_id: null, experiment: 'abc123' })}
        runFrames={[]}
        sweep={null}
        renderRun={vi.fn()}
        renderSweep={vi.fn()}
        renderReference={renderReference}
      />,
    );
    expect(screen.getByTestId('follow-body')).toHaveTextContent('Not run yet: here is the recorded reference.');
    expect(screen.getByTestId('reference-body')).toHaveTextContent('01-c10k-problem abc123');
  });

  it('points to the lesson when only a lesson is presented', () => {
    renderPanel(present({ experiment: null, title: 'The C10K problem', titles: { en: 'The C10K problem' }, run_id: null }));
    expect(screen.getByTestId('follow-title')).toHaveTextContent('The C10K problem');
    expect(screen.getByTestId('follow-body')).toHaveTextContent('open it to follow along');
  });
});
