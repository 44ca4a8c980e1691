import { describe, expect, it } from 'vitest';

import { anExportAbout } from '@/testing/fixtures';

import { layoutPicture, PICTURE, pictureSvg, textWidth, wrapText, type PictureSpec } from './chart-picture';

const about = anExportAbout([
  { label: 'Server', value: 'epoll (c-epoll)' },
  { label: 'Connections', value: '100' },
  { label: 'Payload', value: '64 B' },
  { label: 'Duration', value: '10 s' },
  { label: 'trigger', value: 'edge-triggered' },
  { label: 'CPU', value: 'AMD EPYC 7B13, 2 CPUs' },
  { label: 'Kernel', value: 'Linux 6.1.0-28-amd64, cgroup v2' },
  { label: 'Measured', value: '25 Nov 2026, 10:08 (2026-11-25T10:08:00Z)' },
]);

const spec: PictureSpec = {
  title: 'Requests per second',
  about,
  legend: [
    { label: 'c-epoll', colour: '#1f77b4' },
    { label: 'c-poll', colour: '#ff7f0e' },
  ],
  caption: 'Hollow ×: unstable — something disturbed the run while it was measured. Whiskers: 95 % interval.',
  chart: { width: PICTURE.chartWidth, height: PICTURE.chartHeight },
  width: PICTURE.width,
};

const colours = { background: '#ffffff', ink: '#374151', muted: '#5b6472' };

function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? '');
}

describe('wrapText', () => {
  it('breaks between words and keeps every line within the width', () => {
    const lines = wrapText('Whiskers: where a second run of each would land (95 %), given its host’s run-to-run spread.', 300, 15);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe('Whiskers: where a second run of each would land (95 %), given its host’s run-to-run spread.');
    for (const line of lines) expect(textWidth(line, 15)).toBeLessThanOrEqual(300);
  });

  it('breaks Chinese text, which has no spaces, anywhere', () => {
    const lines = wrapText('空心标记：不稳定，测量时有其他工作干扰了这次运行。须线：95 % 区间。', 150, 15);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line, 15)).toBeLessThanOrEqual(150);
  });

  it('cuts a word longer than the line (a link) where it must', () => {
    const link = 'http://localhost:8000/#/compare?results=run:3f2a9c,sweep:77e1b0,run:abcdef0123456789';
    const lines = wrapText(link, 200, 14);
    expect(lines.join('')).toBe(link);
    for (const line of lines) expect(textWidth(line, 14)).toBeLessThanOrEqual(200);
  });
});

describe('a chart as a picture', () => {
  it('is 1200 px wide, drawn at twice that, the chart across it inside the margins', () => {
    const layout = layoutPicture(spec);
    const chart = layout.ops.find((op) => op.kind === 'chart');
    expect(chart).toMatchObject({ x: 32, width: 1136, height: 560 });
    expect(PICTURE.ratio).toBe(2);
    expect(layout.width).toBe(1200);
    expect(layout.height).toBeGreaterThan(560 + 200);
  });

  it('says in its SVG the title, the legend, the caption, the setup, the host, the date and the link, under the chart', () => {
    const layout = layoutPicture(spec);
    const svg = pictureSvg(layout, 'data:image/png;base64,AAAA', colours, spec.title);
    const words = texts(svg).join(' ');
    expect(svg).toMatch(/^<\?xml/);
    expect(svg).toContain('<image x="32" y="');
    expect(svg).toContain('width="1136" height="560" href="data:image/png;base64,AAAA"');
    for (const part of [
      'Requests per second',
      'c-epoll run',
      'c-epoll',
      'c-poll',
      'Hollow ×: unstable',
      'Whiskers: 95 % interval.',
      'Connections: 100',
      'Payload: 64 B',
      'Duration: 10 s',
      'trigger: edge-triggered',
      'CPU: AMD EPYC 7B13, 2 CPUs',
      'Kernel: Linux 6.1.0-28-amd64, cgroup v2',
      'Measured: 25 Nov 2026, 10:08 (2026-11-25T10:08:00Z)',
      'http://localhost:8000/#/runs/3f2a',
    ]) {
      expect(words).toContain(part);
    }
    // Everything said below the chart's top edge is below the chart itself: nothing drawn over it.
    const chart = layout.ops.find((op) => op.kind === 'chart');
    const under = layout.ops.filter((op) => op.kind === 'text' && chart && op.y > chart.y);
    for (const op of under) if (chart && op.kind === 'text') expect(op.y - op.size).toBeGreaterThan(chart.y + chart.height - 1);
    // A swatch per legend entry, in its colour.
    expect(svg).toContain('fill="#1f77b4"');
    expect(svg).toContain('fill="#ff7f0e"');
  });

  it('escapes what it writes, so a label cannot break the SVG', () => {
    const svg = pictureSvg(layoutPicture({ ...spec, title: 'p99 < 1 ms & "fast"', about: null, legend: [], caption: '' }), 'x', colours, 't');
    expect(svg).toContain('p99 &lt; 1 ms &amp; &quot;fast&quot;');
    expect(new DOMParser().parseFromString(svg, 'image/svg+xml').querySelector('parsererror')).toBeNull();
  });

  it('has no about lines without an about, and no legend row without entries', () => {
    const layout = layoutPicture({ ...spec, about: null, legend: [], caption: '' });
    expect(layout.ops.flatMap((op) => (op.kind === 'text' ? [op.text] : []))).toEqual(['Requests per second']);
  });
});
