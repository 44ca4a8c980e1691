/** The part of d3-flame-graph (which ships no types) that flame-graph.tsx uses. */
declare module 'd3-flame-graph' {
  import type { Selection } from 'd3-selection';

  /** A node as d3-hierarchy lays it out: the data given, its place, its weight. */
  export interface FlameGraphNode<Data> {
    data: Data;
    value: number;
    x0: number;
    x1: number;
    depth: number;
  }

  export interface FlameGraph<Data> {
    (selection: Selection<HTMLDivElement, Data, null, undefined>): void;
    width(width: number): FlameGraph<Data>;
    cellHeight(height: number): FlameGraph<Data>;
    minFrameSize(pixels: number): FlameGraph<Data>;
    transitionDuration(ms: number): FlameGraph<Data>;
    sort(sort: boolean): FlameGraph<Data>;
    inverted(inverted: boolean): FlameGraph<Data>;
    selfValue(self: boolean): FlameGraph<Data>;
    getName(get: (node: FlameGraphNode<Data>) => string): FlameGraph<Data>;
    setLabelHandler(label: (node: FlameGraphNode<Data>) => string): FlameGraph<Data>;
    setColorMapper(color: (node: FlameGraphNode<Data>, original: string) => string): FlameGraph<Data>;
    setSearchMatch(match: (node: FlameGraphNode<Data>, term: string) => boolean): FlameGraph<Data>;
    setSearchHandler(handle: (results: FlameGraphNode<Data>[], sum: number, total: number) => void): FlameGraph<Data>;
    setDetailsHandler(handle: (text: string | null) => void): FlameGraph<Data>;
    search(term: string): void;
    clear(): void;
    resetZoom(): void;
    update(data?: Data): FlameGraph<Data>;
    destroy(): FlameGraph<Data>;
  }

  export default function flamegraph<Data>(): FlameGraph<Data>;

  export const colorMapper: {
    differentialColorMapper: (node: FlameGraphNode<unknown>, original: string) => string;
    offCpuColorMapper: (node: FlameGraphNode<unknown>, original: string) => string;
  };
}
