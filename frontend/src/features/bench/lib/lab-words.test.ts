import { i18next } from '@/lib/i18n';
import { labFields } from '@/testing/fixtures';

import { wordLabFields } from './lab-words';

beforeAll(async () => {
  await i18next.loadLanguages('zh');
  await i18next.loadNamespaces('bench');
});

const byName = (fields: ReturnType<typeof wordLabFields>, name: string) => fields.fields.find((f) => f.name === name);

describe('wordLabFields', () => {
  it('says each field in the reader’s language, its bounds and kind as the API sent them', () => {
    const zh = wordLabFields(labFields as Parameters<typeof wordLabFields>[0], i18next.getFixedT('zh', 'bench'));
    expect(byName(zh, 'idle_connections')).toMatchObject({ label: '空闲连接数', units: '个连接', max: 18999, kind: 'int' });
    expect(byName(zh, 'duration_s')).toMatchObject({ label: '时长', unit: '秒', help: '测量的秒数' });
    const en = wordLabFields(labFields as Parameters<typeof wordLabFields>[0], i18next.getFixedT('en', 'bench'));
    expect(byName(en, 'idle_connections')).toMatchObject({ label: 'Idle connections', units: 'connections' });
  });

  it('keeps the API’s words for a field the interface does not know', () => {
    const api = { ...(labFields as Parameters<typeof wordLabFields>[0]) };
    const unknown = { ...api.fields[0]!, name: 'jitter_ms', label: 'Jitter', help: 'added delay' };
    const zh = wordLabFields({ ...api, fields: [unknown] }, i18next.getFixedT('zh', 'bench'));
    expect(zh.fields[0]).toMatchObject({ label: 'Jitter', help: 'added delay' });
  });
});
