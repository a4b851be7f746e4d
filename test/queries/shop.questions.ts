/**
 * Questions over the Sample data shop (customers, products, orders), as a user would ask them,
 * each with hand-written SQL giving the expected rows (run on the same DuckDB data). Today is
 * 2025-06-15 (a Sunday; fixture.ts NOW). `ordered: true` when the order of rows is part of the
 * answer (top N). `expect: 'suggest'` when the question has several meanings and the right answer
 * is to ask back; `expect: 'cannot'` when no table can answer it.
 */
import { month, quarter, range } from './expected-sql';
import type { QuestionCase } from './question-case';

const O = 'shop.orders';
const C = 'shop.customers';
const P = 'shop.products';

const STATUSES = ['delivered', 'shipped', 'cancelled', 'returned'];
const CHANNELS = ['web', 'mobile', 'marketplace'];
const CATEGORIES = ['Coffee', 'Tea', 'Equipment', 'Accessories', 'Bakery'];
const CITIES = ['Paris', 'Berlin', 'Madrid', 'London', 'Oslo'];
const COUNTRIES: [string, string][] = [
  ['France', 'FR'],
  ['Germany', 'DE'],
  ['Spain', 'ES'],
  ['Italy', 'IT'],
  ['Sweden', 'SE'],
];

const PERIODS: [string, string, string][] = [
  ['last month', '2025-05-01', '2025-05-31'],
  ['this year', '2025-01-01', '2025-12-31'],
  ['last quarter', '2025-01-01', '2025-03-31'],
  ['this quarter', '2025-04-01', '2025-06-30'],
  ['in Q3 2024', '2024-07-01', '2024-09-30'],
  ['in Q4 2024', '2024-10-01', '2024-12-31'],
  ['since January', '2025-01-01', '2099-12-31'],
  ['in the past 7 days', '2025-06-09', '2025-06-15'],
  ['in the last 30 days', '2025-05-17', '2025-06-15'],
  ['yesterday', '2025-06-14', '2025-06-14'],
  ['today', '2025-06-15', '2025-06-15'],
  ['last week', '2025-06-02', '2025-06-08'],
  ['last year', '2024-01-01', '2024-12-31'],
  ['between 1 March and 15 April 2025', '2025-03-01', '2025-04-15'],
  ['in March', '2025-03-01', '2025-03-31'],
  ['in December 2024', '2024-12-01', '2024-12-31'],
  ['in 2024', '2024-01-01', '2024-12-31'],
  ['this month', '2025-06-01', '2025-06-30'],
  ['on 2025-02-14', '2025-02-14', '2025-02-14'],
  ['from 2025-01-10 to 2025-01-20', '2025-01-10', '2025-01-20'],
  ['year to date', '2025-01-01', '2025-06-15'],
  ['before 2024-07-01', '1900-01-01', '2024-06-30'],
];

export const SHOP_QUESTIONS: QuestionCase[] = [
  // Counts
  { kind: 'count', q: 'How many orders are there?', sql: `SELECT count(*) FROM ${O}` },
  { kind: 'count', q: 'how many orders', sql: `SELECT count(*) FROM ${O}` },
  { kind: 'count', q: 'number of orders', sql: `SELECT count(*) FROM ${O}` },
  { kind: 'count', q: 'count orders', sql: `SELECT count(*) FROM ${O}` },
  { kind: 'count', q: 'How many customers do we have?', sql: `SELECT count(*) FROM ${C}` },
  { kind: 'count', q: 'total number of customers', sql: `SELECT count(*) FROM ${C}` },
  { kind: 'count', q: 'How many products?', sql: `SELECT count(*) FROM ${P}` },
  { kind: 'count', q: 'count of products', sql: `SELECT count(*) FROM ${P}` },
  { kind: 'count', q: 'how many different cities do customers live in', sql: `SELECT count(DISTINCT city) FROM ${C}` },
  { kind: 'count', q: 'number of distinct countries of customers', sql: `SELECT count(DISTINCT country) FROM ${C}` },
  { kind: 'count', q: 'how many unique categories of products', sql: `SELECT count(DISTINCT category) FROM ${P}` },
  { kind: 'count', q: 'How many subscribed customers?', sql: `SELECT count(*) FROM ${C} WHERE is_subscribed` },
  {
    kind: 'count',
    q: 'how many customers are not subscribed',
    sql: `SELECT count(*) FROM ${C} WHERE NOT is_subscribed`,
  },
  { kind: 'count', q: 'how many products are in stock', sql: `SELECT count(*) FROM ${P} WHERE in_stock` },
  { kind: 'count', q: 'how many products are out of stock', sql: `SELECT count(*) FROM ${P} WHERE NOT in_stock` },
  { kind: 'count', q: 'How many products are not in stock?', sql: `SELECT count(*) FROM ${P} WHERE NOT in_stock` },
  // Sums and other aggregations
  { kind: 'sum', q: 'total amount', sql: `SELECT sum(amount) FROM ${O}` },
  { kind: 'sum', q: 'What is the total amount of all orders?', sql: `SELECT sum(amount) FROM ${O}` },
  { kind: 'sum', q: 'sum of amount', sql: `SELECT sum(amount) FROM ${O}` },
  { kind: 'sum', q: 'total revenue', sql: `SELECT sum(amount) FROM ${O}` },
  { kind: 'sum', q: 'total sales', sql: `SELECT sum(amount) FROM ${O}` },
  { kind: 'sum', q: 'total quantity ordered', sql: `SELECT sum(quantity) FROM ${O}` },
  { kind: 'sum', q: 'how many units were sold in total', sql: `SELECT sum(quantity) FROM ${O}` },
  { kind: 'sum', q: 'total quantity of orders', sql: `SELECT sum(quantity) FROM ${O}` },
  { kind: 'avg', q: 'average order amount', sql: `SELECT avg(amount) FROM ${O}` },
  { kind: 'avg', q: 'What is the average amount per order?', sql: `SELECT avg(amount) FROM ${O}` },
  { kind: 'avg', q: 'mean quantity per order', sql: `SELECT avg(quantity) FROM ${O}` },
  { kind: 'avg', q: 'average unit price of products', sql: `SELECT avg(unit_price) FROM ${P}` },
  { kind: 'avg', q: 'average price of products', sql: `SELECT avg(unit_price) FROM ${P}` },
  { kind: 'minmax', q: 'largest order amount', sql: `SELECT max(amount) FROM ${O}` },
  { kind: 'minmax', q: 'maximum amount of an order', sql: `SELECT max(amount) FROM ${O}` },
  { kind: 'minmax', q: 'smallest order amount', sql: `SELECT min(amount) FROM ${O}` },
  { kind: 'minmax', q: 'minimum quantity in orders', sql: `SELECT min(quantity) FROM ${O}` },
  { kind: 'minmax', q: 'highest unit price of products', sql: `SELECT max(unit_price) FROM ${P}` },
  { kind: 'minmax', q: 'cheapest product price', sql: `SELECT min(unit_price) FROM ${P}` },
  { kind: 'minmax', q: 'When was the latest order?', sql: `SELECT max(ordered_at) FROM ${O}` },
  { kind: 'minmax', q: 'earliest order date', sql: `SELECT min(ordered_at) FROM ${O}` },
  { kind: 'minmax', q: 'first signed up on date of customers', sql: `SELECT min(signed_up_on) FROM ${C}` },
  { kind: 'minmax', q: 'most recent customer signup', sql: `SELECT max(signed_up_on) FROM ${C}` },
  // By a column
  { kind: 'group', q: 'orders by status', sql: `SELECT status, count(*) FROM ${O} GROUP BY 1` },
  { kind: 'group', q: 'number of orders by channel', sql: `SELECT channel, count(*) FROM ${O} GROUP BY 1` },
  { kind: 'group', q: 'how many orders per status', sql: `SELECT status, count(*) FROM ${O} GROUP BY 1` },
  { kind: 'group', q: 'total amount by channel', sql: `SELECT channel, sum(amount) FROM ${O} GROUP BY 1` },
  { kind: 'group', q: 'revenue by status', sql: `SELECT status, sum(amount) FROM ${O} GROUP BY 1` },
  { kind: 'group', q: 'average amount by channel', sql: `SELECT channel, avg(amount) FROM ${O} GROUP BY 1` },
  { kind: 'group', q: 'customers by country', sql: `SELECT country, count(*) FROM ${C} GROUP BY 1` },
  { kind: 'group', q: 'how many customers per city', sql: `SELECT city, count(*) FROM ${C} GROUP BY 1` },
  { kind: 'group', q: 'number of products in each category', sql: `SELECT category, count(*) FROM ${P} GROUP BY 1` },
  { kind: 'group', q: 'products per category', sql: `SELECT category, count(*) FROM ${P} GROUP BY 1` },
  { kind: 'group', q: 'average unit price by category', sql: `SELECT category, avg(unit_price) FROM ${P} GROUP BY 1` },
  { kind: 'group', q: 'max unit price per category', sql: `SELECT category, max(unit_price) FROM ${P} GROUP BY 1` },
  { kind: 'group', q: 'total quantity by product id', sql: `SELECT product_id, sum(quantity) FROM ${O} GROUP BY 1` },
  { kind: 'group', q: 'orders per customer', sql: `SELECT customer_id, count(*) FROM ${O} GROUP BY 1` },
  {
    kind: 'group',
    q: 'amount by status and channel',
    sql: `SELECT status, channel, sum(amount) FROM ${O} GROUP BY 1, 2`,
  },
  {
    kind: 'group',
    q: 'customers by country and subscription',
    sql: `SELECT country, count(*) FROM ${C} WHERE is_subscribed GROUP BY 1`,
  },
  {
    kind: 'group',
    q: 'subscribed customers by country',
    sql: `SELECT country, count(*) FROM ${C} WHERE is_subscribed GROUP BY 1`,
  },
  {
    kind: 'group',
    q: 'number of unique customers by channel',
    sql: `SELECT channel, count(DISTINCT customer_id) FROM ${O} GROUP BY 1`,
  },
  {
    kind: 'group',
    q: 'in stock products by category',
    sql: `SELECT category, count(*) FROM ${P} WHERE in_stock GROUP BY 1`,
  },
  // Time grains
  { kind: 'grain', q: 'orders per month', sql: `SELECT ${month('ordered_at')}, count(*) FROM ${O} GROUP BY 1` },
  { kind: 'grain', q: 'monthly revenue', sql: `SELECT ${month('ordered_at')}, sum(amount) FROM ${O} GROUP BY 1` },
  { kind: 'grain', q: 'total amount by month', sql: `SELECT ${month('ordered_at')}, sum(amount) FROM ${O} GROUP BY 1` },
  { kind: 'grain', q: 'amount per quarter', sql: `SELECT ${quarter('ordered_at')}, sum(amount) FROM ${O} GROUP BY 1` },
  { kind: 'grain', q: 'orders by year', sql: `SELECT strftime(ordered_at, '%Y'), count(*) FROM ${O} GROUP BY 1` },
  { kind: 'grain', q: 'weekly orders', sql: `SELECT strftime(ordered_at, '%G-W%V'), count(*) FROM ${O} GROUP BY 1` },
  {
    kind: 'grain',
    q: 'number of orders per week',
    sql: `SELECT strftime(ordered_at, '%G-W%V'), count(*) FROM ${O} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'daily orders last week',
    sql: `SELECT strftime(ordered_at, '%Y-%m-%d'), count(*) FROM ${O} WHERE ${range('ordered_at', '2025-06-02', '2025-06-08')} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'customer signups by month',
    sql: `SELECT ${month('signed_up_on')}, count(*) FROM ${C} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'customers by year of signed up on',
    sql: `SELECT strftime(signed_up_on, '%Y'), count(*) FROM ${C} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'average order amount per month',
    sql: `SELECT ${month('ordered_at')}, avg(amount) FROM ${O} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'quarterly quantity',
    sql: `SELECT ${quarter('ordered_at')}, sum(quantity) FROM ${O} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'sum of amount by month last quarter',
    sql: `SELECT ${month('ordered_at')}, sum(amount) FROM ${O} WHERE ${range('ordered_at', '2025-01-01', '2025-03-31')} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'monthly orders by channel',
    sql: `SELECT ${month('ordered_at')}, channel, count(*) FROM ${O} GROUP BY 1, 2`,
  },
  {
    kind: 'grain',
    q: 'delivered orders per month this year',
    sql: `SELECT ${month('ordered_at')}, count(*) FROM ${O} WHERE status = 'delivered' AND ${range('ordered_at', '2025-01-01', '2025-12-31')} GROUP BY 1`,
  },
  {
    kind: 'grain',
    q: 'products created per month',
    sql: `SELECT ${month('created_at')}, count(*) FROM ${P} GROUP BY 1`,
  },
  // Top and bottom N
  {
    kind: 'top',
    q: 'top 5 orders by amount',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${O} ORDER BY amount DESC, _row_id LIMIT 5`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 3 categories by revenue',
    sql: `SELECT category, count(*) FROM ${P} GROUP BY 1 LIMIT 0`,
    expect: 'cannot',
  },
  {
    kind: 'top',
    q: 'top 3 categories by average unit price',
    sql: `SELECT category, avg(unit_price) FROM ${P} GROUP BY 1 ORDER BY 2 DESC LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 2 channels by total amount',
    sql: `SELECT channel, sum(amount) FROM ${O} GROUP BY 1 ORDER BY 2 DESC LIMIT 2`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 5 customers by number of orders',
    sql: `SELECT customer_id, count(*) c FROM ${O} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 3 cities by number of customers',
    sql: `SELECT city, count(*) FROM ${C} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'bottom 3 cities by customers',
    sql: `SELECT city, count(*) FROM ${C} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 10 products by price',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${P} ORDER BY unit_price DESC, _row_id LIMIT 10`,
    ordered: true,
  },
  {
    kind: 'top',
    q: '5 cheapest products',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${P} ORDER BY unit_price ASC, _row_id LIMIT 5`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'bottom 5 products by unit price',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${P} ORDER BY unit_price ASC, _row_id LIMIT 5`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 3 products by total quantity',
    sql: `SELECT product_id, sum(quantity) FROM ${O} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 5 customers by amount',
    sql: `SELECT customer_id, sum(amount) FROM ${O} GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top 3 orders by quantity last month',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${O} WHERE ${range('ordered_at', '2025-05-01', '2025-05-31')} ORDER BY quantity DESC, _row_id LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'which channel has the most orders',
    sql: `SELECT channel, count(*) FROM ${O} GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
    ordered: true,
  },
  {
    kind: 'top',
    q: 'top status by revenue',
    sql: `SELECT status, sum(amount) FROM ${O} GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
    ordered: true,
  },
  // Comparisons
  {
    kind: 'compare',
    q: 'orders over 100',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${O} WHERE amount > 100 ORDER BY _row_id LIMIT 100`,
  },
  { kind: 'compare', q: 'how many orders over 100', sql: `SELECT count(*) FROM ${O} WHERE amount > 100` },
  { kind: 'compare', q: 'how many orders with amount above 200', sql: `SELECT count(*) FROM ${O} WHERE amount > 200` },
  {
    kind: 'compare',
    q: 'number of orders with an amount under 20',
    sql: `SELECT count(*) FROM ${O} WHERE amount < 20`,
  },
  {
    kind: 'compare',
    q: 'how many orders between 10 and 20',
    sql: `SELECT count(*) FROM ${O} WHERE amount BETWEEN 10 AND 20`,
  },
  {
    kind: 'compare',
    q: 'count orders with amount between 50 and 100',
    sql: `SELECT count(*) FROM ${O} WHERE amount BETWEEN 50 AND 100`,
  },
  {
    kind: 'compare',
    q: 'orders with quantity at least 4',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${O} WHERE quantity >= 4 ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'compare',
    q: 'how many orders with quantity at least 4',
    sql: `SELECT count(*) FROM ${O} WHERE quantity >= 4`,
  },
  {
    kind: 'compare',
    q: 'how many orders have a quantity of 3 or more',
    sql: `SELECT count(*) FROM ${O} WHERE quantity >= 3`,
  },
  {
    kind: 'compare',
    q: 'orders with quantity at most 1 by channel',
    sql: `SELECT channel, count(*) FROM ${O} WHERE quantity <= 1 GROUP BY 1`,
  },
  { kind: 'compare', q: 'how many products cost more than 50', sql: `SELECT count(*) FROM ${P} WHERE unit_price > 50` },
  {
    kind: 'compare',
    q: 'products with unit price under 10',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${P} WHERE unit_price < 10 ORDER BY _row_id`,
  },
  {
    kind: 'compare',
    q: 'number of products with a price below 15 by category',
    sql: `SELECT category, count(*) FROM ${P} WHERE unit_price < 15 GROUP BY 1`,
  },
  { kind: 'compare', q: 'total amount of orders over 150', sql: `SELECT sum(amount) FROM ${O} WHERE amount > 150` },
  {
    kind: 'compare',
    q: 'how many orders with amount greater than $250',
    sql: `SELECT count(*) FROM ${O} WHERE amount > 250`,
  },
  {
    kind: 'compare',
    q: 'how many orders with amount less than 12.5',
    sql: `SELECT count(*) FROM ${O} WHERE amount < 12.5`,
  },
  {
    kind: 'compare',
    q: 'orders with quantity exactly 5',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${O} WHERE quantity = 5 ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'compare',
    q: 'average amount of orders with quantity over 2',
    sql: `SELECT avg(amount) FROM ${O} WHERE quantity > 2`,
  },
  {
    kind: 'compare',
    q: 'how many orders were not cancelled',
    sql: `SELECT count(*) FROM ${O} WHERE status <> 'cancelled'`,
  },
  {
    kind: 'compare',
    q: 'total amount of orders not cancelled',
    sql: `SELECT sum(amount) FROM ${O} WHERE status <> 'cancelled'`,
  },
  {
    kind: 'compare',
    q: 'revenue excluding returned orders',
    sql: `SELECT sum(amount) FROM ${O} WHERE status <> 'returned'`,
  },
  {
    kind: 'compare',
    q: 'orders except web by channel',
    sql: `SELECT channel, count(*) FROM ${O} WHERE channel <> 'web' GROUP BY 1`,
  },
  // Values named in the question
  ...STATUSES.map((s) => ({
    kind: 'value',
    q: `how many ${s} orders`,
    sql: `SELECT count(*) FROM ${O} WHERE status = '${s}'`,
  })),
  ...STATUSES.map((s) => ({
    kind: 'value',
    q: `total amount of ${s} orders`,
    sql: `SELECT sum(amount) FROM ${O} WHERE status = '${s}'`,
  })),
  ...CHANNELS.map((c) => ({
    kind: 'value',
    q: `How many orders came from ${c}?`,
    sql: `SELECT count(*) FROM ${O} WHERE channel = '${c}'`,
  })),
  ...CHANNELS.map((c) => ({
    kind: 'value',
    q: `revenue from ${c} orders by month`,
    sql: `SELECT ${month('ordered_at')}, sum(amount) FROM ${O} WHERE channel = '${c}' GROUP BY 1`,
  })),
  ...CATEGORIES.map((c) => ({
    kind: 'value',
    q: `how many ${c} products`,
    sql: `SELECT count(*) FROM ${P} WHERE category = '${c}'`,
  })),
  ...CATEGORIES.map((c) => ({
    kind: 'value',
    q: `average price of ${c.toLowerCase()} products`,
    sql: `SELECT avg(unit_price) FROM ${P} WHERE category = '${c}'`,
  })),
  ...CITIES.map((c) => ({
    kind: 'value',
    q: `customers in ${c}`,
    sql: `SELECT * EXCLUDE (_row_id) FROM ${C} WHERE city = '${c}' ORDER BY _row_id`,
  })),
  ...CITIES.map((c) => ({
    kind: 'value',
    q: `how many customers live in ${c}`,
    sql: `SELECT count(*) FROM ${C} WHERE city = '${c}'`,
  })),
  ...COUNTRIES.map(([name, code]) => ({
    kind: 'value',
    q: `customers from ${name}`,
    sql: `SELECT * EXCLUDE (_row_id) FROM ${C} WHERE country = '${code}' ORDER BY _row_id`,
  })),
  ...COUNTRIES.map(([name, code]) => ({
    kind: 'value',
    q: `how many subscribed customers in ${name}`,
    sql: `SELECT count(*) FROM ${C} WHERE country = '${code}' AND is_subscribed`,
  })),
  {
    kind: 'value',
    q: 'customers from the UK',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${C} WHERE country = 'GB' ORDER BY _row_id`,
  },
  {
    kind: 'value',
    q: 'cities of customers in Germany',
    sql: `SELECT city FROM ${C} WHERE country = 'DE' ORDER BY _row_id`,
  },
  {
    kind: 'value',
    q: 'delivered web orders',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${O} WHERE status = 'delivered' AND channel = 'web' ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'value',
    q: 'how many cancelled marketplace orders',
    sql: `SELECT count(*) FROM ${O} WHERE status = 'cancelled' AND channel = 'marketplace'`,
  },
  { kind: 'value', q: 'Espresso beans price', sql: `SELECT unit_price FROM ${P} WHERE name = 'Espresso beans'` },
  {
    kind: 'value',
    q: 'is the grinder in stock',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${P} WHERE name = 'Grinder' AND in_stock`,
  },
  { kind: 'value', q: 'unit price of the Moka pot', sql: `SELECT unit_price FROM ${P} WHERE name = 'Moka pot'` },
  {
    kind: 'value',
    q: 'shipped orders by channel',
    sql: `SELECT channel, count(*) FROM ${O} WHERE status = 'shipped' GROUP BY 1`,
  },
  {
    kind: 'value',
    q: 'returned orders per month',
    sql: `SELECT ${month('ordered_at')}, count(*) FROM ${O} WHERE status = 'returned' GROUP BY 1`,
  },
  // Periods
  ...PERIODS.map(([p, from, to]) => ({
    kind: 'period',
    q: `how many orders ${p}`,
    sql: `SELECT count(*) FROM ${O} WHERE ${range('ordered_at', from, to)}`,
  })),
  ...PERIODS.map(([p, from, to]) => ({
    kind: 'period',
    q: `total amount ${p}`,
    sql: `SELECT sum(amount) FROM ${O} WHERE ${range('ordered_at', from, to)}`,
  })),
  {
    kind: 'period',
    q: 'orders last month by status',
    sql: `SELECT status, count(*) FROM ${O} WHERE ${range('ordered_at', '2025-05-01', '2025-05-31')} GROUP BY 1`,
  },
  {
    kind: 'period',
    q: 'revenue this year by channel',
    sql: `SELECT channel, sum(amount) FROM ${O} WHERE ${range('ordered_at', '2025-01-01', '2025-12-31')} GROUP BY 1`,
  },
  {
    kind: 'period',
    q: 'How many customers signed up last year?',
    sql: `SELECT count(*) FROM ${C} WHERE signed_up_on BETWEEN DATE '2024-01-01' AND DATE '2024-12-31'`,
  },
  {
    kind: 'period',
    q: 'customers who signed up since March 2024',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${C} WHERE signed_up_on >= DATE '2024-03-01' ORDER BY _row_id`,
  },
  {
    kind: 'period',
    q: 'number of customers signed up in 2023',
    sql: `SELECT count(*) FROM ${C} WHERE signed_up_on BETWEEN DATE '2023-01-01' AND DATE '2023-12-31'`,
  },
  {
    kind: 'period',
    q: 'average amount of web orders in Q1 2025',
    sql: `SELECT avg(amount) FROM ${O} WHERE channel = 'web' AND ${range('ordered_at', '2025-01-01', '2025-03-31')}`,
  },
  {
    kind: 'period',
    q: 'cancelled orders in the past 30 days',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${O} WHERE status = 'cancelled' AND ${range('ordered_at', '2025-05-17', '2025-06-15')} ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'period',
    q: 'orders between March 1 and March 7, 2025',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${O} WHERE ${range('ordered_at', '2025-03-01', '2025-03-07')} ORDER BY _row_id LIMIT 100`,
  },
  {
    kind: 'period',
    q: 'total quantity sold in the first quarter of 2025',
    sql: `SELECT sum(quantity) FROM ${O} WHERE ${range('ordered_at', '2025-01-01', '2025-03-31')}`,
  },
  {
    kind: 'period',
    q: 'orders per week in the last 30 days',
    sql: `SELECT strftime(ordered_at, '%G-W%V'), count(*) FROM ${O} WHERE ${range('ordered_at', '2025-05-17', '2025-06-15')} GROUP BY 1`,
  },
  {
    kind: 'period',
    q: 'top 3 channels by revenue last quarter',
    sql: `SELECT channel, sum(amount) FROM ${O} WHERE ${range('ordered_at', '2025-01-01', '2025-03-31')} GROUP BY 1 ORDER BY 2 DESC LIMIT 3`,
    ordered: true,
  },
  {
    kind: 'period',
    q: 'products created after 2023-12-01',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${P} WHERE created_at >= DATE '2023-12-02' ORDER BY _row_id`,
  },
  // Lists
  { kind: 'list', q: 'show all products', sql: `SELECT * EXCLUDE (_row_id) FROM ${P} ORDER BY _row_id` },
  {
    kind: 'list',
    q: 'list the Tea products',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${P} WHERE category = 'Tea' ORDER BY _row_id`,
  },
  {
    kind: 'list',
    q: 'show emails of customers in Paris',
    sql: `SELECT email FROM ${C} WHERE city = 'Paris' ORDER BY _row_id`,
  },
  {
    kind: 'list',
    q: 'names of products in Equipment',
    sql: `SELECT name FROM ${P} WHERE category = 'Equipment' ORDER BY _row_id`,
  },
  {
    kind: 'list',
    q: 'which products are out of stock',
    sql: `SELECT * EXCLUDE (_row_id) FROM ${P} WHERE NOT in_stock ORDER BY _row_id`,
  },
  // Several meanings: ask back
  { kind: 'ambiguous', q: 'average unit price', sql: '', expect: 'suggest' },
  { kind: 'ambiguous', q: 'updated at by month', sql: '', expect: 'suggest' },
  { kind: 'ambiguous', q: 'how many rows by updated at', sql: '', expect: 'suggest' },
  // Nothing can answer
  { kind: 'cannot', q: 'what is the weather in Paris tomorrow', sql: '', expect: 'cannot' },
  { kind: 'cannot', q: 'how many invoices were paid', sql: '', expect: 'cannot' },
  { kind: 'cannot', q: 'orders from France', sql: '', expect: 'cannot' },
];
