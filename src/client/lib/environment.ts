export type Environment = 'prod' | 'dev' | 'local';

/** Environments are told apart by host name (spec section 9). */
export function detectEnvironment(host: string = window.location.hostname): Environment {
  if (host === 'localhost' || host.startsWith('127.') || host === '[::1]' || host.endsWith('.local')) return 'local';
  if (/(^|[.-])(dev|staging|test)([.-]|$)/.test(host)) return 'dev';
  return 'prod';
}
