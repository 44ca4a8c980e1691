import { describe, expect, it } from 'vitest';

import { differentialTree, flameTree, foldedText, frameName, type FlameNode } from './flame';

const STACKS = [
  { stack: 'c-epoll;main;epoll_wait;do_epoll_wait_[k]', weight: 3 },
  { stack: 'c-epoll;main;loop_send;write;tcp_sendmsg_[k]', weight: 5 },
  { stack: 'c-epoll;main;epoll_wait', weight: 2 },
];

function find(node: FlameNode, path: string[]): FlameNode | undefined {
  let at: FlameNode | undefined = node;
  for (const name of path) at = at?.children.find((c) => c.name === name);
  return at;
}

describe('flameTree', () => {
  it('adds each stack to every frame on its path, heaviest child first', () => {
    const tree = flameTree(STACKS, 'all');
    expect(tree.value).toBe(10);
    expect(find(tree, ['c-epoll', 'main'])?.value).toBe(10);
    expect(find(tree, ['c-epoll', 'main'])?.children.map((c) => [c.name, c.value])).toEqual([
      ['epoll_wait', 5],
      ['loop_send', 5],
    ]);
    expect(find(tree, ['c-epoll', 'main', 'epoll_wait', 'do_epoll_wait_[k]'])?.value).toBe(3);
  });
});

describe('differentialTree', () => {
  it('draws the second profile with what each frame gained or lost as shares of each total', () => {
    const before = [
      { stack: 'srv;main;epoll_wait', weight: 50 },
      { stack: 'srv;main;read', weight: 50 },
    ];
    // twice the samples (a longer run), a quarter of them in epoll_wait: it shrank by a half
    const after = [
      { stack: 'srv;main;epoll_wait', weight: 50 },
      { stack: 'srv;main;io_uring_enter', weight: 150 },
    ];
    const tree = differentialTree(before, after, 'all');
    expect(find(tree, ['srv', 'main', 'epoll_wait'])).toMatchObject({ value: 250_000, delta: -250_000 });
    expect(find(tree, ['srv', 'main', 'io_uring_enter'])).toMatchObject({ value: 750_000, delta: 750_000 });
    // read is gone: not drawn, but main (still drawn) lost it
    expect(find(tree, ['srv', 'main', 'read'])).toBeUndefined();
    expect(find(tree, ['srv', 'main'])?.delta ?? 0).toBe(0);
  });

  it('finds no change between a profile and itself', () => {
    const tree = differentialTree(STACKS, STACKS, 'all');
    expect(tree.delta ?? 0).toBe(0);
    expect(find(tree, ['c-epoll', 'main', 'loop_send'])?.delta ?? 0).toBe(0);
  });
});

describe('folded text and frame names', () => {
  it('writes what flamegraph.pl reads', () => {
    expect(foldedText(STACKS.slice(0, 2))).toBe(
      'c-epoll;main;epoll_wait;do_epoll_wait_[k] 3\nc-epoll;main;loop_send;write;tcp_sendmsg_[k] 5\n',
    );
  });

  it('tells a kernel frame by its mark', () => {
    expect(frameName('tcp_ack_[k]')).toEqual({ name: 'tcp_ack', kernel: true });
    expect(frameName('loop_send')).toEqual({ name: 'loop_send', kernel: false });
  });
});
