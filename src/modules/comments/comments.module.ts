import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { CommentsController } from './comments.controller';
import { CommentsRepository } from './comments.repository';
import { CommentsService } from './comments.service';

/** Comments on documents of content modules, which register their context types (see comment-contexts.ts). */
@Module({
  imports: [UsersModule],
  controllers: [CommentsController],
  providers: [CommentsRepository, CommentsService],
  exports: [CommentsService],
})
export class CommentsModule {}
