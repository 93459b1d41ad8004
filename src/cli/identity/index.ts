import type { Command } from 'commander';
import { businessCommands } from './business.commands';
import { v1KeyCommands } from './v1-key.commands';

/** Identity's operator commands: `business …` (other areas add theirs to it) and `v1-key …`. */
export function commands(program: Command) {
  businessCommands(program);
  v1KeyCommands(program);
}
