import type { FlowMatchType } from '@bo/proto';

/** A flow mapping as the router reads it (document 2 §3 "Flow mapping"). */
export interface FlowMappingRule {
  id: number;
  matchType: FlowMatchType;
  matchValue: string;
  flowNamespace: string;
  flowName: string | null;
  /** Higher is checked first. */
  priority: number;
  enabled: boolean;
}

/** Case and surrounding spaces ignored; one Unicode form, so a composed and a decomposed й are the same letter. */
const comparable = (text: string) => text.normalize('NFC').trim().toLowerCase();

/**
 * The checking order of document 2 §9: higher priority first; among equal priorities the older
 * mapping (lower id) first, so the answer never depends on how the rows were read.
 */
export const byCheckingOrder = (a: FlowMappingRule, b: FlowMappingRule) => b.priority - a.priority || a.id - b.id;

function matches(productName: string, rule: FlowMappingRule): boolean {
  const value = comparable(rule.matchValue);
  // A blank match value would be contained in every name: it routes nothing.
  if (value === '') return false;
  if (rule.matchType === 'exact') return productName === value;
  if (rule.matchType === 'keyword') return productName.includes(value);
  return false;
}

/**
 * The flow a product is routed to (document 2 §9): among the enabled mappings, checked by
 * priority (highest first), the first whose match value the product name equals (exact) or
 * contains (keyword), case and surrounding spaces ignored; null when none does.
 */
export function routeToFlow(productName: string, mappings: readonly FlowMappingRule[]): FlowMappingRule | null {
  const name = comparable(productName);
  if (name === '') return null;
  const candidates = mappings.filter((rule) => rule.enabled).sort(byCheckingOrder);
  return candidates.find((rule) => matches(name, rule)) ?? null;
}
