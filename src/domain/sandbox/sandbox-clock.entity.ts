import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * A business's test-mode clock (design section 8, Test clock): how far it runs ahead of the wall
 * clock. No row means no offset. Live mode has no clock of its own.
 */
@Entity('sandbox_clocks')
export class SandboxClock {
  @PrimaryColumn('uuid') businessId: string;
  @Column('integer', { default: 0 }) offsetSeconds: number;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

export enum ClockAdvanceStatus {
  RUNNING = 'running',
  COMPLETED = 'completed',
}

/**
 * One advance of a business's test clock (docs/sandbox.md, Test clock): the clock moved in the
 * request; the work that fell due (`untilAt` on the business's clock) is fired by background
 * slices, which count what they fired here. At most one is running per business.
 */
@Entity('sandbox_clock_advances')
@Index('uq_sandbox_clock_advances_running', ['businessId'], { unique: true, where: `"status" = 'running'` })
@Index('ix_sandbox_clock_advances_business', ['businessId', 'createdAt'])
export class SandboxClockAdvance {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') businessId: string;
  @Column('integer') seconds: number;
  /** The business's clock when the advance was asked for, and the time it fires the work up to. */
  @Column('timestamptz') fromAt: Date;
  @Column('timestamptz') untilAt: Date;
  /** Counted before the clock moved (the bounds apply to these). */
  @Column('integer') runsDue: number;
  @Column('integer') payoutsDue: number;
  /** Incremented in the transaction of each run the advance fires. */
  @Column('integer', { default: 0 }) runsFired: number;
  @Column('text') status: ClockAdvanceStatus;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
}
