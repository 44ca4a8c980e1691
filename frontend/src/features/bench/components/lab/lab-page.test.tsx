import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';

import type { Server } from '@/lib/api-schemas';
import { i18next } from '@/lib/i18n';
import { healthyHealth, labFields, servers } from '@/testing/fixtures';
import { mockFetch, reply } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { LabPage } from './lab-page';


// select() watches descriptors below FD_SETSIZE only: the catalog's ceiling for it.
const [epoll] = servers;
const cSelect: Server = {
  ...epoll!,
  id: 'c-select',
  title: 'select() event loop',
  knobs: epoll!.knobs.filter((k) => k.name === 'buffer_bytes'),
  limits: { ...epoll!.limits, max_connections: 1018 },
};

function api() {
  return mockFetch({
    'GET /api/health': healthyHealth,
    'GET /api/servers': [...servers, cSelect],
    'GET /api/lab/fields': labFields,
    'POST /api/runs': reply(202, { id: 'r1', status: 'queued', position: 1, wait_s: 0 }),
    'POST /api/sweeps': reply(202, { id: 's1', points: 2, skipped: 0 }),
  });
}

/** The lab with the URL's search shown, so a test can see the setup kept there. */
function renderLab(route: string) {
  function Search() {
    return <output data-testid="search">{useLocation().search}</output>;
  }
  return renderWithProviders(
    <Routes>
      <Route
        path="/lab"
        element={
          <>
            <LabPage />
            <Search />
          </>
        }
      />
    </Routes>,
    { route },
  );
}

describe('LabPage', () => {
  it('links each chosen C server to its editor', async () => {
    api();
    renderLab('/lab?servers=c-epoll');
    const picker = await screen.findByTestId('lab-servers');
    await within(picker).findByRole('checkbox', { name: /c-poll/ });
    expect(within(picker).getByRole('link', { name: 'Edit c-epoll' })).toHaveAttribute('href', '/edit/c-epoll');
    expect(within(picker).queryByRole('link', { name: 'Edit c-poll' })).toBeNull();
    await userEvent.click(within(picker).getByRole('checkbox', { name: /c-poll/ }));
    expect(await within(picker).findByRole('link', { name: 'Edit c-poll' })).toHaveAttribute('href', '/edit/c-poll');
  });

  it('labels every field with its unit, range and help, and knobs by server', async () => {
    api();
    renderLab('/lab?servers=c-epoll');
    const connections = await screen.findByLabelText('Connections');
    expect(connections).toHaveValue(100);
    // Said in the interface's words (the same as the API's in English), bounds from the API.
    expect(connections).toHaveAccessibleDescription('active connections, one request in flight (1–19000 connections)');
    const knobs = screen.getByTestId('lab-knobs-c-epoll');
    expect(within(knobs).getByLabelText('Read buffer')).toHaveValue(16384);
    expect(screen.getByTestId('lab-plan')).toHaveTextContent('One run, about 12 s of load');
  });

  it('keeps a changed knob in the URL and sends it with the run', async () => {
    const { calls } = api();
    renderLab('/lab?servers=c-epoll');
    const trigger = await screen.findByLabelText('Readiness trigger');
    await userEvent.selectOptions(trigger, 'et');
    await waitFor(() => {
      expect(screen.getByTestId('search')).toHaveTextContent('knob.c-epoll.trigger=et');
    });
    const run = screen.getByRole('button', { name: 'Run benchmark' });
    await waitFor(() => {
      expect(run).toBeEnabled();
    });
    await userEvent.click(run);
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ server: 'c-epoll', knobs: { trigger: 'et' } });
    });
  });

  it('compares two servers as one sweep', async () => {
    const { calls } = api();
    renderLab('/lab?servers=c-epoll&connections=500');
    await userEvent.click(await screen.findByRole('checkbox', { name: /c-poll/ }));
    expect(screen.getByTestId('lab-plan')).toHaveTextContent('2 runs, one sweep');
    const run = screen.getByRole('button', { name: 'Run 2 benchmarks' });
    await waitFor(() => {
      expect(run).toBeEnabled();
    });
    await userEvent.click(run);
    await waitFor(() => {
      expect(calls.find((c) => c.method === 'POST' && c.path === '/api/sweeps')?.body).toEqual({
        servers: ['c-epoll', 'c-poll'],
        vary: 'connections',
        values: [500],
        base: {},
      });
    });
  });

  it('shows Run from the start, disabled with its reason, and nothing red before any input', async () => {
    api();
    renderLab('/lab');
    const run = await screen.findByRole('button', { name: 'Run benchmark' });
    expect(run).toBeDisabled();
    expect(run).toHaveAccessibleDescription('Tick a server to run');
    expect(screen.queryAllByTestId('lab-field-problem')).toEqual([]);
    expect(document.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
    await userEvent.click(screen.getByRole('checkbox', { name: /c-poll/ }));
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Run benchmark' })).toBeEnabled();
    });
  });

  it('says each problem beside its field, and the first as Run’s reason', async () => {
    api();
    renderLab('/lab?servers=c-epoll&connections=20000&duration_s=0');
    const connections = await screen.findByLabelText('Connections');
    expect(connections).toHaveAttribute('aria-invalid', 'true');
    expect(connections).toHaveAccessibleDescription(/Connections may be at most 19000 connections here/);
    expect(screen.getByLabelText('Duration')).toHaveAccessibleDescription(/Duration must be more than 0 s/);
    const run = screen.getByRole('button', { name: 'Run benchmark' });
    expect(run).toBeDisabled();
    expect(run).toHaveAccessibleDescription('Connections may be at most 19000 connections here (and 1 more thing to fix, marked in the form)');
  });

  it('checks connections and idle connections together before Run, in the learner’s words', async () => {
    api();
    renderLab('/lab?servers=c-epoll&connections=10000');
    const idle = await screen.findByLabelText('Idle connections');
    await userEvent.clear(idle);
    await userEvent.type(idle, '9500');
    const said = 'Connections plus Idle connections may be at most 19000 connections here (now 19500)';
    expect(screen.getByLabelText('Idle connections')).toHaveAccessibleDescription(new RegExp(said.replace(/[()]/g, '\\$&')));
    expect(screen.getByRole('button', { name: 'Run benchmark' })).toHaveAccessibleDescription(said);
    // Never the API's field name.
    expect(screen.getByTestId('lab-blocked')).not.toHaveTextContent('idle_connections');
  });

  it('holds c-select to its descriptor ceiling, and skips only its points in a comparison', async () => {
    api();
    renderLab('/lab?servers=c-select&connections=2000');
    const connections = await screen.findByLabelText('Connections');
    expect(connections).toHaveAccessibleDescription(/c-select can be run with at most 1018 connections here/);
    expect(screen.getByRole('button', { name: 'Run benchmark' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: /c-epoll/ }));
    expect(await screen.findByTestId('lab-field-skipped')).toHaveTextContent('c-select will be skipped: c-select can be run with at most 1018 connections here');
    expect(screen.getByLabelText('Connections')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('button', { name: 'Run 2 benchmarks' })).toBeInTheDocument();
  });

  it('shows the knobs the servers share once, and each server’s own folded away', async () => {
    api();
    renderLab('/lab?servers=c-epoll,c-select');
    const shared = await screen.findByTestId('lab-knobs-shared');
    const buffer = within(shared).getByLabelText('Read buffer');
    await userEvent.clear(buffer);
    await userEvent.type(buffer, '4096');
    await waitFor(() => {
      expect(screen.getByTestId('search')).toHaveTextContent('knob.c-epoll.buffer_bytes=4096&knob.c-select.buffer_bytes=4096');
    });
    const own = screen.getByTestId('lab-knobs-c-epoll');
    expect(own).not.toHaveAttribute('open');
    expect(within(own).getByText('(1 knob)')).toBeInTheDocument();
    expect(screen.queryByTestId('lab-knobs-c-select')).toBeNull();
    // Left the only server, its knobs are the ones to set: open.
    await userEvent.click(screen.getByRole('checkbox', { name: /c-select/ }));
    expect(await screen.findByTestId('lab-knobs-c-epoll')).toHaveAttribute('open');
  });

  it('sweeps a field over values typed with commas', async () => {
    api();
    renderLab('/lab?servers=c-epoll');
    await userEvent.selectOptions(await screen.findByLabelText('Vary'), 'connections');
    await userEvent.type(screen.getByLabelText('Values'), '10, 100, 1000');
    expect(screen.getByTestId('lab-plan')).toHaveTextContent('3 runs, one sweep');
    expect(screen.getByLabelText('Connections')).toBeDisabled();
    expect(screen.getByTestId('search')).toHaveTextContent('vary=connections&values=10%2C100%2C1000');
  });

  it('sets up, plans and refuses in Chinese once the language is switched', async () => {
    api();
    renderLab('/lab?servers=c-epoll,c-poll&duration_s=0');
    await screen.findByTestId('lab-blocked');
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(screen.getByRole('heading', { level: 1, name: '实验室' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: '服务器' })).toBeInTheDocument();
    expect(within(screen.getByTestId('lab-servers')).getByRole('link', { name: '编辑 c-epoll' })).toHaveAttribute('href', '/edit/c-epoll');
    // The field, its unit and the sentence around it all in the reader's words.
    expect(screen.getByLabelText('时长')).toHaveAccessibleDescription(/时长 必须大于 0 秒/);
    expect(screen.getByRole('button', { name: '运行基准测试' })).toHaveAccessibleDescription('时长 必须大于 0 秒');
    await userEvent.clear(screen.getByLabelText('时长'));
    await userEvent.type(screen.getByLabelText('时长'), '5');
    expect(await screen.findByTestId('lab-plan')).toHaveTextContent('2 次运行，组成一个扫描实验，开始后约施加 14 秒的负载。');
    expect(screen.getByRole('button', { name: '运行 2 次基准测试' })).toBeInTheDocument();
  });

  it('labels, helps and refuses a server’s knobs in Chinese, not in the catalog’s English', async () => {
    api();
    renderLab('/lab?servers=c-epoll&knob.c-epoll.buffer_bytes=100');
    await screen.findByTestId('lab-blocked');
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    const knobs = screen.getByTestId('lab-knobs-c-epoll');
    expect(within(knobs).getByLabelText('就绪触发方式')).toHaveAccessibleDescription(/^水平触发（就绪期间一直报告）/);
    const buffer = within(knobs).getByLabelText('读缓冲区');
    expect(buffer).toHaveAccessibleDescription('每次 read() 请求读取的字节数 (512–1048576 字节) 读缓冲区 至少为 512');
    expect(screen.getByRole('button', { name: '运行基准测试' })).toHaveAccessibleDescription('c-epoll：读缓冲区 至少为 512');
  });
});
