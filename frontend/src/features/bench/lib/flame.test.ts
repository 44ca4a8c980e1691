import { describe, expect, it } from 'vitest';

import { differentialTree, flameTree, foldedText, frameName, functionChanges, type FlameNode } from './flame';

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
    expect(find(tree, ['main', 'epoll_wait'])).toMatchObject({ value: 250_000, delta: -250_000 });
    expect(find(tree, ['main', 'io_uring_enter'])).toMatchObject({ value: 750_000, delta: 750_000 });
    // read is gone: not drawn, but main (still drawn) lost it
    expect(find(tree, ['main', 'read'])).toBeUndefined();
    expect(find(tree, ['main'])?.delta ?? 0).toBe(0);
  });

  it('finds no change between a profile and itself', () => {
    const tree = differentialTree(STACKS, STACKS, 'all');
    expect(tree.delta ?? 0).toBe(0);
    expect(find(tree, ['main', 'loop_send'])?.delta ?? 0).toBe(0);
  });

  it('lets two servers meet where their code does, not apart under their names', () => {
    const tree = differentialTree([{ stack: 'c-epoll;main;tcp_[k]', weight: 1 }], [{ stack: 'c-io-uring;main;tcp_[k]', weight: 1 }], 'all');
    expect(find(tree, ['main', 'tcp_[k]'])).toMatchObject({ value: 1_000_000 });
    expect(find(tree, ['main', 'tcp_[k]'])?.delta ?? 0).toBe(0);
  });
});

describe('functionChanges', () => {
  it('compares each function by its share wherever it was called from, largest change first', () => {
    const before = [
      { stack: 'a;main;write;tcp_sendmsg_[k]', weight: 60 },
      { stack: 'a;main;epoll_wait', weight: 40 },
    ];
    const after = [
      { stack: 'b;worker;io_uring_enter;io_send_[k];tcp_sendmsg_[k]', weight: 60 },
      { stack: 'b;worker;io_uring_enter', weight: 40 },
    ];
    const changes = functionChanges(before, after, 3);
    expect(changes.map((c) => c.name)).toEqual(['io_uring_enter', 'main', 'worker']);
    expect(changes[0]).toEqual({ name: 'io_uring_enter', before: 0, after: 1, change: 1 });
    const all = functionChanges(before, after, 20);
    expect(all.find((c) => c.name === 'tcp_sendmsg_[k]')).toEqual({ name: 'tcp_sendmsg_[k]', before: 0.6, after: 0.6, change: 0 });
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
