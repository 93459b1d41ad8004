import 'reflect-metadata';
import { StartupError } from '../startup-error';
import { operatorProgram } from './program';

// The operator CLI's entry point (bin/tessera.js runs it): its commands are src/cli/program.ts's.
operatorProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    const message =
      error instanceof StartupError
        ? error.message
        : error instanceof Error
          ? error.message.split('\n')[0]
          : String(error);
    const details = (error as { fieldErrors?: unknown }).fieldErrors;
    process.stderr.write(`${JSON.stringify({ error: message, ...(details ? { errors: details } : {}) })}\n`);
    process.exitCode = 1;
  });
