import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row: a check value of the master key that sealed this database's secrets (an HMAC of a fixed
 * label under that key, which reveals nothing of the key). A process started with another key is
 * refused before it can fail on every sealed secret or seal new ones no other process can open.
 */
@Entity('master_key_check')
@Check('ck_master_key_check_single_row', '"id" = 1')
export class MasterKeyCheck {
  @PrimaryColumn('smallint') id: number;

  @Column('text') checkValue: string;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
