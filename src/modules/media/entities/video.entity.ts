import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { UserEntity } from '../../users/entities/user.entity';
import { ImageEntity } from './image.entity';

@Entity({ name: 'videos' })
@Index('idx_videos_owner_manager', ['ownerUserid', 'inManager', 'videoid'])
export class VideoEntity {
  @PrimaryGeneratedColumn({ name: 'videoid', type: 'int' })
  videoid: number;

  @Index('uq_videos_guid', { unique: true })
  @Column({ name: 'guid', type: 'varchar', length: 16 })
  guid: string;

  @Column({ name: 'owner_userid', type: 'int', nullable: true })
  ownerUserid: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_userid', foreignKeyConstraintName: 'fk_videos_owner' })
  owner?: UserEntity;

  @Column({ name: 'in_manager', type: 'boolean', default: true })
  inManager: boolean;

  @Column({ name: 'filename', type: 'varchar', length: 255, default: '' })
  filename: string;

  @Column({ name: 'mime', type: 'varchar', length: 32 })
  mime: string;

  @Column({ name: 'ext', type: 'varchar', length: 8 })
  ext: string;

  @Column({ name: 'file_size', type: 'int' })
  fileSize: number;

  @Column({ name: 'width', type: 'int', default: 0 })
  width: number;

  @Column({ name: 'height', type: 'int', default: 0 })
  height: number;

  @Column({ name: 'duration_ms', type: 'int', default: 0 })
  durationMs: number;

  @Column({ name: 'thumbnail_imageid', type: 'int', nullable: true })
  thumbnailImageid: number | null;

  @ManyToOne(() => ImageEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'thumbnail_imageid', foreignKeyConstraintName: 'fk_videos_thumbnail' })
  thumbnail?: ImageEntity;

  /** processing, finished or failed. */
  @Column({ name: 'state', type: 'varchar', length: 16 })
  state: string;

  /** JSON: what ffprobe reported (codecs, bitrates, frame rate…), or what is known without it. */
  @Column({ name: 'meta', type: 'text' })
  meta: string;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
