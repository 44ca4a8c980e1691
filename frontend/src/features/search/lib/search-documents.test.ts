import { describe, expect, it } from 'vitest';

import { glossaryDocuments, lessonDocuments } from './search-documents';

const markdown = `A hook first: **ten thousand** clients.

## Why \`select()\` stops at 1024

The \`fd_set\` is a [fixed bitmap](https://man7.org).

\`\`\`experiment
title: a block nobody reads as prose
\`\`\`

### Level-triggered

Ready until drained.

<details class="speaker-notes">

Say this to the room only.

</details>

#### A small heading

Still the same section.

1. Is it drained?

   <details><summary>Answer</summary>

   Yes.

   </details>
`;

describe('lessonDocuments', () => {
  const docs = lessonDocuments({ slug: '04-select', title: 'select and poll', summary: 'Two old calls.', order: 4, markdown });

  it('makes the opening one document and each ## or ### section another, linked by heading id', () => {
    expect(docs.map((d) => [d.kind, d.title, d.href])).toEqual([
      ['lesson', 'select and poll', '/lessons/04-select'],
      ['section', 'Why select() stops at 1024', '/lessons/04-select#why-select-stops-at-1024'],
      ['section', 'Level-triggered', '/lessons/04-select#level-triggered'],
    ]);
    const lesson4 = { in: 'lesson', order: 4, title: 'select and poll' };
    expect(docs.map((d) => d.place)).toEqual([lesson4, lesson4, lesson4]);
  });

  it('keeps the summary and prose (with inline code and link text) and drops blocks and notes', () => {
    expect(docs[0]!.text).toBe('Two old calls. A hook first: ten thousand clients.');
    expect(docs[1]!.text).toBe('The fd_set is a fixed bitmap.');
    expect(docs[2]!.text).toBe('Ready until drained. A small heading Still the same section. Is it drained? Yes.');
    expect(docs.map((d) => d.text).join(' ')).not.toMatch(/nobody reads|to the room/);
  });
});

describe('glossaryDocuments', () => {
  it('makes each ### term a document linking its glossary entry', () => {
    const docs = glossaryDocuments({
      markdown: `Terms in order.\n\n## A–C\n\n### Backpressure\n\nSlowing a fast sender. [Lesson 5](lessons/05-epoll.md).\n\n### CQ / CQE\n\nThe completion queue.\n`,
    });
    expect(docs).toEqual([
      {
        id: 'glossary#backpressure',
        kind: 'term',
        title: 'Backpressure',
        place: { in: 'glossary' },
        text: 'Slowing a fast sender. Lesson 5.',
        href: '/glossary#backpressure',
      },
      {
        id: 'glossary#cq-cqe',
        kind: 'term',
        title: 'CQ / CQE',
        place: { in: 'glossary' },
        text: 'The completion queue.',
        href: '/glossary#cq-cqe',
      },
    ]);
  });
});
