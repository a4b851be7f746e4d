/**
 * Runs one Airbyte-protocol command (`spec`, `check`, `discover`, `read`) and yields its messages,
 * one JSON object per stdout line, as they come (stdout is read chunk by chunk, so a slow consumer
 * pauses the source instead of buffering its output). LOG messages and non-JSON lines go straight
 * to the attempt's log; a TRACE error, a non-zero exit or a command that cannot start ends the
 * iteration with a ConnectorError after the messages before it were yielded.
 */
import { spawn } from 'node:child_process';
import { isRecord } from '../rest-api/config-values';
import { ConnectorError, type ConnectorContext, type ConnectorErrorType, type LogLevel } from '../types';
import type { AirbyteConfig } from './spec';

export type AirbyteMessage = Record<string, unknown> & { type: string };

const STDERR_TAIL = 2000;

function logLevel(level: unknown): LogLevel | null {
  const l = String(level).toUpperCase();
  if (l === 'FATAL' || l === 'ERROR') return 'ERROR';
  if (l === 'WARN' || l === 'WARNING') return 'WARN';
  if (l === 'INFO') return 'INFO';
  return null; // DEBUG and TRACE stay out of the user's activity log
}

function errorType(failureType: unknown): ConnectorErrorType {
  if (failureType === 'config_error') return 'ConfigError';
  if (failureType === 'transient_error') return 'TransientError';
  return 'SystemError';
}

/** Handles LOG and TRACE; returns the error a TRACE ERROR announces, if any. */
function handleSideMessage(message: AirbyteMessage, ctx: ConnectorContext): ConnectorError | null {
  if (message.type === 'LOG' && isRecord(message.log)) {
    const level = logLevel(message.log.level);
    if (level) ctx.log(level, String(message.log.message ?? ''));
  }
  if (message.type === 'TRACE' && isRecord(message.trace) && message.trace.type === 'ERROR') {
    const error = isRecord(message.trace.error) ? message.trace.error : {};
    const text = String(error.message ?? error.internal_message ?? 'The source reported an error');
    ctx.log('ERROR', text);
    return new ConnectorError(text, errorType(error.failure_type));
  }
  return null;
}

export async function* runAirbyte(
  config: AirbyteConfig,
  commandArgs: string[],
  ctx: ConnectorContext,
): AsyncGenerator<AirbyteMessage> {
  const child = spawn(config.command, [...config.args, ...commandArgs], {
    cwd: config.workingDirectory,
    stdio: ['ignore', 'pipe', 'pipe'],
    signal: ctx.signal,
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL);
  });
  let spawnError: Error | null = null;
  child.once('error', (error) => {
    spawnError = error;
  });
  // Not events.once: it rejects on 'error', which is handled above (ENOENT, abort).
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (code, signal) => resolve([code, signal])),
  );
  let traceError: ConnectorError | null = null;
  const what = `${config.command} ${commandArgs[0] ?? ''}`.trim();

  const parse = function* (line: string): Generator<AirbyteMessage> {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      ctx.log('INFO', line.slice(0, 1000)); // sources may print plain text; Airbyte ignores it too
      return;
    }
    if (!isRecord(message) || typeof message.type !== 'string') return;
    const typed = message as AirbyteMessage;
    traceError = handleSideMessage(typed, ctx) ?? traceError;
    if (typed.type !== 'LOG' && typed.type !== 'TRACE') yield typed;
  };

  try {
    let rest = '';
    child.stdout.setEncoding('utf8');
    for await (const chunk of child.stdout as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) yield* parse(line);
    }
    yield* parse(rest);
    const [code, signal] = await exited;
    if (spawnError) throw spawnError;
    if (traceError) throw traceError;
    if (code !== 0) {
      const tail = stderr.trim().split('\n').slice(-5).join('\n');
      const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
      throw new ConnectorError(`${what} ${how}${tail ? `: ${tail}` : ''}`, 'SystemError');
    }
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EACCES') {
      throw new ConnectorError(`The command '${config.command}' could not be started (${code})`, 'ConfigError');
    }
    if (ctx.signal.aborted) throw error;
    throw new ConnectorError(
      `${what} failed: ${error instanceof Error ? error.message : String(error)}`,
      'SystemError',
    );
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
}
