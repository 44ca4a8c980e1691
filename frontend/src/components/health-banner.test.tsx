import { act, screen } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { healthyHealth } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { HealthBanner } from './health-banner';

describe('HealthBanner', () => {
  it('is silent when everything is ready', async () => {
    const { fetchMock } = mockFetch({ 'GET /api/health': healthyHealth });
    renderWithProviders(<HealthBanner />);
    await vi.waitFor(() => {
      expect(fetchMock).toHaveBeenCalled();
    });
    expect(screen.queryByTestId('health-banner')).not.toBeInTheDocument();
  });

  it('names missing images', async () => {
    mockFetch({ 'GET /api/health': { ...healthyHealth, images: { 'c10klab/loadgen:latest': false }, ready: false } });
    renderWithProviders(<HealthBanner />);
    expect(await screen.findByTestId('health-banner')).toHaveTextContent('not built: c10klab/loadgen:latest');
  });

  it('says when Docker is unreachable', async () => {
    mockFetch({ 'GET /api/health': { ...healthyHealth, docker: { reachable: false, version: null, error: 'no socket' }, ready: false } });
    renderWithProviders(<HealthBanner />);
    expect(await screen.findByTestId('health-banner')).toHaveTextContent('Docker is unreachable (no socket)');
  });

  it('says it in Chinese, the image tags as they are', async () => {
    mockFetch({ 'GET /api/health': { ...healthyHealth, images: { 'c10klab/loadgen:latest': false }, ready: false } });
    renderWithProviders(<HealthBanner />);
    await act(() => i18next.changeLanguage('zh'));
    expect(await screen.findByTestId('health-banner')).toHaveTextContent(
      '部分沙箱镜像尚未构建：c10klab/loadgen:latest。需要这些镜像的实验已停用。',
    );
  });
});
