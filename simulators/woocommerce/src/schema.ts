import { invalidParams } from './errors';

/** A WordPress REST argument type; an array is an enum. */
export type ArgType = 'string' | 'boolean' | 'integer' | 'array' | 'object' | 'nullable-integer' | readonly string[];

const listOf = (values: readonly string[]) => (values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')}, and ${values.at(-1)}`);

/** Checks and normalises one value the way rest_validate_value_from_schema does; answers the error text or the value. */
function check(param: string, type: ArgType, value: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  const fail = (what: string) => ({ ok: false as const, message: `${param} is not of type ${what}.` });
  if (Array.isArray(type)) return typeof value === 'string' && type.includes(value) ? { ok: true, value } : { ok: false, message: `${param} is not one of ${listOf(type)}.` };
  switch (type) {
    case 'string':
      return typeof value === 'string' ? { ok: true, value } : fail('string');
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (['true', '1', 1].includes(value as never)) return { ok: true, value: true };
      if (['false', '0', 0, ''].includes(value as never)) return { ok: true, value: false };
      return fail('boolean');
    case 'nullable-integer':
      if (value === null) return { ok: true, value };
      return check(param, 'integer', value);
    case 'integer': {
      const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
      return typeof number === 'number' && Number.isInteger(number) ? { ok: true, value: number } : fail('integer');
    }
    case 'array':
      return Array.isArray(value) ? { ok: true, value } : fail('array');
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ok: true, value } : fail('object');
  }
  return fail(String(type));
}

/** Validates the known fields of a body; unknown fields are ignored like WordPress does. Throws rest_invalid_param. */
export function validateFields(body: unknown, spec: Record<string, ArgType>): Record<string, unknown> {
  const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const clean: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [field, type] of Object.entries(spec)) {
    if (!(field in input)) continue;
    const result = check(field, type, input[field]);
    if (result.ok) clean[field] = result.value;
    else errors[field] = result.message;
  }
  if (Object.keys(errors).length > 0) throw invalidParams(errors);
  return clean;
}

export const stockStatuses = ['instock', 'outofstock', 'onbackorder'] as const;
const common = {
  description: 'string',
  sku: 'string',
  regular_price: 'string',
  sale_price: 'string',
  virtual: 'boolean',
  downloadable: 'boolean',
  manage_stock: 'boolean',
  stock_quantity: 'nullable-integer',
  stock_status: stockStatuses,
  backorders: ['no', 'notify', 'yes'],
  attributes: 'array',
  meta_data: 'array',
  menu_order: 'integer',
} as const satisfies Record<string, ArgType>;

export const productSpec = {
  ...common,
  name: 'string',
  slug: 'string',
  type: ['simple', 'grouped', 'external', 'variable'],
  status: ['draft', 'pending', 'private', 'publish', 'future'],
  featured: 'boolean',
  catalog_visibility: ['visible', 'catalog', 'search', 'hidden'],
  short_description: 'string',
  categories: 'array',
  tags: 'array',
  images: 'array',
  default_attributes: 'array',
} as const satisfies Record<string, ArgType>;

export const variationSpec = { ...common, status: ['draft', 'pending', 'private', 'publish'], image: 'object' } as const satisfies Record<string, ArgType>;

/** Query arguments of list endpoints. */
export const listSpec = {
  page: 'integer',
  per_page: 'integer',
  offset: 'integer',
  order: ['asc', 'desc'],
  search: 'string',
} as const satisfies Record<string, ArgType>;
