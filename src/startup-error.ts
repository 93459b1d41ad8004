/**
 * A problem that stops Tessera from starting and that the operator can fix: a bad setting, a data
 * directory it cannot use, a port taken by another program. The message is one line that names the
 * cause and the fix; entry points print it as it is, without a stack trace, and exit non-zero.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** A setting read from the environment is missing or malformed. */
export class ConfigError extends StartupError {
  constructor(message: string) {
    super(`Configuration error: ${message}`);
    this.name = 'ConfigError';
  }
}

/**
 * The one line an entry point prints when it cannot start. Expected problems are their message;
 * anything else is its message too, and the stack only when LOG_LEVEL asks for debugging.
 */
export function startupFailureLine(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  if (error instanceof StartupError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const debugging = env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace';
  if (debugging && error instanceof Error && error.stack) return `failed to start: ${error.stack}`;
  return `failed to start: ${message.split('\n')[0]} (set LOG_LEVEL=debug for the stack trace)`;
}

/** An operating-system error as a short reason: its code and what the code means. */
export function fsReason(error: unknown): string {
  const failure = error as NodeJS.ErrnoException;
  const reasons: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
    ENOTDIR: 'a path component is a file, not a directory',
    EEXIST: 'a file of that name exists',
    ENOENT: 'no such file or directory',
    EDQUOT: 'disk quota exceeded',
  };
  return failure?.code
    ? `${failure.code}: ${reasons[failure.code] ?? failure.message}`
    : String(failure?.message ?? error);
}

/** TESSERA_DATA_DIR (secrets, the embedded database's log, and its data for an ordinary user) cannot be written. */
export function dataDirUnwritable(dataDir: string, error: unknown): StartupError {
  return new StartupError(
    `Tessera cannot write its data directory ${dataDir} (${fsReason(error)}). Set TESSERA_DATA_DIR to a directory you can write, or fix its permissions.`,
  );
}
