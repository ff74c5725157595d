import { allowedCodeTypes, blockedCodeTypeLabels, blockedCodeTypes, codeTypes } from '@bo/proto';
import { describe, expect, it } from 'vitest';
import { blockedTypeList, codeTypeList } from './api';
import { en } from './texts.en';

describe("the parser page's code types agree with the code-fetch contract", () => {
  it('offers the eight allowed types in order, and lists the three blocked kinds', () => {
    expect(codeTypeList).toEqual(allowedCodeTypes);
    expect(blockedTypeList).toEqual(blockedCodeTypes);
  });

  it("labels them in English exactly as the contract does", () => {
    for (const type of allowedCodeTypes) expect(en[`aiParser.codeType.${type}`]).toBe(codeTypes[type].label);
    for (const type of blockedCodeTypes) expect(en[`aiParser.blocked.${type}`]).toBe(blockedCodeTypeLabels[type]);
  });
});
