/**
 * Words of names and questions, compared in one form: lower case, accents dropped, split at
 * snake_case, camelCase, spaces and punctuation, each word singularised ('orders' → 'order').
 */

/** Lower case without accents ('Chloé' → 'chloe'). */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** 'signedUpOn', 'signed_up_on', 'Signed up on' → ['signed', 'up', 'on']. */
export function splitName(name: string): string[] {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return fold(spaced)
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

const IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  data: 'data',
  series: 'series',
  status: 'status',
  news: 'news',
  analysis: 'analysis',
  business: 'business',
  address: 'address',
  bus: 'bus',
  gas: 'gas',
  yes: 'yes',
  is: 'is',
  was: 'was',
  has: 'has',
  this: 'this',
  its: 'its',
  us: 'us',
  plus: 'plus',
  previous: 'previous',
  various: 'various',
  bonus: 'bonus',
  campus: 'campus',
  census: 'census',
  canvas: 'canvas',
  always: 'always',
  perhaps: 'perhaps',
  less: 'less',
  class: 'class',
  glass: 'glass',
  boss: 'boss',
  loss: 'loss',
  process: 'process',
  access: 'access',
  success: 'success',
  express: 'express',
};

/** A word's singular, by the common English endings ('categories' → 'category', 'boxes' → 'box'). */
export function singular(word: string): string {
  const known = IRREGULAR[word];
  if (known) return known;
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is|ous)$/.test(word)) return word;
  if (/(ches|shes|xes|zes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** The name's words in compared form. */
export function nameWords(name: string): string[] {
  return splitName(name).map(singular);
}
