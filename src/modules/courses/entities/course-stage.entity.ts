import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One stage of a course (docs/enterprise/quizzes.md): a course is a wiki page; each stage trains on a document
 * (a guide or wiki) and may link a quiz with its own passing score, or an external training module.
 * Written only by the demo seed and test factories (no HTTP write exists).
 */
@Entity({ name: 'course_stages' })
@Index('idx_course_stages_course', ['courseWikiid', 'orderby'])
@Index('idx_course_stages_quiz', ['quizid'])
@Index('idx_course_stages_module', ['moduleid'])
export class CourseStageEntity {
  @PrimaryGeneratedColumn({ name: 'course_stageid', type: 'int' })
  courseStageid: number;

  /** The course: a wiki page (its wikiid). */
  @Column({ name: 'course_wikiid', type: 'int' })
  courseWikiid: number;

  @Column({ name: 'orderby', type: 'int' })
  orderby: number;

  /** GUIDE or WIKI, with docid: what the stage trains on (null when it is only a quiz or module). */
  @Column({ name: 'doctype', type: 'varchar', length: 8, nullable: true })
  doctype: string | null;

  @Column({ name: 'docid', type: 'int', nullable: true })
  docid: number | null;

  @Column({ name: 'quizid', type: 'int', nullable: true })
  quizid: number | null;

  /** 0-100; null: the quiz's default passing score applies. */
  @Column({ name: 'passing_score', type: 'int', nullable: true })
  passingScore: number | null;

  /** An external training module the stage uses (its usage: docs/enterprise/training-modules.md). */
  @Column({ name: 'moduleid', type: 'int', nullable: true })
  moduleid: number | null;
}
