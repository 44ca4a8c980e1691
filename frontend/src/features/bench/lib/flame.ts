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
const SHARE_UNITS = 1_000_000;

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
 * two draws them. Shares, not raw samples: two runs of different lengths compare fairly.
 */
export function differentialTree(before: FoldedStack[], after: FoldedStack[], rootName: string): FlameNode {
  const was = shares(before);
  const now = shares(after);
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
