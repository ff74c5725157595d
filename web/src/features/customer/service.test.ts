import { codeTypeOfParseType, codeTypes, parseEmailTypes, servicePagePaths as contractPaths } from '@bo/proto';
import { describe, expect, it } from 'vitest';
import { cardYields, EXPIRY_WARNING_DAYS, expiryTone, safeRedirect, serviceCards, serviceOfKey, servicePagePaths, stripSpaces } from './service';

const DAY = 86_400_000;
const now = new Date('2026-11-23T08:00:00.000Z');
const inDays = (days: number) => new Date(now.getTime() + days * DAY).toISOString();

describe('serviceOfKey', () => {
  it.each([
    ['SK-7Q2M4P9X3K-NFX', 'NFX'],
    ['SK-7Q2M4P9X3K-DPS', 'DPS'],
    ['SK-7Q2M4P9X3K-AMZ', 'AMZ'],
    ['SK-7Q2M4P9X3K-HLU', 'HLU'],
    ['SK-7Q2M4P9X3K-MAX', 'MAX'],
    ['sk-7q2m4p9x3k-nfx', 'NFX'],
    [' SK-7Q2M 4P9X3K - MAX ', 'MAX'],
  ])('%s is for %s', (key, service) => {
    expect(serviceOfKey(key)).toBe(service);
  });

  it.each(['', 'SK-7Q2M4P9X3K', 'SK-7Q2M4P9X3K-NF', 'SK-7Q2M4P9X3K-XYZ', 'SK-7Q2M4P9X3K-NFX2', 'SK-NFX-7Q2M'])('%j names no service yet', (key) => {
    expect(serviceOfKey(key)).toBeNull();
  });
});

describe('stripSpaces', () => {
  it('removes every space, tab and line break, not only the ends (document 3 §5)', () => {
    expect(stripSpaces(' nfx.account1 @example.mn\t\n')).toBe('nfx.account1@example.mn');
  });
});

describe('expiryTone', () => {
  it('is red once the expiry has passed, even by a minute', () => {
    expect(expiryTone(new Date(now.getTime() - 60_000).toISOString(), now)).toBe('expired');
    expect(expiryTone(inDays(-30), now)).toBe('expired');
  });

  it(`is yellow within ${EXPIRY_WARNING_DAYS} days, the 7th day included`, () => {
    expect(expiryTone(inDays(0.01), now)).toBe('soon');
    expect(expiryTone(inDays(7), now)).toBe('soon');
  });

  it('is plain after that', () => {
    expect(expiryTone(inDays(7.01), now)).toBe('ok');
    expect(expiryTone(inDays(90), now)).toBe('ok');
  });

  it('counts an unreadable date as expired rather than valid', () => {
    expect(expiryTone('not a date', now)).toBe('expired');
  });
});

describe('safeRedirect', () => {
  it("goes where the server says when it is a page of this site", () => {
    expect(safeRedirect('/netflix', 'NFX')).toBe('/netflix');
  });

  it("never leaves the site: another origin, '//host' or '/\\host' is the key's own page instead", () => {
    expect(safeRedirect('https://evil.example/netflix', 'NFX')).toBe('/netflix');
    expect(safeRedirect('//evil.example', 'DPS')).toBe('/disney');
    expect(safeRedirect('/\\evil.example', 'MAX')).toBe('/max');
    expect(safeRedirect('', 'HLU')).toBe('/hulu');
  });
});

describe('the pages and cards agree with the code-fetch contract', () => {
  it('has the same page per service', () => {
    expect(servicePagePaths).toEqual(contractPaths);
  });

  it('gives every fetch type the yield of its code type', () => {
    expect(cardYields).toEqual(Object.fromEntries(parseEmailTypes.map((type) => [type, codeTypes[codeTypeOfParseType[type]].yields])));
  });

  it("puts each fetch type on its own service's page, once, every type somewhere", () => {
    for (const [service, cards] of Object.entries(serviceCards)) {
      for (const type of cards) expect(codeTypes[codeTypeOfParseType[type]].service).toBe(service);
    }
    expect(Object.values(serviceCards).flat().sort()).toEqual([...parseEmailTypes].sort());
    expect(serviceCards.NFX).toEqual(['netflix-signin', 'netflix-temp', 'netflix-household', 'netflix-tv']);
  });
});
