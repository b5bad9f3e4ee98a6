import { Module, OnModuleInit } from '@nestjs/common';
import { notFound } from '../../src/common/http/api-errors';
import { CommentsModule } from '../../src/modules/comments/comments.module';
import { CommentsService } from '../../src/modules/comments/comments.service';

/** A stand-in 'guide' context: 1 and 2 exist and are public, 3 exists but only user PRIVATE_READER may read it. */
export const PRIVATE_GUIDE = 3;
export const state = { privateReader: -1 };

@Module({ imports: [CommentsModule] })
export class CommentContextTestModule implements OnModuleInit {
  constructor(private readonly comments: CommentsService) {}

  onModuleInit(): void {
    this.comments.registerContext('guide', {
      assertReadable: async (user, id) => {
        if (id === 1 || id === 2) return { title: `Guide ${id}` };
        if (id === PRIVATE_GUIDE && user?.userid === state.privateReader) return { title: 'Private guide' };
        throw notFound('Guide');
      },
    });
  }
}
