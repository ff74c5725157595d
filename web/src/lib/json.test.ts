import { describe, expect, it } from 'vitest';
import { parseJson } from './json';

describe('parseJson', () => {
  it('gives the value of a JSON text', () => {
    expect(parseJson('{ "user_id": "1234567" }')).toEqual({ ok: true, value: { user_id: '1234567' } });
  });

  it('says why a text is not JSON instead of sending it', () => {
    const parsed = parseJson('{ "user_id": "1234567", }');
    expect(parsed.ok).toBe(false);
    expect((parsed as { error: string }).error).toMatch(/JSON|property|position/i);
  });

  it('takes JSON that is not an object too: the server judges it', () => {
    expect(parseJson('[]')).toEqual({ ok: true, value: [] });
    expect(parseJson('"text"')).toEqual({ ok: true, value: 'text' });
  });
});
