import { glossaryEntry } from './glossary-entry';

const markdown = `Terms are in alphabetical order.

## A–C

### Accept queue

The listening socket's queue of connections, \`accept()\` sleeps while it is empty.
[Lesson 0](lessons/00-before-you-start.md).

Another paragraph.

### Backpressure

Slowing the sender.

## D–F

### 就绪队列

内核的就绪列表。
`;

describe('glossaryEntry', () => {
  it('finds a term by its anchor and keeps its text up to the next heading', () => {
    expect(glossaryEntry(markdown, 'accept-queue')).toEqual({
      term: 'Accept queue',
      body: "The listening socket's queue of connections, `accept()` sleeps while it is empty.\n[Lesson 0](lessons/00-before-you-start.md).\n\nAnother paragraph.",
    });
    expect(glossaryEntry(markdown, 'backpressure')).toEqual({ term: 'Backpressure', body: 'Slowing the sender.' });
  });

  it('finds a Chinese term, and nothing for an anchor that is no term or a section', () => {
    expect(glossaryEntry(markdown, '就绪队列')?.body).toBe('内核的就绪列表。');
    expect(glossaryEntry(markdown, 'no-such-term')).toBeNull();
    expect(glossaryEntry(markdown, 'a-c')).toBeNull();
  });
});
