import { shortNote } from './short-note';

describe('shortNote', () => {
  it('has nothing to shorten in a note that fits, even over two lines', () => {
    expect(shortNote('the server refused 3 connections', 80)).toBeNull();
    expect(shortNote('invalid:\nno requests', 80)).toBeNull();
  });

  it('shows the first sentence of a long note', () => {
    const text = `the server exited with code 1 before it was ready. ${'log line\n'.repeat(40)}`;
    expect(shortNote(text, 80)).toBe('the server exited with code 1 before it was ready. …');
  });

  it('cuts a long sentence at a word', () => {
    const text = 'errors in more than one request in a hundred '.repeat(5);
    expect(shortNote(text, 60)).toBe('errors in more than one request in a hundred errors in more…');
  });

  it('ends a Chinese first sentence at its full stop, with no space after it', () => {
    const text = `无效：服务器在准备好之前以代码 1 退出。${'日志行\n'.repeat(40)}`;
    expect(shortNote(text, 80)).toBe('无效：服务器在准备好之前以代码 1 退出。 …');
  });
});

