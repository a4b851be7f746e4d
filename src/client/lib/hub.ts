/**
 * Live hubs in the browser (spec: real-time hubs under /api/hubs/*), through the official
 * `@microsoft/signalr` client against our server's implementation of its protocol.
 *
 * API (all an area needs):
 *   useHubEvent(hub, target, handler)
 *     While the component is mounted and someone is signed in, calls `handler(...args)` for each
 *     `target` the server sends on `hub` (server side: `deps.hubs.toUser/toAccount/toConnection`).
 *     Arguments come from the server as JSON: parse them (zod) before use. The handler may change
 *     on every render; the subscription does not.
 *     e.g. useHubEvent('notifications', 'ReceiveNotification', () => void utils.notifications.invalidate());
 *   useHubConnection(hub)
 *     Keeps the hub connected while mounted and signed in (the workspace layout holds the
 *     notifications hub, so it is connected on every signed-in page).
 *   invokeHub(hub, method, ...args)
 *     Calls a server method of the hub and resolves with its result (for hubs that have methods).
 *   stopHubs()
 *     Closes every hub connection (sign-out calls it).
 *
 * One connection per hub is shared by every subscriber and closed when the last one unmounts.
 * Reconnects after 0, 2, 10 and 30 s, then stops (the spec's delays; the client's default); server
 * timeout 30 s, keep-alive 15 s. After a reconnect every TanStack query is invalidated, so an event
 * missed while away leaves no stale page.
 */
import {
  HubConnectionBuilder,
  HubConnectionState,
  HttpTransportType,
  LogLevel,
  type HubConnection,
} from '@microsoft/signalr';
import { useEffect, useRef } from 'react';
import { HUB_PATHS } from '../../shared/hubs';
import { HUB_LIMITS, HUB_RECONNECT_DELAYS_MS } from '../../shared/limits';
import { queryClient } from '../query-client';
import { useMe } from './session';

export type HubName = keyof typeof HUB_PATHS;
export type HubHandler = (...args: unknown[]) => void;

interface Entry {
  hub: HubName;
  connection: HubConnection;
  userId: string;
  subscribers: number;
  /** The running start (with its retries); settled once connected or given up. */
  started: Promise<void>;
  starting: boolean;
  stopTimer: number | undefined;
}

const entries = new Map<HubName, Entry>();
/** A subscriber that remounts at once (React StrictMode, a route change) keeps the connection. */
const STOP_DELAY_MS = 1_000;

function build(hub: HubName): HubConnection {
  const connection = new HubConnectionBuilder()
    .withUrl(HUB_PATHS[hub], { transport: HttpTransportType.WebSockets, withCredentials: true })
    .withAutomaticReconnect([...HUB_RECONNECT_DELAYS_MS])
    .configureLogging(LogLevel.Warning)
    .build();
  connection.serverTimeoutInMilliseconds = HUB_LIMITS.serverTimeoutMs;
  connection.keepAliveIntervalInMilliseconds = HUB_LIMITS.keepAliveMs;
  connection.onreconnected(() => {
    void queryClient.invalidateQueries();
  });
  return connection;
}

/** The first start is retried with the same delays; the client reconnects by itself only later. */
async function startWithRetry(entry: Entry): Promise<void> {
  entry.starting = true;
  try {
    await startAttempts(entry);
  } finally {
    entry.starting = false;
  }
}

async function startAttempts(entry: Entry): Promise<void> {
  for (const delay of [0, ...HUB_RECONNECT_DELAYS_MS.slice(1)]) {
    if (delay > 0) await new Promise((resolve) => window.setTimeout(resolve, delay));
    // Stopped (unmounted, signed out) while waiting.
    if (entries.get(entry.hub) !== entry) return;
    try {
      await entry.connection.start();
      return;
    } catch {
      // Server away or restarting: try again after the next delay.
    }
  }
}

function acquire(hub: HubName, userId: string): HubConnection {
  let entry = entries.get(hub);
  if (entry && entry.userId !== userId) {
    release(hub, true);
    entry = undefined;
  }
  if (!entry) {
    const created: Entry = {
      hub,
      connection: build(hub),
      userId,
      subscribers: 0,
      started: Promise.resolve(),
      starting: false,
      stopTimer: undefined,
    };
    entries.set(hub, created);
    entry = created;
  }
  // New, or closed since (reconnects given up, the server signed the session out): start again.
  if (!entry.starting && entry.connection.state === HubConnectionState.Disconnected) {
    entry.started = startWithRetry(entry);
  }
  window.clearTimeout(entry.stopTimer);
  entry.subscribers += 1;
  return entry.connection;
}

function release(hub: HubName, now = false): void {
  const entry = entries.get(hub);
  if (!entry) return;
  if (!now) {
    entry.subscribers -= 1;
    if (entry.subscribers > 0) return;
  }
  const stop = () => {
    if (entries.get(hub) !== entry) return;
    entries.delete(hub);
    void entry.connection.stop();
  };
  if (now) stop();
  else entry.stopTimer = window.setTimeout(stop, STOP_DELAY_MS);
}

export function useHubConnection(hub: HubName): void {
  const { data: me } = useMe();
  const userId = me?.id ?? null;
  useEffect(() => {
    if (!userId) return;
    acquire(hub, userId);
    return () => release(hub);
  }, [hub, userId]);
}

export function useHubEvent(hub: HubName, target: string, handler: HubHandler): void {
  const { data: me } = useMe();
  const userId = me?.id ?? null;
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!userId) return;
    const connection = acquire(hub, userId);
    const listener: HubHandler = (...args) => latest.current(...args);
    connection.on(target, listener);
    return () => {
      connection.off(target, listener);
      release(hub);
    };
  }, [hub, target, userId]);
}

/** Calls a server method once the hub is connected; rejects when it is not (or the method fails). */
export async function invokeHub<T = unknown>(hub: HubName, method: string, ...args: unknown[]): Promise<T> {
  const entry = entries.get(hub);
  if (!entry) throw new Error(`The ${hub} hub is not connected.`);
  await entry.started;
  if (entry.connection.state !== HubConnectionState.Connected) throw new Error(`The ${hub} hub is not connected.`);
  return entry.connection.invoke<T>(method, ...args);
}

export function stopHubs(): void {
  for (const hub of [...entries.keys()]) release(hub, true);
}
