import { describe, expect, it } from 'vitest';
import { routeToFlow, type FlowMappingRule } from '../../src/domain/flow-routing';

let nextId = 1;
const rule = (fields: Partial<FlowMappingRule> & Pick<FlowMappingRule, 'matchType' | 'matchValue'>): FlowMappingRule => ({
  id: nextId++, flowNamespace: `ns_${fields.matchValue}`, flowName: null, priority: 0, enabled: true, ...fields,
});

describe('routeToFlow', () => {
  it('matches exact when the name equals the value, case and surrounding spaces ignored, and never on a part of the name', () => {
    const exact = rule({ matchType: 'exact', matchValue: 'Netflix Premium - 1 сар' });
    expect(routeToFlow('Netflix Premium - 1 сар', [exact])).toBe(exact);
    expect(routeToFlow('  NETFLIX premium - 1 САР \n', [exact])).toBe(exact);
    expect(routeToFlow('Netflix Premium - 1 сар extra', [exact])).toBeNull();
    expect(routeToFlow('Netflix Premium', [exact])).toBeNull();
    // Spaces inside the name are part of it.
    expect(routeToFlow('Netflix  Premium - 1 сар', [exact])).toBeNull();
  });

  it('matches keyword when the name contains the value anywhere, case ignored (Cyrillic too)', () => {
    const keyword = rule({ matchType: 'keyword', matchValue: 'netflix' });
    const mongolian = rule({ matchType: 'keyword', matchValue: 'САР' });
    expect(routeToFlow('Netflix Premium - 1 сар', [keyword])).toBe(keyword);
    expect(routeToFlow('Buy NETFLIX now', [keyword])).toBe(keyword);
    expect(routeToFlow('Spotify Premium - 1 сар', [keyword])).toBeNull();
    expect(routeToFlow('Spotify Premium - 1 сар', [keyword, mongolian])).toBe(mongolian);
  });

  it('checks the higher priority first, whatever order the mappings come in, and the older one first among equals', () => {
    const low = rule({ matchType: 'keyword', matchValue: 'netflix', priority: 1 });
    const high = rule({ matchType: 'keyword', matchValue: 'premium', priority: 10 });
    const negative = rule({ matchType: 'exact', matchValue: 'netflix premium', priority: -5 });
    expect(routeToFlow('Netflix Premium', [low, high, negative])).toBe(high);
    expect(routeToFlow('Netflix Premium', [negative, low, high])).toBe(high);
    expect(routeToFlow('Netflix Basic', [negative, high, low])).toBe(low);

    const older = rule({ matchType: 'keyword', matchValue: 'pubg', priority: 3 });
    const newer = rule({ matchType: 'exact', matchValue: 'pubg mobile', priority: 3 });
    expect(routeToFlow('PUBG Mobile', [newer, older])).toBe(older);
    // A higher exact mapping wins over a lower keyword one, and the reverse.
    const exactFirst = rule({ matchType: 'exact', matchValue: 'pubg mobile', priority: 4 });
    expect(routeToFlow('PUBG Mobile', [older, newer, exactFirst])).toBe(exactFirst);
  });

  it('ignores disabled mappings', () => {
    const off = rule({ matchType: 'exact', matchValue: 'disney+', priority: 100, enabled: false });
    const on = rule({ matchType: 'keyword', matchValue: 'disney', priority: 0 });
    expect(routeToFlow('Disney+', [off, on])).toBe(on);
    expect(routeToFlow('Disney+', [off])).toBeNull();
  });

  it('routes nothing for a blank product name or a blank match value, and nothing with no mappings', () => {
    const blank = rule({ matchType: 'keyword', matchValue: '   ' });
    const any = rule({ matchType: 'keyword', matchValue: 'x' });
    expect(routeToFlow('anything', [blank])).toBeNull();
    expect(routeToFlow('   ', [blank, any])).toBeNull();
    expect(routeToFlow('x', [])).toBeNull();
  });

  it('trims the match value as well, and does not change the list it is given', () => {
    const padded = rule({ matchType: 'exact', matchValue: '  Steam Wallet $20 ' });
    const first = rule({ matchType: 'keyword', matchValue: 'steam', priority: -1 });
    const given = [first, padded];
    expect(routeToFlow('steam wallet $20', given)).toBe(padded);
    expect(given).toEqual([first, padded]);
  });

  it('treats a composed and a decomposed letter as the same', () => {
    const keyword = rule({ matchType: 'keyword', matchValue: 'Хүүхдийн' });
    expect(routeToFlow('хүүхдии\u0306н кино', [keyword])).toBe(keyword);
  });
});
