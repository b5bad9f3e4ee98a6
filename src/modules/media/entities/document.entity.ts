import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { unixTimeColumn } from '../../../database/columns';
import { UserEntity } from '../../users/entities/user.entity';

/** An uploaded PDF or office file (guides' `documents`, category documents). */
@Entity({ name: 'documents' })
@Index('idx_documents_owner_manager', ['ownerUserid', 'inManager', 'documentid'])
export class DocumentEntity {
  @PrimaryGeneratedColumn({ name: 'documentid', type: 'int' })
  documentid: number;

  @Index('uq_documents_guid', { unique: true })
  @Column({ name: 'guid', type: 'varchar', length: 16 })
  guid: string;

  @Column({ name: 'owner_userid', type: 'int', nullable: true })
  ownerUserid: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_userid', foreignKeyConstraintName: 'fk_documents_owner' })
  owner?: UserEntity;

  @Column({ name: 'in_manager', type: 'boolean', default: true })
  inManager: boolean;

  @Column({ name: 'filename', type: 'varchar', length: 255 })
  filename: string;

  @Column({ name: 'title', type: 'varchar', length: 255 })
  title: string;

  @Column({ name: 'mime', type: 'varchar', length: 128 })
  mime: string;

  @Column({ name: 'ext', type: 'varchar', length: 8 })
  ext: string;

  /** pdf, word, spreadsheet or presentation. */
  @Column({ name: 'doc_group', type: 'varchar', length: 16 })
  docGroup: string;

  @Column({ name: 'file_size', type: 'int' })
  fileSize: number;

  /** Storage key of the file (it carries a sanitized copy of the filename, for downloads). */
  @Column({ name: 'storage_key', type: 'varchar', length: 255 })
  storageKey: string;

  @Column(unixTimeColumn({ name: 'created_date' }))
  createdDate: number;
}
