import { createHash } from 'node:crypto';

export type Permission = 'read' | 'write' | 'read_write';
export interface ApiKey {
  consumer_key: string;
  consumer_secret: string;
  permission: Permission;
  description: string;
}

export interface WooOptions {
  /** Shown in permalinks. */
  storeUrl: string;
  /** woocommerce_rest_batch_items_limit: objects per batch across create + update + delete. */
  batchLimit: number;
  /** A page past the end: `[]` with 200, or WordPress' 400 rest_post_invalid_page_number (unverified which). */
  pagePastEnd: 'empty' | 'error';
}

export const defaultWooOptions = (): WooOptions => ({ storeUrl: 'https://shop.example.mn', batchLimit: 100, pagePastEnd: 'empty' });

/** Deterministic keys so tests and the launcher know them: ck_/cs_ + 40 hex characters. */
const hex = (seed: string) => createHash('sha1').update(seed).digest('hex');
export const defaultKeys = (): ApiKey[] => [
  { consumer_key: `ck_${hex('sim-read-write-key')}`, consumer_secret: `cs_${hex('sim-read-write-secret')}`, permission: 'read_write', description: 'Back-office sync' },
  { consumer_key: `ck_${hex('sim-read-key')}`, consumer_secret: `cs_${hex('sim-read-secret')}`, permission: 'read', description: 'Read-only reports' },
];

interface Sellable {
  id: number;
  description: string;
  sku: string;
  regular_price: string;
  sale_price: string;
  virtual: boolean;
  downloadable: boolean;
  stock_quantity: number | null;
  stock_status: 'instock' | 'outofstock' | 'onbackorder';
  backorders: 'no' | 'notify' | 'yes';
  attributes: Record<string, unknown>[];
  meta_data: Record<string, unknown>[];
  menu_order: number;
  date_created: string;
  date_modified: string;
}

export interface Product extends Sellable {
  name: string;
  slug: string;
  type: 'simple' | 'grouped' | 'external' | 'variable';
  status: 'draft' | 'pending' | 'private' | 'publish' | 'future' | 'trash';
  featured: boolean;
  catalog_visibility: string;
  short_description: string;
  manage_stock: boolean;
  categories: Record<string, unknown>[];
  tags: Record<string, unknown>[];
  images: Record<string, unknown>[];
  default_attributes: Record<string, unknown>[];
  total_sales: number;
}

export interface Variation extends Sellable {
  parent_id: number;
  status: 'draft' | 'pending' | 'private' | 'publish';
  manage_stock: boolean | 'parent';
  image: Record<string, unknown> | null;
}

/** Orders are kept in their REST shape. */
export type Order = Record<string, unknown> & { id: number; status: string; date_created: string; customer_id: number; billing: Record<string, string>; shipping: Record<string, string>; line_items: { product_id: number }[] };

export class WooState {
  options: WooOptions;
  keys: ApiKey[] = defaultKeys();
  products = new Map<number, Product>();
  variations = new Map<number, Variation>();
  orders = new Map<number, Order>();
  /** WordPress posts share one id sequence. */
  private lastId = 100;

  constructor(private readonly initial: Partial<WooOptions> = {}) {
    this.options = { ...defaultWooOptions(), ...initial };
  }

  nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  /** Empties the catalogue and orders; options and keys go back to their defaults. */
  reset(): void {
    this.options = { ...defaultWooOptions(), ...this.initial };
    this.keys = defaultKeys();
    this.products.clear();
    this.variations.clear();
    this.orders.clear();
    this.lastId = 100;
  }

  variationsOf(productId: number): Variation[] {
    return [...this.variations.values()].filter((v) => v.parent_id === productId);
  }
}
