// Where the queue is: redis://[user:password@]host[:port][/db] or rediss:// (TLS), with an
// optional ?prefix=NAME; the connection settings that make every failure quick and clear.
import type { ConnectionOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { BitpuzzleError, badInput } from '../errors.js';
import type { QueueOption } from '../parallel/pool.js';

/** The BullMQ queue every part goes through (problems are told apart by their job ids). */
export const QUEUE_NAME = 'parts';
export const DEFAULT_PREFIX = 'bitpuzzle';
/** How long to wait for Redis before giving up with QUEUE_UNAVAILABLE. */
export const CONNECT_TIMEOUT_MS = 3000;

export interface QueueTarget {
  redis: RedisOptions;
  prefix: string;
  /** The URL without its password, for messages. */
  display: string;
}

export function parseQueue(option: QueueOption, prefixOverride?: string): QueueTarget {
  const text = typeof option === 'string' ? option : option?.url;
  if (typeof text !== 'string') throw badInput('queue must be a redis:// or rediss:// URL');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badInput(`queue must be a redis:// or rediss:// URL, got ${JSON.stringify(text.replace(/\/\/[^@/]*@/, '//…@'))}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw badInput(`queue must be a redis:// or rediss:// URL, got a ${url.protocol} URL`);
  }
  const dbText = url.pathname.replace(/^\//, '');
  if (dbText !== '' && !/^\d{1,4}$/.test(dbText)) throw badInput(`the queue URL's database must be a number, got ${JSON.stringify(dbText)}`);
  const prefix = prefixOverride ?? (typeof option === 'object' ? option.prefix : undefined) ?? url.searchParams.get('prefix') ?? DEFAULT_PREFIX;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix)) throw badInput(`the queue prefix must be 1 to 64 letters, digits, '_', '.' or '-', got ${JSON.stringify(prefix)}`);
  const redis: RedisOptions = {
    host: url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: url.port ? Number(url.port) : 6379,
    db: dbText ? Number(dbText) : 0,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    tls: url.protocol === 'rediss:' ? { servername: url.hostname } : undefined,
    connectTimeout: CONNECT_TIMEOUT_MS,
  };
  const display = `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}${dbText ? `/${dbText}` : ''}`;
  return { redis, prefix, display };
}

/** The error for a queue that cannot be used, from what Redis or the network said. */
export function unavailable(target: QueueTarget, error: unknown, doing = 'cannot reach the queue'): BitpuzzleError {
  if (error instanceof BitpuzzleError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new BitpuzzleError('QUEUE_UNAVAILABLE', `${doing} at ${target.display}: ${reason}`);
}

/**
 * A client for this process's own commands (polls, checks): it fails a command at once when
 * disconnected instead of queueing it, and times out instead of waiting on a silent server.
 */
export async function openClient(target: QueueTarget): Promise<Redis> {
  const client = new Redis({
    ...target.redis,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 5000,
    // Reconnect for a while (a restart), then let commands fail.
    retryStrategy: (times) => (times > 20 ? null : 250),
  });
  let lastError: unknown;
  client.on('error', (error) => (lastError = error));
  try {
    await withTimeout(client.connect(), CONNECT_TIMEOUT_MS + 500, 'no answer');
    await client.ping();
    return client;
  } catch (error) {
    client.disconnect();
    throw unavailable(target, lastError && !(error instanceof Error && /WRONGPASS|NOAUTH|NOPERM/.test(error.message)) ? lastError : error);
  }
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Settings of the BullMQ connections: give up reconnecting after a few seconds. */
export function bullConnection(target: QueueTarget, blocking: boolean): ConnectionOptions {
  return {
    ...target.redis,
    maxRetriesPerRequest: blocking ? null : 1,
    enableOfflineQueue: blocking,
    retryStrategy: (times: number) => (blocking ? Math.min(5000, 250 * times) : times > 20 ? null : 250),
  } as ConnectionOptions;
}
