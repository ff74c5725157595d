import {
  aiProviderFamilies,
  aiProviderModels,
  FLOW_FIELDS_REQUIRED,
  FLOW_MAPPING_FIELDS_REQUIRED,
  FLOW_TEST_PRODUCT_REQUIRED,
  flowMatchTypes,
  KNOWLEDGE_FIELDS_REQUIRED,
  KNOWLEDGE_QUERY_REQUIRED,
  MAX_PAUSE_HOURS as PROTO_MAX_PAUSE_HOURS,
} from '@bo/proto';
import { describe, expect, it } from 'vitest';
import {
  aiAdminKeys,
  aiAdminPaths,
  allFilled,
  expirySample,
  expiryTemplateLines,
  expiryTemplateVariables,
  fillTemplate,
  flowMatchTypeList,
  MAX_PAUSE_HOURS,
  parsePauseHours,
  parsePriority,
  preview,
  providerFamilies,
  providerModels,
  renewalButtonCaption,
  similarityVariant,
} from './api';
import { pathOfKey } from '../../lib/api';
import { en } from './texts.en';

describe("the AI admin page's lists agree with the route contracts", () => {
  it('offers the provider families and their models as proto does', () => {
    expect(providerFamilies).toEqual(aiProviderFamilies);
    expect(providerModels).toEqual(aiProviderModels);
    expect(flowMatchTypeList).toEqual(flowMatchTypes);
    expect(MAX_PAUSE_HOURS).toBe(PROTO_MAX_PAUSE_HOURS);
  });

  it("says the spec's validation texts exactly as the server does", () => {
    expect(en['aiAdmin.fillAll']).toBe(KNOWLEDGE_FIELDS_REQUIRED);
    expect(en['aiAdmin.fillAll']).toBe('Please fill in all fields.');
    expect(en['aiAdmin.flows.required']).toBe(FLOW_FIELDS_REQUIRED);
    expect(en['aiAdmin.mappings.required']).toBe(FLOW_MAPPING_FIELDS_REQUIRED);
    expect(en['aiAdmin.tester.required']).toBe(FLOW_TEST_PRODUCT_REQUIRED);
    expect(en['aiAdmin.search.required']).toBe(KNOWLEDGE_QUERY_REQUIRED);
    expect(en['aiAdmin.validation']).toBe('Validation Error');
  });
});

describe('previews and badges (document 2 §9)', () => {
  it('cuts a text at the given length and marks the cut', () => {
    expect(preview('short', 200)).toBe('short');
    expect(preview('x'.repeat(200), 200)).toBe('x'.repeat(200));
    expect(preview('x'.repeat(201), 200)).toBe(`${'x'.repeat(200)}…`);
    expect(preview('абв'.repeat(50), 100)).toHaveLength(101);
  });

  it('styles a similarity from 0.8 as default, from 0.6 as secondary, else outline', () => {
    expect(similarityVariant(1)).toBe('solid');
    expect(similarityVariant(0.8)).toBe('solid');
    expect(similarityVariant(0.79)).toBe('subtle');
    expect(similarityVariant(0.6)).toBe('subtle');
    expect(similarityVariant(0.59)).toBe('outline');
    expect(similarityVariant(0)).toBe('outline');
  });
});

describe('form values', () => {
  it('parses a priority as an integer, 0 by default', () => {
    expect(parsePriority('')).toBe(0);
    expect(parsePriority('  ')).toBe(0);
    expect(parsePriority('abc')).toBe(0);
    expect(parsePriority('7')).toBe(7);
    expect(parsePriority(' -3 ')).toBe(-3);
    expect(parsePriority('2.9')).toBe(2);
  });

  it('takes whole pause hours from 1 to 168 only', () => {
    expect(parsePauseHours('1')).toBe(1);
    expect(parsePauseHours(' 168 ')).toBe(168);
    for (const text of ['', '0', '169', '1.5', '-2', 'two']) expect(parsePauseHours(text)).toBeNull();
  });

  it('requires text besides spaces', () => {
    expect(allFilled('a', 'b')).toBe(true);
    expect(allFilled('a', '  ')).toBe(false);
    expect(allFilled()).toBe(true);
  });
});

describe('the expiry notification template', () => {
  it('uses exactly its four variables, fills them all, and appends buttons for 1 to 6 months', () => {
    const used = [...new Set([...expiryTemplateLines.join('\n').matchAll(/\{(\w+)\}/g)].map((match) => match[1]))].sort();
    expect(used).toEqual([...expiryTemplateVariables].sort());
    const filled = fillTemplate(expiryTemplateLines, expirySample);
    expect(filled).not.toMatch(/\{\w+\}/);
    expect(filled).toContain('35,000₮');
    expect(renewalButtonCaption(1)).toBe('1 сар / 1 month');
    expect(renewalButtonCaption(6)).toBe('6 сар / 6 months');
  });
});

describe('paths', () => {
  it('encodes path parameters and builds the knowledge filter as a query', () => {
    expect(aiAdminPaths.flow('Netflix Renewal/2')).toBe('/api/admin/flows/Netflix%20Renewal%2F2');
    expect(aiAdminPaths.pause('7000001')).toBe('/api/admin/conversations/7000001/pause');
    expect(pathOfKey(aiAdminKeys.knowledge(''))).toBe('/api/admin/knowledge');
    expect(pathOfKey(aiAdminKeys.knowledge('Төлбөр & QPay'))).toBe('/api/admin/knowledge?category=%D0%A2%D3%A9%D0%BB%D0%B1%D3%A9%D1%80%20%26%20QPay');
  });
});
