import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';

import { aLesson, anExperiment, lessons } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { createTestQueryClient } from '@/testing/render';

import { findLessonExperiment, lessonQuery, useLessonExperiment } from './use-lesson';

const experiments = [
  anExperiment('server: c-epoll\nconnections: 100', { key: 'aaaaaaaaaaaa', title: 'epoll', run: { server: 'c-epoll', connections: 100 } }),
  anExperiment('servers: [c-poll, c-epoll]', { key: 'bbbbbbbbbbbb', sweep: { servers: ['c-poll', 'c-epoll'], vary: 'connections', values: [100] } }),
];

describe('findLessonExperiment', () => {
  it('matches a block by its trimmed text', () => {
    expect(findLessonExperiment(experiments, '\nserver: c-epoll\nconnections: 100\n\n')?.key).toBe('aaaaaaaaaaaa');
    expect(findLessonExperiment(experiments, 'servers: [c-poll, c-epoll]\n')?.key).toBe('bbbbbbbbbbbb');
  });

  it('finds nothing for a block the server does not list (edited since)', () => {
    expect(findLessonExperiment(experiments, 'server: c-epoll\nconnections: 200')).toBeUndefined();
    expect(findLessonExperiment([], 'server: c-epoll')).toBeUndefined();
  });
});

describe('useLessonExperiment', () => {
  it('reads the experiments from the lesson page’s cache entry, fetching nothing more', () => {
    const { calls } = mockFetch({});
    const client = createTestQueryClient();
    client.setQueryData(lessonQuery('01-c10k-problem', 'en').queryKey, {
      ...lessons[0]!,
      markdown: '',
      figures: [],
      prerequisites: [],
      diagrams: [],
      experiments,
      prev: null,
      next: null,
    });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useLessonExperiment('01-c10k-problem', 'server: c-epoll\nconnections: 100\n'), { wrapper });
    expect(result.current?.key).toBe('aaaaaaaaaaaa');
    expect(calls).toHaveLength(0);
  });

  it('fetches the lesson when nothing has, and asks nothing outside a lesson', async () => {
    const { calls } = mockFetch({
      'GET /api/lessons/01-c10k-problem': aLesson(experiments),
    });
    const client = createTestQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useLessonExperiment('01-c10k-problem', 'servers: [c-poll, c-epoll]'), { wrapper });
    await waitFor(() => {
      expect(result.current?.key).toBe('bbbbbbbbbbbb');
    });
    const outside = renderHook(() => useLessonExperiment(undefined, 'server: c-epoll'), { wrapper });
    expect(outside.result.current).toBeUndefined();
    expect(calls).toHaveLength(1);
  });
});
