/**
 * One syntax highlighter for the whole site (lesson code blocks and `source`
 * includes): highlight.js core with only the languages the course shows, so it
 * costs a lesson page little and works offline. Those are the languages of the
 * files `GET /api/sources` quotes (backend/c10klab/sandboxes/service.py: C,
 * Rust, Python, shell, TOML, JSON) and YAML for a broken experiment block; any
 * other language is shown as plain text.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import ini from 'highlight.js/lib/languages/ini';
import json from 'highlight.js/lib/languages/json';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import yaml from 'highlight.js/lib/languages/yaml';

hljs.registerLanguage('bash', bash);
hljs.registerLanguage('c', c);
hljs.registerLanguage('ini', ini);
hljs.registerLanguage('json', json);
hljs.registerLanguage('plaintext', plaintext);
hljs.registerLanguage('python', python);
hljs.registerLanguage('rust', rust);
hljs.registerLanguage('yaml', yaml);
hljs.registerAliases(['h', 'cc'], { languageName: 'c' });
hljs.registerAliases(['rs'], { languageName: 'rust' });
hljs.registerAliases(['sh', 'shell', 'console'], { languageName: 'bash' });
hljs.registerAliases(['toml'], { languageName: 'ini' });
hljs.registerAliases(['text', 'txt', 'mermaid'], { languageName: 'plaintext' });

/** Guess a highlight.js language from a file path (used when the API gives none). */
export function languageFromPath(path: string): string {
  const name = path.split('/').pop() ?? '';
  const ext = name.includes('.') ? name.split('.').pop()?.toLowerCase() : undefined;
  switch (ext) {
    case 'c':
    case 'h':
      return 'c';
    case 'rs':
      return 'rust';
    case 'py':
      return 'python';
    case 'sh':
      return 'bash';
    case 'toml':
      return 'ini';
    case 'yml':
    case 'yaml':
      return 'yaml';
    case 'json':
      return 'json';
    default:
      return 'plaintext';
  }
}

/**
 * Returns highlighted HTML (already escaped by highlight.js) or null when the
 * language is unknown, in which case the caller renders plain text.
 */
export function highlightToHtml(code: string, language: string | undefined): string | null {
  if (!language || !hljs.getLanguage(language)) return null;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
