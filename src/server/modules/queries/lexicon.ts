/**
 * The fixed words of the grammar: aggregations, grouping, ranking, comparisons, time grains, and
 * words that carry no meaning for the query ('show me the ...'). Matched on folded words.
 */
import type { PivotAggregation, PivotTimeGrain } from '../../../shared/pivots';

export type Keyword =
  | { kind: 'agg'; func: PivotAggregation | 'CountRows' }
  | { kind: 'group' }
  | { kind: 'grain'; grain: PivotTimeGrain; adjective: boolean }
  | { kind: 'rank'; direction: 'Descending' | 'Ascending' }
  | {
      kind: 'compare';
      op: 'GreaterThan' | 'LessThan' | 'GreaterThanOrEquals' | 'LessThanOrEquals' | 'Equals' | 'Between';
    }
  | { kind: 'not' }
  | { kind: 'and' }
  | { kind: 'or' }
  | { kind: 'list' }
  | { kind: 'sort'; direction: 'Descending' | 'Ascending' | null }
  | { kind: 'of' }
  | { kind: 'most'; direction: 'Descending' | 'Ascending' };

/** Phrases as words, longest first when matched. */
export const KEYWORDS: [string, Keyword][] = [
  ['how many', { kind: 'agg', func: 'CountRows' }],
  ['how much', { kind: 'agg', func: 'Sum' }],
  ['number of', { kind: 'agg', func: 'CountRows' }],
  ['count of', { kind: 'agg', func: 'CountRows' }],
  ['count', { kind: 'agg', func: 'CountRows' }],
  ['counts', { kind: 'agg', func: 'CountRows' }],

  ['distinct', { kind: 'agg', func: 'CountUnique' }],
  ['unique', { kind: 'agg', func: 'CountUnique' }],
  ['different', { kind: 'agg', func: 'CountUnique' }],
  ['total', { kind: 'agg', func: 'Sum' }],
  ['totals', { kind: 'agg', func: 'Sum' }],
  ['sum of', { kind: 'agg', func: 'Sum' }],
  ['sum', { kind: 'agg', func: 'Sum' }],
  ['overall', { kind: 'agg', func: 'Sum' }],
  ['combined', { kind: 'agg', func: 'Sum' }],
  ['average', { kind: 'agg', func: 'Avg' }],
  ['avg', { kind: 'agg', func: 'Avg' }],
  ['mean', { kind: 'agg', func: 'Avg' }],
  ['typical', { kind: 'agg', func: 'Avg' }],
  ['maximum', { kind: 'agg', func: 'Max' }],
  ['max', { kind: 'agg', func: 'Max' }],
  ['highest', { kind: 'agg', func: 'Max' }],
  ['largest', { kind: 'agg', func: 'Max' }],
  ['biggest', { kind: 'agg', func: 'Max' }],
  ['greatest', { kind: 'agg', func: 'Max' }],
  ['latest', { kind: 'agg', func: 'Max' }],
  ['most recent', { kind: 'agg', func: 'Max' }],
  ['newest', { kind: 'agg', func: 'Max' }],
  ['cheapest', { kind: 'agg', func: 'Min' }],
  ['shortest', { kind: 'agg', func: 'Min' }],
  ['longest', { kind: 'agg', func: 'Max' }],
  ['most expensive', { kind: 'agg', func: 'Max' }],
  ['in total', { kind: 'of' }],
  ['minimum', { kind: 'agg', func: 'Min' }],
  ['min', { kind: 'agg', func: 'Min' }],
  ['lowest', { kind: 'agg', func: 'Min' }],
  ['smallest', { kind: 'agg', func: 'Min' }],
  ['least', { kind: 'agg', func: 'Min' }],
  ['earliest', { kind: 'agg', func: 'Min' }],
  ['oldest', { kind: 'agg', func: 'Min' }],
  ['first', { kind: 'agg', func: 'Min' }],
  ['broken down by', { kind: 'group' }],
  ['break down by', { kind: 'group' }],
  ['breakdown by', { kind: 'group' }],
  ['grouped by', { kind: 'group' }],
  ['group by', { kind: 'group' }],
  ['split by', { kind: 'group' }],
  ['for each', { kind: 'group' }],
  ['for every', { kind: 'group' }],
  ['by', { kind: 'group' }],
  ['per', { kind: 'group' }],
  ['each', { kind: 'group' }],
  ['every', { kind: 'group' }],
  ['across', { kind: 'group' }],
  ['daily', { kind: 'grain', grain: 'day', adjective: true }],
  ['weekly', { kind: 'grain', grain: 'week', adjective: true }],
  ['monthly', { kind: 'grain', grain: 'month', adjective: true }],
  ['quarterly', { kind: 'grain', grain: 'quarter', adjective: true }],
  ['yearly', { kind: 'grain', grain: 'year', adjective: true }],
  ['annual', { kind: 'grain', grain: 'year', adjective: true }],
  ['annually', { kind: 'grain', grain: 'year', adjective: true }],
  ['day', { kind: 'grain', grain: 'day', adjective: false }],
  ['days', { kind: 'grain', grain: 'day', adjective: false }],
  ['date', { kind: 'grain', grain: 'day', adjective: false }],
  ['week', { kind: 'grain', grain: 'week', adjective: false }],
  ['weeks', { kind: 'grain', grain: 'week', adjective: false }],
  ['month', { kind: 'grain', grain: 'month', adjective: false }],
  ['months', { kind: 'grain', grain: 'month', adjective: false }],
  ['quarter', { kind: 'grain', grain: 'quarter', adjective: false }],
  ['quarters', { kind: 'grain', grain: 'quarter', adjective: false }],
  ['year', { kind: 'grain', grain: 'year', adjective: false }],
  ['years', { kind: 'grain', grain: 'year', adjective: false }],
  ['top', { kind: 'rank', direction: 'Descending' }],
  ['best', { kind: 'rank', direction: 'Descending' }],
  ['bottom', { kind: 'rank', direction: 'Ascending' }],
  ['worst', { kind: 'rank', direction: 'Ascending' }],
  ['more than', { kind: 'compare', op: 'GreaterThan' }],
  ['greater than', { kind: 'compare', op: 'GreaterThan' }],
  ['bigger than', { kind: 'compare', op: 'GreaterThan' }],
  ['larger than', { kind: 'compare', op: 'GreaterThan' }],
  ['higher than', { kind: 'compare', op: 'GreaterThan' }],
  ['over', { kind: 'compare', op: 'GreaterThan' }],
  ['above', { kind: 'compare', op: 'GreaterThan' }],
  ['exceeding', { kind: 'compare', op: 'GreaterThan' }],
  ['>', { kind: 'compare', op: 'GreaterThan' }],
  ['less than', { kind: 'compare', op: 'LessThan' }],
  ['fewer than', { kind: 'compare', op: 'LessThan' }],
  ['lower than', { kind: 'compare', op: 'LessThan' }],
  ['smaller than', { kind: 'compare', op: 'LessThan' }],
  ['cheaper than', { kind: 'compare', op: 'LessThan' }],
  ['under', { kind: 'compare', op: 'LessThan' }],
  ['below', { kind: 'compare', op: 'LessThan' }],
  ['<', { kind: 'compare', op: 'LessThan' }],
  ['at least', { kind: 'compare', op: 'GreaterThanOrEquals' }],
  ['no less than', { kind: 'compare', op: 'GreaterThanOrEquals' }],
  ['or more', { kind: 'compare', op: 'GreaterThanOrEquals' }],
  ['>=', { kind: 'compare', op: 'GreaterThanOrEquals' }],
  ['at most', { kind: 'compare', op: 'LessThanOrEquals' }],
  ['no more than', { kind: 'compare', op: 'LessThanOrEquals' }],
  ['up to', { kind: 'compare', op: 'LessThanOrEquals' }],
  ['or less', { kind: 'compare', op: 'LessThanOrEquals' }],
  ['or fewer', { kind: 'compare', op: 'LessThanOrEquals' }],
  ['<=', { kind: 'compare', op: 'LessThanOrEquals' }],
  ['between', { kind: 'compare', op: 'Between' }],
  ['equal to', { kind: 'compare', op: 'Equals' }],
  ['equals', { kind: 'compare', op: 'Equals' }],
  ['exactly', { kind: 'compare', op: 'Equals' }],
  ['=', { kind: 'compare', op: 'Equals' }],
  ['not', { kind: 'not' }],
  ['non', { kind: 'not' }],
  ['isnt', { kind: 'not' }],
  ['arent', { kind: 'not' }],
  ['wasnt', { kind: 'not' }],
  ['werent', { kind: 'not' }],
  ['except', { kind: 'not' }],
  ['excluding', { kind: 'not' }],
  ['without', { kind: 'not' }],
  ['other than', { kind: 'not' }],
  ['out of', { kind: 'not' }],
  ['no', { kind: 'not' }],
  ['un', { kind: 'not' }],
  ['and', { kind: 'and' }],
  ['or', { kind: 'or' }],
  ['show', { kind: 'list' }],
  ['list', { kind: 'list' }],
  ['which', { kind: 'list' }],
  ['find', { kind: 'list' }],
  ['display', { kind: 'list' }],
  ['sorted by', { kind: 'sort', direction: null }],
  ['ordered by', { kind: 'sort', direction: null }],
  ['order by', { kind: 'sort', direction: null }],
  ['sort by', { kind: 'sort', direction: null }],
  ['descending', { kind: 'sort', direction: 'Descending' }],
  ['desc', { kind: 'sort', direction: 'Descending' }],
  ['ascending', { kind: 'sort', direction: 'Ascending' }],
  ['asc', { kind: 'sort', direction: 'Ascending' }],
  ['of', { kind: 'of' }],
  ['the most', { kind: 'most', direction: 'Descending' }],
  ['most', { kind: 'most', direction: 'Descending' }],
  ['the fewest', { kind: 'most', direction: 'Ascending' }],
  ['fewest', { kind: 'most', direction: 'Ascending' }],
  ['the least', { kind: 'most', direction: 'Ascending' }],
];

/** Words that do not change the query. */
export const STOPWORDS = new Set(
  (
    "a an the what whats what's is are was were be been do does did me us i we my our you your please can could would " +
    'tell give get see know want need have has had there their them they it its this that these those ' +
    'in on at to for from with within of all any some same as so just also only about into than then ' +
    'show list display find which who whom where when how much many value values number numbers ' +
    'record records row rows entry entries item items data table tables overall altogether ' +
    'made placed happened came created done occurred ' +
    'per total s were got having being each every here now currently'
  ).split(' '),
);

/** Common English words for a missing number column ('revenue' → amount); users add their own. */
export const MEASURE_HINTS: Record<string, string[]> = {
  revenue: ['amount', 'revenue', 'total', 'sales'],
  sale: ['amount', 'revenue', 'sales', 'total'],
  sales: ['amount', 'revenue', 'sales', 'total'],
  turnover: ['amount', 'revenue', 'total'],
  spend: ['amount', 'total', 'cost'],
  spent: ['amount', 'total', 'cost'],
  money: ['amount', 'total', 'revenue'],
  value: ['amount', 'value', 'total'],
  cost: ['cost', 'amount', 'price'],
  price: ['price', 'unit price', 'amount'],
  earning: ['amount', 'revenue'],
  income: ['amount', 'revenue', 'salary'],
  pay: ['salary', 'amount'],
  wage: ['salary'],
  units: ['quantity'],
  unit: ['quantity'],
  qty: ['quantity'],
};

/** ISO country codes by name, so 'France' finds a column holding 'FR'. */
export const COUNTRY_CODES: Record<string, string> = {
  FR: 'france',
  DE: 'germany',
  ES: 'spain',
  PT: 'portugal',
  IT: 'italy',
  NL: 'netherlands',
  NO: 'norway',
  SE: 'sweden',
  GB: 'united kingdom',
  UK: 'united kingdom',
  IE: 'ireland',
  US: 'united states',
  BE: 'belgium',
  CH: 'switzerland',
  AT: 'austria',
  DK: 'denmark',
  FI: 'finland',
  PL: 'poland',
  CA: 'canada',
  JP: 'japan',
  CN: 'china',
  IN: 'india',
  BR: 'brazil',
  AU: 'australia',
  MX: 'mexico',
};

export const COUNTRY_ALIASES: Record<string, string> = {
  uk: 'united kingdom',
  britain: 'united kingdom',
  'great britain': 'united kingdom',
  england: 'united kingdom',
  usa: 'united states',
  us: 'united states',
  america: 'united states',
  holland: 'netherlands',
};

/** Calculations the grammar does not make: said plainly rather than answered with something else. */
export const UNSUPPORTED: Record<string, string> = {
  median: 'a median',
  percentile: 'a percentile',
  percentage: 'a percentage',
  percent: 'a percentage',
  share: 'a share of a total',
  ratio: 'a ratio',
  rate: 'a rate',
  variance: 'a variance',
  deviation: 'a standard deviation',
  correlation: 'a correlation',
  growth: 'a growth rate',
  forecast: 'a forecast',
  predict: 'a prediction',
};
