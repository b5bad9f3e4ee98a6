import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { UserEntity } from '../../users/entities/user.entity';

/** An uploaded image; its files (original and size variants) live in media storage under keys built from `guid`. */
@Entity({ name: 'images' })
@Index('idx_images_owner_manager', ['ownerUserid', 'inManager', 'imageid'])
export class ImageEntity {
  @PrimaryGeneratedColumn({ name: 'imageid', type: 'int' })
  imageid: number;

  @Index('uq_images_guid', { unique: true })
  @Column({ name: 'guid', type: 'varchar', length: 16 })
  guid: string;

  @Column({ name: 'owner_userid', type: 'int', nullable: true })
  ownerUserid: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_userid', foreignKeyConstraintName: 'fk_images_owner' })
  owner?: UserEntity;

  /** In its owner's media manager (removed by DELETE /user/media/images/{ids}). */
  @Index('idx_images_in_manager')
  @Column({ name: 'in_manager', type: 'boolean', default: true })
  inManager: boolean;

  /** The image this one was copied or cropped from. */
  @Column({ name: 'srcid', type: 'int', nullable: true })
  srcid: number | null;

  @Column({ name: 'filename', type: 'varchar', length: 255, default: '' })
  filename: string;

  /** Type of the uploaded file (image/jpeg, image/png, image/gif, image/webp). */
  @Column({ name: 'mime', type: 'varchar', length: 32 })
  mime: string;

  @Column({ name: 'original_ext', type: 'varchar', length: 8 })
  originalExt: string;

  @Column({ name: 'variant_ext', type: 'varchar', length: 8 })
  variantExt: string;

  @Column({ name: 'width', type: 'int' })
  width: number;

  @Column({ name: 'height', type: 'int' })
  height: number;

  /** ONE_ONE, FOUR_THREE or VARIABLE. */
  @Column({ name: 'ratio', type: 'varchar', length: 16 })
  ratio: string;

  @Column({ name: 'file_size', type: 'int' })
  fileSize: number;

  /** JSON object of the recorded EXIF fields ({} when none). */
  @Column({ name: 'exif', type: 'text' })
  exif: string;

  @Column({ name: 'markup', type: 'text', nullable: true })
  markup: string | null;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
