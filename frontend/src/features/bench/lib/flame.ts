/**
 * A profile's folded stacks (`stacks` of a run's result: `comm;outer;…;inner`, weight) as the
 * tree a flame graph draws, as the difference of two profiles, and as folded text again (the
 * format FlameGraph's scripts and speedscope read). Pure: the drawing is flame-graph.tsx's.
 */
import type { FoldedStack } from '@/lib/api-schemas';

/** A frame of the tree d3-flame-graph draws: its weight includes its children's. */
export interface FlameNode {
  name: string;
  value: number;
  children: FlameNode[];
  /** A differential tree's change: the second profile's share less the first's, same units. */
  delta?: number;
  /** 'kernel' for the kernel's frames: d3-flame-graph draws them orange, the rest warm. */
  libtype?: 'kernel';
}

export const KERNEL_SUFFIX = '_[k]';
/** Two profiles are compared as shares of their own totals, in these units (parts per million). */
export const SHARE_UNITS = 1_000_000;

interface Building {
  node: FlameNode;
  byName: Map<string, Building>;
}

function child(parent: Building, name: string): Building {
  let found = parent.byName.get(name);
  if (!found) {
    const node: FlameNode = { name, value: 0, children: [] };
    if (name.endsWith(KERNEL_SUFFIX)) node.libtype = 'kernel';
    found = { node, byName: new Map() };
    parent.byName.set(name, found);
    parent.node.children.push(found.node);
  }
  return found;
}

/** Adds a stack's weight (and delta) to every frame on its path from the root. */
function add(root: Building, stack: string, value: number, delta: number): void {
  let at = root;
  at.node.value += value;
  if (delta !== 0) at.node.delta = (at.node.delta ?? 0) + delta;
  for (const frame of stack.split(';')) {
    at = child(at, frame);
    at.node.value += value;
    if (delta !== 0) at.node.delta = (at.node.delta ?? 0) + delta;
  }
}

/** Heaviest first at every level, so the graph reads the same way on every draw. */
function sorted(node: FlameNode): FlameNode {
  node.children.sort((a, b) => b.value - a.value || a.name.localeCompare(b.name));
  node.children.forEach(sorted);
  return node;
}

/** One profile's tree under a root named `rootName` ("all"). */
export function flameTree(stacks: FoldedStack[], rootName: string): FlameNode {
  const root: Building = { node: { name: rootName, value: 0, children: [] }, byName: new Map() };
  for (const { stack, weight } of stacks) add(root, stack, weight, 0);
  return sorted(root.node);
}

/** The stacks without their first frame, the command's name: two servers' (c-epoll,
 *  c-io-uring) or two builds' stacks then meet where their code does. */
function withoutCommand(stacks: FoldedStack[]): FoldedStack[] {
  return stacks.map(({ stack, weight }) => ({ stack: stack.slice(stack.indexOf(';') + 1), weight }));
}

function shares(stacks: FoldedStack[]): Map<string, number> {
  const total = stacks.reduce((sum, s) => sum + s.weight, 0) || 1;
  const byStack = new Map<string, number>();
  for (const { stack, weight } of stacks) byStack.set(stack, (byStack.get(stack) ?? 0) + (weight * SHARE_UNITS) / total);
  return byStack;
}

/**
 * The second profile drawn with each frame's change from the first (Gregg's differential flame
 * graph): widths are `after`'s shares of its own total, `delta` what each frame gained (+) or
 * lost (−) against `before`'s share. Frames only in `before` have no width here; swapping the
 * two draws them. Shares, not raw samples: two runs of different lengths compare fairly. The
 * command's name is left out, so two servers' frames meet where their code paths do; two
 * programs' different paths (epoll's calls against io_uring's) stay apart, which is what
 * `functionChanges` is for.
 */
export function differentialTree(before: FoldedStack[], after: FoldedStack[], rootName: string): FlameNode {
  const was = shares(withoutCommand(before));
  const now = shares(withoutCommand(after));
  const root: Building = { node: { name: rootName, value: 0, children: [] }, byName: new Map() };
  for (const [stack, share] of now) add(root, stack, Math.round(share), Math.round(share - (was.get(stack) ?? 0)));
  // What vanished still shrinks its ancestors that remain.
  for (const [stack, share] of was) {
    if (now.has(stack)) continue;
    const frames = stack.split(';');
    let at: Building | undefined = root;
    at.node.delta = (at.node.delta ?? 0) - Math.round(share);
    for (const frame of frames) {
      at = at.byName.get(frame);
      if (!at) break;
      at.node.delta = (at.node.delta ?? 0) - Math.round(share);
    }
  }
  return sorted(root.node);
}

/** The stacks as folded text, one `stack weight` line each: what flamegraph.pl reads. */
export function foldedText(stacks: FoldedStack[]): string {
  return stacks.map(({ stack, weight }) => `${stack} ${weight}`).join('\n') + '\n';
}

/** Whether a frame is the kernel's (perf's `_[k]`), and its name without the mark. */
export function frameName(name: string): { name: string; kernel: boolean } {
  return name.endsWith(KERNEL_SUFFIX)
    ? { name: name.slice(0, -KERNEL_SUFFIX.length), kernel: true }
    : { name, kernel: false };
}

/** Whether a run or series asked for call stacks (a flame graph), not counts or nothing. */
export function isStackProfile(profile: string | null | undefined): boolean {
  return profile === 'cpu' || profile === 'offcpu';
}

/** One function's share of two profiles, wherever it was called from. */
export interface FunctionChange {
  name: string;
  before: number;
  after: number;
  /** `after` less `before`, in shares of each profile's whole (0.05: five points more). */
  change: number;
}

/** Each function's inclusive share: of the weight of the stacks it is on (once per stack). */
function functionShares(stacks: FoldedStack[]): Map<string, number> {
  const total = stacks.reduce((sum, s) => sum + s.weight, 0) || 1;
  const byName = new Map<string, number>();
  for (const { stack, weight } of withoutCommand(stacks)) {
    for (const name of new Set(stack.split(';'))) byName.set(name, (byName.get(name) ?? 0) + weight / total);
  }
  return byName;
}

/**
 * The functions whose share of the time changed most between two profiles, by name whatever
 * called them: where two programs' stacks differ below a shared function (both servers send
 * through `tcp_sendmsg`, one from `write`, the other from io_uring's worker), the flame graph
 * keeps them apart and this does not. Largest change first.
 */
export function functionChanges(before: FoldedStack[], after: FoldedStack[], most: number): FunctionChange[] {
  const was = functionShares(before);
  const now = functionShares(after);
  const names = new Set([...was.keys(), ...now.keys()]);
  return [...names]
    .map((name) => {
      const [b, a] = [was.get(name) ?? 0, now.get(name) ?? 0];
      return { name, before: b, after: a, change: a - b };
    })
    .sort((x, y) => Math.abs(y.change) - Math.abs(x.change) || x.name.localeCompare(y.name))
    .slice(0, most);
}
