import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn({ name: 'userid', type: 'int' })
  userid: number;

  /** Stored lower-cased; only shown to its owner and to Admins. */
  @Index('uq_users_email', { unique: true })
  @Column({ name: 'email', type: 'varchar', length: 255 })
  email: string;

  @Index('idx_users_username')
  @Column({ name: 'username', type: 'varchar', length: 255 })
  username: string;

  @Index('uq_users_unique_username', { unique: true })
  @Column({ name: 'unique_username', type: 'varchar', length: 64, nullable: true })
  uniqueUsername: string | null;

  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  /** Comma-separated privilege names (Admin, Moderator, Author); every account is a User. */
  @Column({ name: 'privileges', type: 'varchar', length: 255, default: '' })
  privileges: string;

  @Index('idx_users_join_date')
  @Column(unixTimeColumn({ name: 'join_date' }))
  joinDate: number;

  @Column({ name: 'reputation', type: 'int', default: 0 })
  reputation: number;

  @Column({ name: 'enabled', type: 'boolean', default: true })
  enabled: boolean;

  /** 0 when not banned, else the UNIX time the ban was set. */
  @Column(unixTimeColumn({ name: 'banned', default: 0 }))
  banned: number;

  @Index('uq_users_sso_userid', { unique: true })
  @Column({ name: 'sso_userid', type: 'varchar', length: 255, nullable: true })
  ssoUserid: string | null;

  @Index('uq_users_employee_id', { unique: true })
  @Column({ name: 'employee_id', type: 'varchar', length: 255, nullable: true })
  employeeId: string | null;

  @Column({ name: 'summary', type: 'varchar', length: 255, default: '' })
  summary: string;

  @Column({ name: 'about_raw', type: 'text' })
  aboutRaw: string;

  @Column({ name: 'langid', type: 'varchar', length: 16, default: 'en' })
  langid: string;

  /** Avatar image; no foreign key until the media module owns images. */
  @Column({ name: 'imageid', type: 'int', nullable: true })
  imageid: number | null;

  /** The Admin who created this account through createByEmails, if any. */
  @Index('idx_users_created_by')
  @Column({ name: 'created_by_userid', type: 'int', nullable: true })
  createdByUserid: number | null;
}

/** What a light user object shows (search results, authors): the columns `toUserLight` reads. */
export type UserLightColumns = Pick<
  UserEntity,
  'userid' | 'username' | 'uniqueUsername' | 'joinDate' | 'reputation' | 'imageid'
>;

/** The properties of UserLightColumns, for hand-written select lists. */
export const USER_LIGHT_COLUMNS: (keyof UserLightColumns)[] = [
  'userid',
  'username',
  'uniqueUsername',
  'joinDate',
  'imageid',
  'reputation',
];
