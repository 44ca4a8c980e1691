/**
 * An interactive flame graph of one profile, or of the difference between two (d3-flame-graph,
 * drawn as SVG): click a frame to zoom into it, search by name, hover for a frame's share of
 * the time. Loaded on its own (React.lazy) with the first profile a page shows, so no other
 * page pays for d3.
 */
import './flame-graph.css';

import flamegraph, { colorMapper, type FlameGraph, type FlameGraphNode } from 'd3-flame-graph';
import { select } from 'd3-selection';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { formatPercent } from '@/lib/format';

import { frameName, type FlameNode } from '../../lib/flame';

export interface FlameGraphProps {
  tree: FlameNode;
  /** Colour each frame by its `delta`: red grew, blue shrank (a differential flame graph). */
  differential?: boolean;
  /** A frame's tooltip: its name and its share of the whole, in the reader's words. */
  describe: (name: string, share: number, delta: number | undefined) => string;
  /** Told the drawn SVG once it exists (for exporting it), and null when it goes. */
  onSvg?: (svg: SVGSVGElement | null) => void;
}

const CELL_HEIGHT = 18;
// Off the top when hovering a frame, or a search's total; kept short for the details line.
const WIDTH_FALLBACK = 800;

type Node = FlameGraphNode<FlameNode>;

function nameOf(node: Node): string {
  return frameName(node.data.name).name;
}

export default function FlameGraphView({ tree, differential = false, describe, onSvg }: FlameGraphProps) {
  const { t } = useTranslation('bench');
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<FlameGraph<FlameNode> | null>(null);
  const [term, setTerm] = useState('');
  const [details, setDetails] = useState<string | null>(null);

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const total = tree.value || 1;
    const drawn = flamegraph<FlameNode>()
      .width(element.clientWidth || WIDTH_FALLBACK)
      .cellHeight(CELL_HEIGHT)
      .minFrameSize(1)
      .transitionDuration(200)
      .sort(false)
      .getName(nameOf)
      .setLabelHandler((node) => describe(nameOf(node), node.value / total, node.data.delta))
      .setSearchMatch((node, text) => Boolean(text) && nameOf(node).toLowerCase().includes(text.toLowerCase()))
      .setSearchHandler((_, sum, whole) => {
        setDetails(t('profile.searchFound', { share: formatPercent((100 * sum) / (whole || 1)) }));
      })
      .setDetailsHandler((text) => {
        setDetails(text);
      });
    // Kernel frames orange and the rest warm (their `libtype`), as in Gregg's flame graphs;
    // a difference red where a frame grew and blue where it shrank.
    if (differential) drawn.setColorMapper(colorMapper.differentialColorMapper);
    select(element).datum(tree).call(drawn);
    chart.current = drawn;
    onSvg?.(element.querySelector('svg'));
    // jsdom has no ResizeObserver; every browser the course supports has.
    const resized =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            if (element.clientWidth > 0) drawn.width(element.clientWidth).update();
          });
    resized?.observe(element);
    return () => {
      resized?.disconnect();
      drawn.destroy();
      chart.current = null;
      onSvg?.(null);
    };
  }, [tree, differential, describe, onSvg, t]);

  function search(text: string): void {
    setTerm(text);
    if (text.trim()) chart.current?.search(text.trim());
    else chart.current?.clear();
  }

  return (
    <div className="flame-graph">
      <div className="flame-graph__tools">
        <label className="flame-graph__search">
          <span>{t('profile.search')}</span>
          <input
            type="search"
            value={term}
            placeholder={t('profile.searchPlaceholder')}
            onChange={(event) => {
              search(event.target.value);
            }}
          />
        </label>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => {
            chart.current?.resetZoom();
          }}
        >
          {t('profile.resetZoom')}
        </button>
      </div>
      <div ref={holder} className="flame-graph__chart" data-testid="flame-graph" />
      <p className="flame-graph__details" aria-live="polite">
        {details ?? t('profile.hint')}
      </p>
    </div>
  );
}
