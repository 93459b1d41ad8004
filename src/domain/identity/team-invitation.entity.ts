import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Role } from '../shared/modes';

/** PENDING until the invitee accepts or declines or an admin revokes it; past expiresAt it stays PENDING and can no longer be accepted. */
export enum TeamInvitationStatus {
  PENDING = 'PENDING',
  ACCEPTED = 'ACCEPTED',
  DECLINED = 'DECLINED',
  REVOKED = 'REVOKED',
}

/**
 * An invitation to join a business with a role, addressed to an email. It exists whether or not an
 * account uses that email; only the signed-in user with that email sees and answers it.
 */
@Entity('team_invitations')
@Index('uq_team_invitations_pending', ['businessId', 'email'], { unique: true, where: `"status" = 'PENDING'` })
@Index('ix_team_invitations_email', ['email', 'createdAt'])
export class TeamInvitation {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') businessId: string;

  /** Lower-cased. */
  @Column('text') email: string;

  @Column({ type: 'enum', enum: Role, enumName: 'membership_role' }) role: Role;

  @Column({
    type: 'enum',
    enum: TeamInvitationStatus,
    enumName: 'team_invitation_status',
    default: TeamInvitationStatus.PENDING,
  })
  status: TeamInvitationStatus;

  @Column('uuid', { nullable: true }) invitedByUserId: string | null;

  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) respondedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
