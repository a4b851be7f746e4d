/**
 * Runs one Airbyte-protocol command (`spec`, `check`, `discover`, `read`) of an operator-registered
 * source and yields its messages, one JSON object per stdout line, as they come (a slow consumer
 * pauses the source instead of buffering its output).
 *
 * The program is the operator's (command and args from AIRBYTE_SOURCES); nothing of an account's
 * configuration reaches its command line, working folder or environment: the configuration, catalog
 * and state are files in a fresh working folder made for this one call and removed afterwards. The
 * child gets a clean environment (a fixed PATH, HOME and TMPDIR in its folder, LANG, and only the
 * variables the operator listed), its own process group (killed whole at the end), a time limit, a
 * bound on each stdout line and on stderr, and an unprivileged user when the server runs as root.
 *
 * stderr and the source's internal error text go to the server log and the run's log; the errors
 * thrown here carry only generic words (or the user-facing message of a TRACE error), so nothing
 * the program prints reaches an HTTP answer.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { exactJsonText, parseJsonExact } from '../../../../exact-values/json';
import { isRecord } from '../rest-api/config-values';
import { ConnectorError, type ConnectorErrorType, type LogLevel } from '../types';
import type { AirbyteSourceSetting } from './sources-file';

export type AirbyteMessage = Record<string, unknown> & { type: string };
export type AirbyteCommand = 'spec' | 'check' | 'discover' | 'read';

export interface SourceRuntime {
  setting: AirbyteSourceSetting;
  /** The mkdtemp prefix of each call's working folder (a path prefix, e.g. /tmp/ws-airbyte-<id>-). */
  workPrefix: string;
  /** Set when the server runs as root: the program runs as this user. */
  runAs: { uid: number; gid: number } | null;
  /** The server's own log. */
  serverLog(message: string): void;
}

export interface CallContext {
  /** The run's log (a no-op for checks). */
  log(level: LogLevel, message: string): void;
  signal: AbortSignal;
}

/** Files handed to the command as --config, --catalog and --state. */
export type CallFiles = Partial<Record<'config' | 'catalog' | 'state', unknown>>;

export type FailureReason = 'reported' | 'exit' | 'timeout' | 'output' | 'start' | 'stopped';

/** A command that did not finish well; `reason` lets a check choose what the user is told. */
export class SourceFailure extends ConnectorError {
  constructor(
    message: string,
    type: ConnectorErrorType,
    readonly reason: FailureReason,
  ) {
    super(message, type);
  }
}

/** The only PATH a source gets (plus what the operator lists in its env). */
const SAFE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** stderr lines copied into the run's log per command; all of them go to the server log. */
const STDERR_LINES_IN_RUN_LOG = 200;
const LOG_LINE_CHARS = 2000;

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

const clip = (text: string) => (text.length > LOG_LINE_CHARS ? `${text.slice(0, LOG_LINE_CHARS)}…` : text);

/** The environment of a source: nothing of the server's own. */
export function sourceEnvironment(setting: AirbyteSourceSetting, workDir: string): Record<string, string> {
  return { PATH: SAFE_PATH, LANG: 'C.UTF-8', ...setting.env, HOME: workDir, TMPDIR: workDir };
}

/** A fresh working folder holding the call's files, owned by the user the program runs as. */
async function prepareFolder(runtime: SourceRuntime, files: CallFiles): Promise<{ dir: string; fileArgs: string[] }> {
  const dir = await fs.mkdtemp(runtime.workPrefix);
  const fileArgs: string[] = [];
  try {
    for (const [name, value] of Object.entries(files)) {
      if (value === undefined) continue;
      const file = path.join(dir, `${name}.json`);
      // The configuration holds the account's secrets: readable by the program's user only.
      // Numbers written back as the source sent them (a state's cursor may be a 64-bit id).
      await fs.writeFile(file, exactJsonText(value), { mode: 0o600 });
      if (runtime.runAs) await fs.chown(file, runtime.runAs.uid, runtime.runAs.gid);
      fileArgs.push(`--${name}`, file);
    }
    if (runtime.runAs) await fs.chown(dir, runtime.runAs.uid, runtime.runAs.gid);
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, fileArgs };
}

/** Splits a byte stream into lines; a line longer than `max` bytes throws `tooLong()`. */
async function* linesOf(stream: Readable, max: number, tooLong: () => Error): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a, start); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, newline);
      if (pendingBytes + piece.length > max) throw tooLong();
      yield (pendingBytes === 0 ? piece : Buffer.concat([...pending, piece])).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > max) throw tooLong();
      pending.push(rest);
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8');
}

export async function* runAirbyte(
  runtime: SourceRuntime,
  command: AirbyteCommand,
  files: CallFiles,
  ctx: CallContext,
): AsyncGenerator<AirbyteMessage> {
  const { setting } = runtime;
  const tag = `[airbyte:${setting.key} ${command}]`;
  const serverLog = (message: string) => runtime.serverLog(`${tag} ${clip(message)}`);
  if (ctx.signal.aborted)
    throw new SourceFailure('The source was stopped before it finished.', 'TransientError', 'stopped');

  const { dir, fileArgs } = await prepareFolder(runtime, files);
  const child = spawn(setting.command, [...setting.args, command, ...fileArgs], {
    cwd: dir,
    env: sourceEnvironment(setting, dir),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so whatever it starts is stopped with it.
    detached: true,
    ...(runtime.runAs ?? {}),
  });
  const killGroup = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: the group is gone already
    }
  };

  // The first reason to stop wins; later ones (the kill's own exit) do not replace it.
  let stopped: SourceFailure | null = null;
  const stop = (failure: SourceFailure) => {
    stopped ??= failure;
    killGroup();
    // A program that left its group (setsid) may still hold the pipes: stop reading them anyway.
    child.stdout.destroy();
    child.stderr.destroy();
  };
  const limit = setting.timeoutMs[command];
  const timer = setTimeout(
    () =>
      stop(
        new SourceFailure(
          `The source's ${command} did not finish within ${Math.round(limit / 1000)} s.`,
          'TransientError',
          'timeout',
        ),
      ),
    limit,
  );
  const onAbort = () =>
    stop(new SourceFailure('The source was stopped before it finished.', 'TransientError', 'stopped'));
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  let spawnError: NodeJS.ErrnoException | null = null;
  child.once('error', (error) => {
    spawnError = error;
  });
  // Not events.once: it rejects on 'error', which is handled above (ENOENT, EACCES).
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (code, signal) => resolve([code, signal])),
  );

  let stderrBytes = 0;
  let stderrLines = 0;
  let stderrRest = '';
  const stderrLine = (line: string) => {
    if (line.trim() === '') return;
    serverLog(`stderr: ${line}`);
    stderrLines++;
    if (stderrLines <= STDERR_LINES_IN_RUN_LOG) ctx.log('WARN', `stderr: ${clip(line)}`);
    else if (stderrLines === STDERR_LINES_IN_RUN_LOG + 1)
      ctx.log('WARN', 'Further stderr lines are in the server log.');
  };
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderrBytes += Buffer.byteLength(text);
    if (stderrBytes > setting.maxStderrBytes) {
      stop(
        new SourceFailure(
          `The source wrote more than ${setting.maxStderrBytes} bytes of error output; it was stopped.`,
          'SystemError',
          'output',
        ),
      );
      return;
    }
    const lines = (stderrRest + text).split('\n');
    stderrRest = lines.pop() ?? '';
    for (const line of lines) stderrLine(line);
    if (stderrRest.length > LOG_LINE_CHARS) {
      stderrLine(stderrRest);
      stderrRest = '';
    }
  });

  let traceError: SourceFailure | null = null;
  const parse = function* (line: string): Generator<AirbyteMessage> {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      // Every number exactly as printed: RECORD data and STATE cursors must not pass through doubles.
      message = parseJsonExact(line);
    } catch {
      ctx.log('INFO', clip(line)); // sources may print plain text; Airbyte ignores it too
      return;
    }
    if (!isRecord(message) || typeof message.type !== 'string') return;
    const typed = message as AirbyteMessage;
    if (typed.type === 'LOG' && isRecord(typed.log)) {
      const level = logLevel(typed.log.level);
      if (level) ctx.log(level, clip(String(typed.log.message ?? '')));
      return;
    }
    if (typed.type === 'TRACE') {
      if (isRecord(typed.trace) && typed.trace.type === 'ERROR') {
        const error = isRecord(typed.trace.error) ? typed.trace.error : {};
        const text =
          typeof error.message === 'string' && error.message ? error.message : 'The source reported an error.';
        // The internal text and stack are for the operator only.
        serverLog(`error: ${text}; ${String(error.internal_message ?? '')} ${String(error.stack_trace ?? '')}`);
        ctx.log('ERROR', clip(text));
        traceError = new SourceFailure(clip(text), errorType(error.failure_type), 'reported');
      }
      return;
    }
    yield typed;
  };

  try {
    const tooLong = () => {
      const failure = new SourceFailure(
        `The source wrote a message larger than ${setting.maxLineBytes} bytes; it was stopped.`,
        'SystemError',
        'output',
      );
      stop(failure);
      return failure;
    };
    for await (const line of linesOf(child.stdout, setting.maxLineBytes, tooLong)) {
      if (stopped) break;
      yield* parse(line);
    }
    const [code, signal] = await exited;
    if (stderrRest) stderrLine(stderrRest);
    if (stopped) throw stopped;
    if (spawnError) {
      const reason = (spawnError as NodeJS.ErrnoException).code ?? String(spawnError);
      serverLog(`${setting.command} could not be started: ${reason}`);
      throw new SourceFailure('The source could not be started; the server log says why.', 'SystemError', 'start');
    }
    if (traceError) throw traceError;
    if (code !== 0) {
      const how = signal ? `was stopped by ${signal}` : `ended with exit code ${code}`;
      serverLog(how);
      ctx.log('ERROR', `The source's ${command} ${how}.`);
      throw new SourceFailure(`The source's ${command} failed.`, 'SystemError', 'exit');
    }
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    if (stopped) throw stopped;
    serverLog(`failed: ${error instanceof Error ? error.message : String(error)}`);
    throw new SourceFailure(`The source's ${command} failed.`, 'SystemError', 'exit');
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    killGroup(); // also whatever it left running in its group
    child.stdout.destroy();
    child.stderr.destroy();
    await exited;
    await fs.rm(dir, { recursive: true, force: true }).catch((error: unknown) => {
      serverLog(`its working folder ${dir} could not be removed: ${String(error)}`);
    });
  }
}
