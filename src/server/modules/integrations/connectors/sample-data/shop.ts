/**
 * A small, realistic shop (customers, products, orders) made from a fixed seed, so every install and
 * every test sees the same rows. Orders keep arriving: one every ~4.4 hours, and a read returns
 * those of the last 365 days up to `now`, so incremental syncs find new orders as time passes.
 */

const DAY_MS = 86_400_000;
/** The first order's time; order n is placed ORDER_INTERVAL_MS * n after it. */
const ORDER_EPOCH = Date.UTC(2024, 0, 1);
const ORDER_INTERVAL_MS = Math.round((365 * DAY_MS) / 2_000);
export const CUSTOMER_COUNT = 200;
export const PRODUCT_COUNT = 50;

/** mulberry32: a tiny deterministic generator; `seed` picks the sequence. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

const FIRST_NAMES = [
  'Ada',
  'Ben',
  'Chloé',
  'Dev',
  'Elif',
  'Farah',
  'Goran',
  'Hana',
  'Ivan',
  'Jonas',
  'Kemi',
  'Lena',
  'Marco',
  'Nora',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tomás',
  'Uma',
  'Viktor',
  'Wen',
  'Yusuf',
  'Zoe',
];
const LAST_NAMES = [
  'Andersen',
  'Brown',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Hoang',
  'Ito',
  'Jansen',
  'Kowalski',
  'López',
  'Müller',
  'Novak',
  'Okafor',
  'Patel',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Weber',
];
const CITIES: readonly [string, string][] = [
  ['Paris', 'FR'],
  ['Lyon', 'FR'],
  ['Berlin', 'DE'],
  ['Munich', 'DE'],
  ['Madrid', 'ES'],
  ['Lisbon', 'PT'],
  ['Milan', 'IT'],
  ['Amsterdam', 'NL'],
  ['Oslo', 'NO'],
  ['Stockholm', 'SE'],
  ['London', 'GB'],
  ['Dublin', 'IE'],
];
const CATEGORIES: readonly [string, string[]][] = [
  ['Coffee', ['Espresso beans', 'Filter blend', 'Decaf roast', 'Single origin Ethiopia', 'Cold brew pack']],
  ['Tea', ['Green tea', 'Earl grey', 'Rooibos', 'Chai mix', 'Mint infusion']],
  ['Equipment', ['Grinder', 'Pour-over kit', 'Moka pot', 'Milk frother', 'Kettle']],
  ['Accessories', ['Travel mug', 'Ceramic cup', 'Scale', 'Filters (100)', 'Storage tin']],
  ['Bakery', ['Almond biscotti', 'Oat cookies', 'Brownie box', 'Cinnamon rolls', 'Shortbread']],
];
const STATUSES = ['delivered', 'delivered', 'delivered', 'delivered', 'shipped', 'cancelled', 'returned'] as const;
const CHANNELS = ['web', 'web', 'mobile', 'marketplace'] as const;

const iso = (ms: number) => new Date(ms).toISOString();
const cents = (value: number) => Math.round(value * 100) / 100;

export interface Product {
  product_id: number;
  name: string;
  category: string;
  unit_price: number;
  in_stock: boolean;
  created_at: string;
  updated_at: string;
}

export interface Customer {
  customer_id: number;
  first_name: string;
  last_name: string;
  email: string;
  city: string;
  country: string;
  signed_up_on: string;
  is_subscribed: boolean;
  updated_at: string;
}

export interface Order {
  order_id: number;
  customer_id: number;
  product_id: number;
  quantity: number;
  unit_price: number;
  amount: number;
  status: string;
  channel: string;
  ordered_at: string;
  updated_at: string;
}

export function products(): Product[] {
  const next = random(11);
  const all = CATEGORIES.flatMap(([category, names]) =>
    names.flatMap((name) => [`${name}`, `${name} (large)`]).map((name) => ({ category, name })),
  );
  return all.slice(0, PRODUCT_COUNT).map(({ category, name }, i) => {
    const created = ORDER_EPOCH - Math.floor(next() * 200) * DAY_MS;
    return {
      product_id: i + 1,
      name,
      category,
      unit_price: cents(3 + next() * (category === 'Equipment' ? 120 : 25)),
      in_stock: next() > 0.1,
      created_at: iso(created),
      updated_at: iso(created + Math.floor(next() * 30) * DAY_MS),
    };
  });
}

export function customers(): Customer[] {
  const next = random(7);
  return Array.from({ length: CUSTOMER_COUNT }, (_, i) => {
    const first = pick(next, FIRST_NAMES);
    const last = pick(next, LAST_NAMES);
    const [city, country] = pick(next, CITIES);
    const signedUp = ORDER_EPOCH - Math.floor(next() * 400) * DAY_MS;
    const plain = `${first}.${last}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    return {
      customer_id: i + 1,
      first_name: first,
      last_name: last,
      email: `${plain}${i + 1}@example.com`,
      city,
      country,
      signed_up_on: iso(signedUp).slice(0, 10),
      is_subscribed: next() > 0.4,
      updated_at: iso(signedUp + Math.floor(next() * 60) * DAY_MS),
    };
  });
}

/** Order n, the same on every call (its own generator, seeded by n). */
export function order(n: number, catalogue: Product[]): Order {
  const next = random(1_000_003 * n + 17);
  const product = catalogue[Math.floor(next() * catalogue.length)] as Product;
  const quantity = 1 + Math.floor(next() * next() * 6);
  const placed = ORDER_EPOCH + n * ORDER_INTERVAL_MS + Math.floor(next() * 3_600_000);
  return {
    order_id: n,
    // A few loyal customers order far more often than the rest.
    customer_id: 1 + Math.floor(next() ** 2 * CUSTOMER_COUNT),
    product_id: product.product_id,
    quantity,
    unit_price: product.unit_price,
    amount: cents(product.unit_price * quantity),
    status: pick(next, STATUSES),
    channel: pick(next, CHANNELS),
    ordered_at: iso(placed),
    updated_at: iso(placed),
  };
}

/** Numbers of the orders placed in the 365 days up to `now`, oldest first. */
export function orderNumbers(now: Date): { first: number; last: number } {
  const last = Math.floor((now.getTime() - ORDER_EPOCH) / ORDER_INTERVAL_MS) - 1;
  const first = Math.max(1, Math.floor((now.getTime() - 365 * DAY_MS - ORDER_EPOCH) / ORDER_INTERVAL_MS) + 1);
  return { first, last: Math.max(first - 1, last) };
}
