import type { Command } from 'commander';
import { businessCommands } from './business.commands';
import { operatorTokenCommands } from './operator-token.commands';
import { v1KeyCommands } from './v1-key.commands';

/** Identity's operator commands: `business …` (other areas add theirs to it), `v1-key …` and `operator-token …`. */
export function commands(program: Command) {
  businessCommands(program);
  v1KeyCommands(program);
  operatorTokenCommands(program);
}
