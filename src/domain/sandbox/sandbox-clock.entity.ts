import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

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
